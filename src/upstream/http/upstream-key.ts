// The ngrok API key a call is sent with, and its digest. Coalescing, caches, pauses and refusals are
// keyed by the digest, never the key; the gateway's caller (context.ts Caller) holds one of these.
import { createHash } from 'node:crypto';

export const keyDigest = (apiKey: string): string =>
  createHash('sha256').update(apiKey).digest('base64url').slice(0, 22);

/** An API key as the upstream layer carries it: the key it sends, and its digest, computed once. */
export interface UpstreamKey {
  readonly apiKey: string;
  readonly digest: string;
}

export const upstreamKey = (apiKey: string): UpstreamKey => ({ apiKey, digest: keyDigest(apiKey) });
