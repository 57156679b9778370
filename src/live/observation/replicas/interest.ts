// Which kinds of events an account's subscribers want, across replicas: each replica with
// subscribers of a kind marks it in the shared store (Redis, or this process) for a while, and the
// one poller of the account walks every kind marked anywhere, so a replica holding the lease for
// tunnel subscribers also serves another replica's endpoint subscribers.
import type { SnapshotStore } from '../../../shared-state';
import { LIVE_KINDS, type LiveKind } from '../../kinds/kinds';

const keyOf = (kind: LiveKind, digest: string) => `interest:${kind}:${digest}`;

export class Interest {
  /** `ttlMs`: how long a mark lasts unrenewed; pollers renew theirs on every turn. */
  constructor(
    private readonly store: SnapshotStore,
    private readonly ttlMs: number,
  ) {}

  /** This replica has subscribers of `kinds` now. A store that fails marks nothing. */
  async mark(digest: string, kinds: readonly LiveKind[]): Promise<void> {
    await Promise.all(
      kinds.map((kind) => this.store.set(keyOf(kind, digest), Date.now(), this.ttlMs).catch(() => undefined)),
    );
  }

  /** `local`, and every kind another replica marked. A store that fails adds nothing. */
  async wanted(digest: string, local: readonly LiveKind[]): Promise<LiveKind[]> {
    const marked = await Promise.all(
      LIVE_KINDS.map(
        async (kind) =>
          local.includes(kind) ||
          (await this.store.get(keyOf(kind, digest)).catch(() => undefined)) !== undefined,
      ),
    );
    return LIVE_KINDS.filter((_, i) => marked[i]);
  }
}
