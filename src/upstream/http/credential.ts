// Coalescing, caches, pauses and refusals are keyed by a digest of the credential, never the credential.
import { createHash } from 'node:crypto';

export const credentialDigest = (apiKey: string): string =>
  createHash('sha256').update(apiKey).digest('base64url').slice(0, 22);

/** A credential as the upstream layer carries it: the key it sends, and its digest, computed once. */
export interface ApiCredential {
  readonly apiKey: string;
  readonly digest: string;
}

export const apiCredential = (apiKey: string): ApiCredential => ({
  apiKey,
  digest: credentialDigest(apiKey),
});
