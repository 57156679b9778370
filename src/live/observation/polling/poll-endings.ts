// How a poller's walk can end other than complete: the upstream refused the list (401/403) or it
// outgrew LIVE_MAX_SNAPSHOT_BYTES (the kind's streams end, with the message built here), it failed
// otherwise (backed off), or the walk was cut short (the lease lost, the poller stopped).
import { GatewayError } from '../../../errors';
import { MINUTE_MS } from '../../../time';
import type { LiveKind } from '../../kinds/kinds';
import type { FeedMessage } from '../feed';
import { SnapshotTooLarge } from '../snapshots/shared-snapshots';

/** The longest wait after failed walks. */
const MAX_BACKOFF_MS = MINUTE_MS;

/** Thrown into a walk whose lease went to another replica: its pages are of no use any more. */
export class LeaseLost extends Error {}
/** Thrown into a walk when the poller stops. */
export class Stopped extends Error {}

/** A walk's end that ends the kind's streams: refused by the upstream, or too large to keep. */
export const endsStreams = (error: unknown): error is GatewayError | SnapshotTooLarge =>
  (error instanceof GatewayError && (error.code === 'UNAUTHENTICATED' || error.code === 'FORBIDDEN')) ||
  error instanceof SnapshotTooLarge;

/** The message that ends `kind`'s streams, with a code saying why. */
export function endedMessage(kind: LiveKind, error: GatewayError | SnapshotTooLarge): FeedMessage {
  if (error instanceof SnapshotTooLarge)
    return {
      type: 'ended',
      code: 'LIVE_SNAPSHOT_TOO_LARGE',
      message: `The account's ${kind} take more than LIVE_MAX_SNAPSHOT_BYTES (${error.maxBytes} bytes); its ${kind} live events end.`,
    };
  return {
    type: 'ended',
    code: error.code,
    // 401 (or an authentication 403): the credential itself; another 403: this list only.
    message:
      error.code === 'FORBIDDEN'
        ? `The ngrok API refused to list this account's ${kind} (403); other live events go on.`
        : error.message,
    upstream: error.details.upstream,
  };
}

/** The wait after `failures` failed walks in a row: the upstream's retryAfter, or a doubling backoff. */
export function backoffMs(error: unknown, failures: number, intervalMs: number): number {
  const retryAfterMs = error instanceof GatewayError ? (error.details.retryAfter ?? 0) * 1000 : 0;
  return Math.max(retryAfterMs, Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** Math.min(failures, 10)));
}
