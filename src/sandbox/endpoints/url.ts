// Endpoint URLs: what a cloud endpoint may be created on, and the parts the API sends beside the
// URL (scheme, host, port, hostport). Agent URLs come from tunnels and are only described.

const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443, tls: 443 };
const SCHEMES = ['http', 'https', 'tcp', 'tls'];
// A DNS name, optionally a wildcard one: labels of letters, digits and inner hyphens.
const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export interface UrlParts {
  /** scheme://host, plus :port only when it is not the scheme's default. */
  url: string;
  scheme: string;
  host: string;
  port: number;
  hostport: string;
  /** The host ends in `.internal`: such an endpoint takes the internal binding. */
  internal: boolean;
}

type UrlCheck = { ok: true; parts: UrlParts } | { ok: false; reason: string };

function partsOf(scheme: string, host: string, port: number): UrlParts {
  const url = DEFAULT_PORTS[scheme] === port ? `${scheme}://${host}` : `${scheme}://${host}:${port}`;
  return { url, scheme, host, port, hostport: `${host}:${port}`, internal: host.endsWith('.internal') };
}

/** Checks a URL a client gave for a cloud endpoint; the reason says what is wrong. */
export function checkEndpointUrl(text: string): UrlCheck {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined)
    return { ok: false, reason: 'it needs a scheme and a host, such as https://app.example.com' };
  if (!SCHEMES.includes(scheme)) {
    return { ok: false, reason: `the scheme ${scheme} is not one of ${SCHEMES.join(', ')}` };
  }
  let parsed: URL;
  try {
    // Parsed as http so that tcp:// and tls:// URLs get the same host rules.
    parsed = new URL(`http://${text.slice(scheme.length + 3)}`);
  } catch {
    return { ok: false, reason: 'it does not parse as a URL' };
  }
  if (parsed.username !== '' || parsed.password !== '')
    return { ok: false, reason: 'it must not carry credentials' };
  if (parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '' || /[?#]/.test(text)) {
    return { ok: false, reason: 'it must not have a path, query or fragment' };
  }
  // `new URL` punycodes and lowercases; `*` is kept as typed.
  const host = parsed.hostname;
  if (!HOST.test(host) || !host.includes('.')) {
    return { ok: false, reason: `the host ${host || '(none)'} is not a domain name` };
  }
  const explicit = /:(\d+)\/?$/.exec(text.slice(scheme.length + 3))?.[1];
  const port = explicit === undefined ? DEFAULT_PORTS[scheme] : Number(explicit);
  if (port === undefined) return { ok: false, reason: `a ${scheme} URL needs a port` };
  if (!(port >= 1 && port <= 65_535)) return { ok: false, reason: `the port ${explicit} is out of range` };
  return { ok: true, parts: partsOf(scheme, host, port) };
}

/** The parts of an agent tunnel's public URL, or undefined when it does not parse. */
export function describeUrl(text: string): UrlParts | undefined {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/:?#]+)(?::(\d+))?\/?$/i.exec(text);
  const scheme = match?.[1]?.toLowerCase();
  const host = match?.[2]?.toLowerCase();
  if (scheme === undefined || host === undefined) return undefined;
  const port = match?.[3] === undefined ? DEFAULT_PORTS[scheme] : Number(match[3]);
  return port === undefined ? undefined : partsOf(scheme, host, port);
}
