// What one operation's upstream calls cost: predicted before it runs (demand control), then started,
// sent (each resend too), joined to an identical call in flight, answered by the read cache, and where
// its credential stood in the budget after its last claim. Each count has one writer: the note its one
// stage or hook makes. Each note counts into the request's ledger too, so a request's ledger (its log
// line) is the sum of its operations' (a batch holds several; a subscription adds its observations' joins).
import type { Standing } from '../../shared-state';

/**
 * Calls per rolling minute (UPSTREAM_RATE_LIMIT_PER_MIN), those left in it after the last claim (the
 * limit less the calls made, every replica's) and the shares they are made of (shared-state/budget).
 */
interface BudgetStanding extends Standing {
  readonly limit: number;
}

/** What a request's upstream calls did, as its log line writes it. */
interface Tally {
  readonly calls: number;
  readonly coalesced: number;
  readonly cached: number;
  readonly retries: number;
  readonly predicted: number;
  readonly made: number;
  readonly budget?: Pick<BudgetStanding, 'limit' | 'remaining'>;
}

type Counted = Exclude<keyof Tally, 'budget'>;

export class CallLedger {
  /** In the order of the request log line's `upstream` field. */
  private readonly counts: Record<Counted, number> = {
    calls: 0,
    coalesced: 0,
    cached: 0,
    retries: 0,
    predicted: 0,
    made: 0,
  };
  private standing: BudgetStanding | undefined;
  private admission: 'admitted' | 'refused' | undefined;
  /** Set when its operation has answered: no attempt of it may start after (stages/report.ts). */
  private over = false;
  /** Its attempts on their way now, and who waits for the last to answer. */
  private sending = 0;
  private idle: (() => void)[] = [];

  /**
   * `request`: the ledger of the request this operation belongs to, which sums its operations';
   * `onCall`: told of each call started (a live observation's joins: their metric).
   */
  constructor(
    readonly request?: CallLedger,
    private readonly onCall?: (calls: number) => void,
  ) {}

  /** Upstream calls it was predicted to make at most (src/gateway/limits/demand-control.ts). */
  get predicted(): number {
    return this.counts.predicted;
  }

  /** Calls it started: a call's resends count once, joined or cached reads not at all. */
  get made(): number {
    return this.counts.made;
  }

  /** HTTP calls sent (each retry is a call). */
  get calls(): number {
    return this.counts.calls;
  }

  /** Where the credential stands in the gateway's upstream budget after the last claim counted here. */
  get budget(): BudgetStanding | undefined {
    return this.standing;
  }

  /** True once demand control judged the operation, admitted or refused. */
  get judged(): boolean {
    return this.admission !== undefined;
  }

  get refused(): boolean {
    return this.admission === 'refused';
  }

  /** Demand control's judgement: the calls predicted, and whether it may run. */
  judge(predicted: number, admitted: boolean): void {
    this.admission = admitted ? 'admitted' : 'refused';
    this.add('predicted', predicted - this.counts.predicted);
  }

  /** Whether its operation has answered: an attempt it would start now is refused unsent. */
  get ended(): boolean {
    return this.over;
  }

  /**
   * Its operation answers: no attempt starts from now on (a call a failed field left queued would
   * outlive the answer, uncounted); resolves once those on their way have answered, so the answer
   * counts them all.
   */
  end(): Promise<void> {
    this.over = true;
    return this.sending === 0 ? Promise.resolve() : new Promise((resolve) => this.idle.push(resolve));
  }

  /** An attempt goes out (stages/report.ts); `landed` is called once its answer or failure is in. */
  sent(): () => void {
    this.sending += 1;
    return () => {
      this.sending -= 1;
      if (this.sending === 0) for (const resolve of this.idle.splice(0)) resolve();
    };
  }

  /** An attempt sent (stages/report.ts); `first`: the call's first, its resends (retry.ts) are the same call. */
  attempted(first: boolean): void {
    this.add('calls', 1);
    if (!first) return;
    this.add('made', 1);
    this.onCall?.(1);
  }

  /** A GET that joined an identical call in flight (stages/coalesce.ts). */
  joined(): void {
    this.add('coalesced', 1);
  }

  /** A read the read cache answered (CACHE_TTL_MS; transport.ts, noteCacheHit). */
  answeredFromCache(): void {
    this.add('cached', 1);
  }

  /** A failed attempt tried again (stages/retry.ts). */
  retried(): void {
    this.add('retries', 1);
  }

  /** A claim on the budget granted or refused (stages/budget.ts): where the credential stands after it. */
  claimed(standing: BudgetStanding): void {
    this.standing = standing;
    this.request?.claimed(standing);
  }

  /** The counts, for a log line: the budget's limit and remaining once a claim was made. */
  tally(): Tally {
    const budget = this.standing && { limit: this.standing.limit, remaining: this.standing.remaining };
    return { ...this.counts, ...(budget ? { budget } : {}) };
  }

  private add(counted: Counted, n: number): void {
    this.counts[counted] += n;
    this.request?.add(counted, n);
  }
}
