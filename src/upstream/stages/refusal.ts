// Credentials the upstream refused (401, or 403 with an authentication error code) are remembered
// by digest for a while: the same bogus key, or a flood of distinct ones, costs one upstream call
// each at most, not one per request. The memory is bounded (least recently used out first).
import { LRUCache } from 'lru-cache';
import { GatewayError, UpstreamError } from '../../errors';
import { MESSAGES } from '../call/messages';
import { AttemptFailure, callNext, type Stage } from '../call/stage';

export interface RefusalOptions {
  /** How long a refused credential is answered without a call (0: not remembered). */
  readonly refusedCredentialTtlMs: number;
  /** Refused credentials remembered at most. */
  readonly refusedCredentialMaxEntries: number;
}

/** Digests of refused credentials, each for its time to live; at most `maxEntries` of them. */
export class RefusedCredentials {
  private readonly entries: LRUCache<string, true>;

  constructor(maxEntries: number) {
    this.entries = new LRUCache<string, true>({ max: maxEntries });
  }

  /** Digests held now (tests: the bound holds). */
  get size(): number {
    return this.entries.size;
  }

  /** Expired entries are never answered. */
  has(digest: string): boolean {
    return this.entries.get(digest) === true;
  }

  add(digest: string, ttlMs: number): void {
    this.entries.set(digest, true, { ttl: Math.max(1, Math.ceil(ttlMs)) });
  }
}

/** The stage and the memory it keeps (the transport reports its size). */
export function refusalStage(options: RefusalOptions): { stage: Stage; refused: RefusedCredentials } {
  const refused = new RefusedCredentials(options.refusedCredentialMaxEntries);
  return { stage: refusing(refused, options.refusedCredentialTtlMs), refused };
}

const refusing =
  (refused: RefusedCredentials, ttlMs: number): Stage =>
  (next) =>
  (call) => {
    if (ttlMs === 0) return callNext(next, call);
    if (refused.has(call.digest)) {
      return Promise.reject(
        new AttemptFailure(new GatewayError('UNAUTHENTICATED', MESSAGES.UNAUTHENTICATED), 'local'),
      );
    }
    return callNext(next, call).catch((caught: unknown) => {
      const error = caught instanceof AttemptFailure ? caught.error : caught;
      // Only the upstream's own answer marks a credential: never the gateway's refusals.
      if (error instanceof UpstreamError && error.code === 'UNAUTHENTICATED' && error.status !== undefined) {
        refused.add(call.digest, ttlMs);
      }
      throw caught;
    });
  };
