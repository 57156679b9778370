// The per-request context: the caller, an upstream client with its API key, and the request's
// own lookups (lookups/), which own its DataLoaders. A subscription's events are each executed with a
// context of their own, the operation's with the lookups of the event's observation (eventContext),
// and a live query's evaluations with lookups that read the observation itself (observationContext).
import type { TokenScope } from './config';
import { missingCredential } from './errors';
import type {
  EndpointWrite,
  Live,
  LiveKind,
  LiveQueryItem,
  LiveQueryRequest,
  StreamItem,
  SubscriberLink,
} from './live';
import { type Lookups, lookupsOf, type Observation, ObservationSource } from './lookups';
import type { Observed } from './lookups/observation-lookups';
import {
  type CallScope,
  liveJoinScope,
  NgrokClient,
  newScope,
  observationCache,
  type ReadCache,
  type UpstreamKey,
  type UpstreamTransport,
} from './upstream';

/** Who is calling: the ngrok API key its calls use and what it may do (gateway/security/credentials.ts reads it). */
export interface Caller {
  readonly key: UpstreamKey;
  readonly scopes: readonly TokenScope[];
}

export interface Context {
  /** This operation's lookups, one per kind (lookups/), reading through `client`. */
  readonly lookups: Lookups;
  /** This operation's deadline and its ledger (summed into its request's), carried by every upstream call it makes. */
  readonly upstreamScope: CallScope;
  /** The upstream client for this request's credential; its calls refuse when there is none. */
  readonly client: NgrokClient;
  readonly scopes: readonly TokenScope[];
  readonly authenticated: boolean;
  /**
   * This credential's live events of one list (Subscription.tunnelEvents, endpointEvents,
   * tunnelSessionEvents); refuses without a credential.
   */
  readonly liveEvents: (kind: LiveKind, includeCurrent: boolean) => AsyncIterable<StreamItem>;
  /** This credential's live query (@live): its first result, then its patches; refuses without a credential. */
  readonly liveQuery: (request: LiveQueryRequest) => AsyncIterable<LiveQueryItem>;
  /** Whether the credential's account has an observation of every one of `kinds` now. */
  readonly liveObserved: (kinds: ReadonlySet<LiveKind>) => Promise<boolean>;
  /** Announces an endpoint write to the credential's endpointEvents subscribers on every replica. */
  readonly endpointWritten: (write: EndpointWrite) => Promise<void>;
  /**
   * The lookups a live event of `list` is joined with: its observation's for subscriptions asking
   * `selection`, shared by the account's subscribers here and by the other events of that observation.
   */
  readonly eventLookups: (list: LiveKind, event: Observed, selection: string) => Lookups;
}

/**
 * The context `event` is executed with: the operation's, with the lookups and DataLoaders of its
 * observation. Each observation of a subscription sees the upstream afresh (no join frozen at the
 * first event, no error cached for later observations), the account's subscribers on this replica
 * asking the same `selection` share one lookup per observation, and the operation's own context is
 * never changed (gateway/limits/observation-joins.ts executes each observation's events with it).
 */
export function eventContext<C extends Context>(
  ctx: C,
  list: LiveKind,
  event: Observed,
  selection: string,
): C {
  return { ...ctx, lookups: ctx.eventLookups(list, event, selection) };
}

/**
 * The context a live query is evaluated with over `observation`: the operation's, with lookups that
 * read the observation and make no upstream call, and a scope of its own (its ledger stays the
 * operation's first read's).
 */
export function observationContext<C extends Context>(ctx: C, observation: Observation): C {
  return { ...ctx, lookups: lookupsOf(new ObservationSource(observation)), upstreamScope: newScope() };
}

export function createContext(
  transport: UpstreamTransport,
  caller: Caller | null,
  cache?: ReadCache,
  live?: Live,
  upstreamScope: CallScope = newScope(),
  /** The transport of a subscription: what it holds unsent counts against the subscriber's cap. */
  link?: SubscriberLink,
): Context {
  const client = new NgrokClient(transport.scoped(upstreamScope), caller?.key ?? null, cache);
  return {
    upstreamScope,
    client,
    lookups: lookupsOf(client),
    scopes: caller?.scopes ?? [],
    authenticated: caller !== null,
    liveEvents: (kind, includeCurrent) => {
      if (caller === null) throw missingCredential();
      if (!live) throw new Error('live events are not set up for this gateway');
      return live.subscribe(client.key, kind, includeCurrent, link);
    },
    liveQuery: (request) => {
      if (caller === null) throw missingCredential();
      if (!live) throw new Error('live queries are not set up for this gateway');
      return live.liveQuery(client.key, request, link);
    },
    liveObserved: async (kinds) => caller !== null && (await live?.observed(client.key, kinds)) === true,
    endpointWritten: async (write) => {
      if (caller !== null) await live?.writes.endpointWritten(client.key, write);
    },
    eventLookups: (list, event, selection) => {
      // The observation's own cache, not the gateway's: its joins see the upstream as it is then. Paid
      // from the live share, counted into the observation's calls and the line of the subscriber that made them.
      const make = (counted?: (calls: number) => void): Lookups => {
        const scoped = transport.scoped(liveJoinScope(upstreamScope.ledger?.request, counted));
        return lookupsOf(new NgrokClient(scoped, caller?.key ?? null, observationCache()));
      };
      return live && caller !== null ? live.joinsOf(client.key, list, event, selection, make) : make();
    },
  };
}
