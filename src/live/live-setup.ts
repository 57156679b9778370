// What LiveEvents is made from (settings, shared state) and what it keeps per credential.
import type { Registry } from 'prom-client';
import type { LiveConfig, UpstreamConfig } from '../config';
import type { Logger } from '../log';
import type { SharedState } from '../shared-state';
import type { UpstreamKey, UpstreamTransport } from '../upstream';
import type { EventJoins } from './fan-out/event-joins';
import type { EventStream } from './fan-out/event-stream';
import type { LiveKind } from './kinds/kinds';
import type { Poller } from './polling/poller';

export interface LiveSettings {
  readonly live: Omit<LiveConfig, 'standinChurn'>;
  /** The transport's retries: a page call may cost 1 + this many calls. */
  readonly upstream: Pick<UpstreamConfig, 'retries' | 'rateLimitPerMin'>;
}

export interface LiveDeps {
  readonly transport: UpstreamTransport;
  readonly registry: Registry;
  /** Where leases, snapshots and the fan-out live: Redis with REDIS_URL, this process otherwise. */
  readonly shared: Pick<SharedState, 'budget' | 'events' | 'leases' | 'snapshots'>;
  readonly logger?: Logger;
}

/** One credential's streams, poller and event lookups on this replica; dropped once all are done. */
export interface CredentialEntry {
  readonly digest: string;
  readonly key: UpstreamKey;
  /** Open streams and the kind of events each one takes. */
  readonly streams: Map<EventStream, LiveKind>;
  /** The lookups each event's joins are resolved with, shared by the streams here. */
  readonly joins: EventJoins;
  poller?: Poller;
  /** The last poller's end, awaited before a new one starts (it clears the snapshot). */
  previous: Promise<void>;
  idle?: NodeJS.Timeout;
}
