// Who is calling (a Caller) and with which ngrok API key. Pass-through mode forwards the client's own
// key; server-held key mode lends the gateway's key to clients holding a gateway token.
import { hash, timingSafeEqual } from 'node:crypto';
import type { Config, GatewayToken, TokenScope } from '../../config';
import type { Caller } from '../../context';
import { GatewayError } from '../../errors';
import { upstreamKey } from '../../upstream';

const ALL_SCOPES: readonly TokenScope[] = ['read', 'write'];

const unauthenticated = (message: string) =>
  new GatewayError('UNAUTHENTICATED', message, { httpStatus: 401 });

/** The bearer token of an Authorization header; undefined when absent, an error when malformed. */
function bearer(header: string | null): string | undefined {
  if (header === null || header.trim() === '') return undefined;
  const match = /^Bearer +([\x21-\x7e]{1,512})$/i.exec(header.trim());
  if (!match?.[1]) throw unauthenticated('The Authorization header must be "Bearer <token>".');
  return match[1];
}

const digest = (s: string) => hash('sha256', s, 'buffer');

/** Compares digests in constant time, so neither the token nor its length leaks through timing. */
function findToken(tokens: readonly GatewayToken[], presented: string): GatewayToken | undefined {
  const given = digest(presented);
  let found: GatewayToken | undefined;
  for (const t of tokens) if (timingSafeEqual(digest(t.token), given)) found ??= t;
  return found;
}

/**
 * The caller of a request, or null when it brings no credential (allowed only for introspection).
 * Throws UNAUTHENTICATED for a malformed header or an unknown gateway token.
 */
export function callerOf(authorization: string | null, config: Config): Caller | null {
  const token = bearer(authorization);
  const serverKey = config.upstream.apiKey;
  if (serverKey === undefined)
    return token === undefined ? null : { key: upstreamKey(token), scopes: ALL_SCOPES };
  // A server-held key without tokens is allowed on loopback only (see main.ts).
  if (config.access.gatewayTokens.length === 0) return { key: upstreamKey(serverKey), scopes: ALL_SCOPES };
  if (token === undefined) return null;
  const match = findToken(config.access.gatewayTokens, token);
  if (!match) throw unauthenticated('The gateway token is not valid.');
  return { key: upstreamKey(serverKey), scopes: match.scopes };
}
