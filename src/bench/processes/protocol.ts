// Messages between the benchmark runner and its stand-in process (IPC).
import type { AccountSeed } from '../../sandbox';

export type StandInRequest =
  | { type: 'latency'; id: number; ms: number }
  | { type: 'reset'; id: number }
  | { type: 'calls'; id: number }
  /**
   * One tunnel of that account comes online or goes offline every `everyMs` (with --live-queries:
   * live-account.ts's churn, every count kept); 0 stops.
   */
  | { type: 'churn'; id: number; key: string; everyMs: number };

export interface CallCounts {
  readonly total: number;
  readonly byRoute: Readonly<Record<string, number>>;
  readonly byKey: Readonly<Record<string, number>>;
}

export type StandInReply =
  | { type: 'ready'; url: string; account: AccountSeed }
  | { type: 'ok'; id: number }
  | ({ type: 'calls'; id: number } & CallCounts);
