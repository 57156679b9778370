// What one benchmark row sends and how its answer is checked.

export interface Scenario {
  readonly name: string;
  readonly summary: string;
  /** `rest`: straight to the stand-in; `gateway`: POST /graphql; `floor`: the bare yoga server. */
  readonly target: 'rest' | 'gateway' | 'floor';
  readonly path: string;
  readonly body?: string;
  /** Request headers besides the credential. */
  readonly headers?: Readonly<Record<string, string>>;
  /** `distinct`: each connection has its own credential (and account). */
  readonly credentials: 'shared' | 'distinct';
  /** Upstream calls one operation needs when nothing is shared between operations. */
  readonly minimumCalls: number;
  /**
   * The gateway process it runs on: the shared one when absent. A process's peak RSS is a high-water
   * mark, so a row measured on its own process shows its own peak, not the rows' before it.
   */
  readonly process?: 'compressing' | 'endpoints';
  /** Why a sample answer is wrong, or undefined when it is right. */
  check(status: number, json: unknown): string | undefined;
}
