// Credentials the upstream refused (401, or 403 with an authentication error code) are remembered
// by digest for a while: the same bogus key, or a flood of distinct ones, costs one upstream call
// each at most, not one per request. The store is bounded (least recently used out first).
import { GatewayError, UpstreamError } from '../errors';
import { MESSAGES } from './messages';
import { AttemptFailure, type Stage } from './stage';
import type { ExpiringStore } from './store';

export const refusalStage =
  (store: ExpiringStore<true>, ttlMs: number): Stage =>
  (next) =>
  async (call) => {
    if (ttlMs === 0) return next(call);
    if (await store.get(call.credential)) {
      throw new AttemptFailure(new GatewayError('UNAUTHENTICATED', MESSAGES.UNAUTHENTICATED), 'local');
    }
    try {
      return await next(call);
    } catch (caught) {
      const error = caught instanceof AttemptFailure ? caught.error : caught;
      // Only the upstream's own answer marks a credential: never the gateway's refusals.
      if (error instanceof UpstreamError && error.code === 'UNAUTHENTICATED' && error.status !== undefined) {
        await store.set(call.credential, true, ttlMs);
      }
      throw caught;
    }
  };
