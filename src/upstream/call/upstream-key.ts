// The ngrok API key a call is sent with, and its digest. Coalescing, caches, pauses and refusals are
// keyed by the digest, never the key; the gateway's caller (context.ts Caller) holds one of these.
import { hash } from 'node:crypto';

// crypto.hash: one call, no Hash object (a third of createHash's cost); no cache of keys to digests,
// which would keep raw keys in memory after their requests.
export const keyDigest = (apiKey: string): string => hash('sha256', apiKey, 'base64url').slice(0, 22);

/** An API key as the upstream layer carries it: the key it sends, and its digest, computed once. */
export interface UpstreamKey {
  readonly apiKey: string;
  readonly digest: string;
}

export const upstreamKey = (apiKey: string): UpstreamKey => ({ apiKey, digest: keyDigest(apiKey) });
