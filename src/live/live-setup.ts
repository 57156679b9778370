// What the live side (live.ts) is made from: its settings and the shared state.
import type { Registry } from 'prom-client';
import type { LiveConfig, UpstreamConfig } from '../config';
import type { Logger } from '../log';
import type { SharedState } from '../shared-state';
import type { UpstreamTransport } from '../upstream';

export interface LiveSettings {
  readonly live: Omit<LiveConfig, 'standinChurn' | 'edgesWritable'>;
  /** The transport's retries: a page call may cost 1 + this many calls. */
  readonly upstream: Pick<UpstreamConfig, 'retries' | 'rateLimitPerMin'>;
}

export interface LiveDeps {
  readonly transport: UpstreamTransport;
  readonly registry: Registry;
  /** Where leases, snapshots and the notices live: Redis with REDIS_URL, this process otherwise. */
  readonly shared: Pick<SharedState, 'budget' | 'events' | 'leases' | 'snapshots'>;
  readonly logger?: Logger;
}
