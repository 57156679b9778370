// Which Host headers the gateway answers. A gateway on loopback answers loopback names only, so a
// web page whose own name was re-pointed at 127.0.0.1 (DNS rebinding) cannot talk to it.
import { type Config, isLoopback, listenHost } from '../../config';
import type { Refusal, RequestGuard } from './refusal';

type HostConfig = Pick<Config, 'server' | 'access'>;

/** Names that only this machine resolves to itself: no one else can point them at the gateway. */
const LOOPBACK_NAMES = /^(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

/** The host name of a Host header (no port, lower case), or undefined when it is not one. */
function hostNameOf(header: string | null): string | undefined {
  if (header === null || header === '' || /[/?#@\s\\]/.test(header)) return undefined;
  try {
    return new URL(`http://${header}`).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/**
 * A test of the Host header, or undefined when every Host is answered: the check applies when the
 * gateway listens on loopback or ALLOWED_HOSTS is set, and "*" turns it off.
 */
export function hostCheck(config: HostConfig): ((header: string | null) => boolean) | undefined {
  const listed = config.access.allowedHosts;
  if (listed?.includes('*')) return undefined;
  if (listed === undefined && !isLoopback(listenHost(config.server))) return undefined;
  const allowed = new Set(listed ?? []);
  return (header) => {
    const name = hostNameOf(header);
    return name !== undefined && (LOOPBACK_NAMES.test(name) || allowed.has(name));
  };
}

const HOST_NOT_ALLOWED: Refusal = {
  status: 421,
  code: 'HOST_NOT_ALLOWED',
  message: 'This gateway does not answer for that host name (see ALLOWED_HOSTS).',
};

/** Refuses a request (or WebSocket upgrade) for a host name the gateway does not answer. */
export function hostGuard(config: HostConfig): RequestGuard | undefined {
  const allowed = hostCheck(config);
  if (!allowed) return undefined;
  return (headers) => (allowed(headers.get('host')) ? undefined : HOST_NOT_ALLOWED);
}

/**
 * Yoga serves GraphiQL before the gateway's plugins see the request: for a refused host name it
 * serves none, and the request goes on to be refused.
 */
export function graphiqlForAllowedHosts<T extends object>(
  config: HostConfig,
  options: T | false,
): T | false | ((request: Request) => T | false) {
  const allowed = hostCheck(config);
  if (!allowed || options === false) return options;
  return (request) => (allowed(request.headers.get('host')) ? options : false);
}
