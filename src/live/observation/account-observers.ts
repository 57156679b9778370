// The accounts this replica observes: for each, how many here need each kind (its subscribers' needs),
// one poller started by the first need and stopped LIVE_IDLE_MS after the last one goes (it polls
// only while it holds the account's lease: one replica at a time), and the lookups its observations'
// events are joined with. An account is forgotten once nothing needs it and its poller has ended.
import { AsyncResource } from 'node:async_hooks';
import type { Logger } from '../../log';
import { ObservationLookups } from '../../lookups/observation-lookups';
import { pollShareOf } from '../../shared-state';
import { CallLedger, NgrokClient, newScope, type UpstreamKey } from '../../upstream';
import { LIVE_KINDS, type LiveKind } from '../kinds/kinds';
import type { LiveDeps, LiveSettings } from '../live-setup';
import type { LiveMetrics } from '../metrics';
import type { LiveFeed } from './feed';
import { Poller } from './polling/poller';
import type { Interest } from './replicas/interest';
import type { PollLease } from './replicas/lease';
import type { SharedSnapshots } from './snapshots/shared-snapshots';

/** What observing accounts takes: the settings and shared state, and the parts live.ts makes once. */
export interface ObserverParts {
  readonly settings: LiveSettings;
  readonly deps: LiveDeps;
  readonly feed: LiveFeed;
  readonly snapshots: SharedSnapshots;
  readonly interest: Interest;
  readonly lease: PollLease;
  readonly metrics: LiveMetrics;
  readonly logger: Logger;
}

/** One account observed here; dropped once nothing needs it and its poller has ended. */
interface ObservedAccount {
  readonly digest: string;
  readonly key: UpstreamKey;
  /** How many needs of each kind are open here. */
  readonly needs: Map<LiveKind, number>;
  /** Open needs, of any kind. */
  open: number;
  /** The lookups each observation's events are joined with, shared by its subscribers here. */
  readonly lookups: ObservationLookups;
  poller?: Poller;
  /** The last poller's end, awaited before a new one starts (it clears the snapshot). */
  previous: Promise<void>;
  idle?: NodeJS.Timeout;
}

export class AccountObservers {
  private readonly accounts = new Map<string, ObservedAccount>();
  /** Pollers run outside any request's async context (its deadline and log ledger are not theirs). */
  private readonly scope = new AsyncResource('LivePollers');
  private closing = false;

  constructor(private readonly parts: ObserverParts) {}

  /** Accounts kept now (needed, polled, or in their idle time). */
  get size(): number {
    return this.accounts.size;
  }

  /** Accounts this process polls now (with Redis: whose lease it holds). */
  polling(): number {
    let n = 0;
    for (const account of this.accounts.values()) if (account.poller?.polling) n += 1;
    return n;
  }

  /**
   * `kinds` of the account are needed from now until the returned release is called: its poller
   * starts, or walks a newly needed kind at once.
   */
  need(key: UpstreamKey, kinds: ReadonlySet<LiveKind>): () => void {
    const account = this.accountOf(key);
    const added = [...kinds].filter((kind) => !account.needs.get(kind));
    for (const kind of kinds) account.needs.set(kind, (account.needs.get(kind) ?? 0) + 1);
    account.open += 1;
    clearTimeout(account.idle);
    account.idle = undefined;
    if (!account.poller) this.startPoller(account);
    else for (const kind of added) account.poller.nudge(kind);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(account, kinds);
    };
  }

  /** The lookups of the account's observations, while it is observed here. */
  lookupsOf(digest: string): ObservationLookups | undefined {
    return this.accounts.get(digest)?.lookups;
  }

  /** Stops every poller (graceful shutdown); resolves once each has ended. */
  close(): Promise<void> {
    this.closing = true;
    const ends: Promise<void>[] = [];
    for (const account of this.accounts.values()) {
      clearTimeout(account.idle);
      account.poller?.stop();
      ends.push(account.previous);
    }
    return Promise.all(ends).then(() => undefined);
  }

  private accountOf(key: UpstreamKey): ObservedAccount {
    const { digest } = key;
    let account = this.accounts.get(digest);
    if (!account) {
      account = {
        digest,
        key,
        needs: new Map(),
        open: 0,
        lookups: new ObservationLookups(),
        previous: Promise.resolve(),
      };
      this.accounts.set(digest, account);
    }
    return account;
  }

  private startPoller(account: ObservedAccount): void {
    const { settings, deps, metrics, logger } = this.parts;
    const ledger = new CallLedger();
    const poller: Poller = new Poller({
      digest: account.digest,
      // No read cache: every walk must see the upstream as it is now. The scope's ledger counts the
      // attempts the poller's own calls send, whatever clients do meanwhile.
      client: new NgrokClient(deps.transport.scoped(newScope(ledger)), account.key),
      ledger,
      snapshots: this.parts.snapshots,
      interest: this.parts.interest,
      feed: this.parts.feed,
      lease: this.parts.lease,
      // The account's one poll window: the shared budget counts the poller's calls as it claims them.
      budget: {
        perMinute: pollShareOf(settings.upstream.rateLimitPerMin, settings.live.pollBudgetPerMin),
        wait: (calls) => deps.shared.budget.pollWait(account.digest, calls),
      },
      intervalMs: settings.live.pollIntervalMs,
      retries: settings.upstream.retries,
      metrics,
      logger,
      wanted: () => LIVE_KINDS.filter((kind) => (account.needs.get(kind) ?? 0) > 0),
      onRefused: () => {
        if (account.poller === poller) account.poller = undefined;
      },
    });
    account.poller = poller;
    const after = account.previous;
    this.scope.runInAsyncScope(() => poller.start(after));
    account.previous = poller.done
      .catch((error: unknown) => {
        logger.error({ err: { name: (error as Error)?.name } }, 'live poller failed');
      })
      .then(() => this.forgetIfUnused(account));
  }

  private release(account: ObservedAccount, kinds: ReadonlySet<LiveKind>): void {
    for (const kind of kinds) account.needs.set(kind, (account.needs.get(kind) ?? 1) - 1);
    account.open -= 1;
    if (account.open > 0 || this.closing) return;
    clearTimeout(account.idle);
    account.idle = undefined;
    // No poller (the upstream refused it): nothing to keep running, the account goes now.
    if (!account.poller) {
      this.forgetIfUnused(account);
      return;
    }
    account.idle = setTimeout(() => {
      account.idle = undefined;
      if (account.open > 0) return;
      const { poller } = account;
      account.poller = undefined;
      // The poller's end forgets the account (see startPoller), once its lease is released.
      if (poller) poller.stop();
      else this.forgetIfUnused(account);
    }, this.parts.settings.live.idleMs);
    account.idle.unref();
  }

  /**
   * Drops an account (and with it the credential) once nothing needs it and it has no poller and no
   * idle timer, whichever of them ends last: accounts stay bounded, refused credentials included.
   */
  private forgetIfUnused(account: ObservedAccount): void {
    if (account.open > 0 || account.poller || account.idle || this.accounts.get(account.digest) !== account)
      return;
    // Its poll window lives in the shared budget: leaving and coming back cannot reset it.
    this.accounts.delete(account.digest);
    account.lookups.clear();
    this.parts.snapshots.forget(account.digest);
  }
}
