// What the tracing tests share: the account, the operations they send, the span kinds and status
// codes of OTLP, a client span per test, and the wait for a trace's spans at the receiver.
import { type AccountSeed, makeTunnels } from '../../src/sandbox';
import { sleep } from '../support/fixtures';
import type { OtlpReceiver, ReceivedSpan } from '../support/otlp-receiver';

export const TOKEN = 'gateway-token-for-tracing-0123';
export const COLLECTOR_KEY = 'collector-secret-0123456789';
const tunnels = makeTunnels(8, { seed: 19 });
export const seed = (): AccountSeed => ({ tunnels });
/** Newest first, as the upstream lists them: the oldest is not on a first page of 5. */
export const oldest = tunnels.map((t) => t.id).sort()[0] as string;
export const firstPage = [...tunnels]
  .sort((a, b) => (a.id < b.id ? 1 : -1))
  .slice(0, 5)
  .map((t) => ({ id: t.id, tunnelSession: { id: t.tunnel_session.id } }));

export const LIST_AND_ONE = `query ListAndOne($id: ID!) {
  tunnels(first: 5) { nodes { id tunnelSession { id } } }
  tunnel(id: $id) { id }
}`;
export const ONE = 'query One($id: ID!) { tunnel(id: $id) { id } }';

export const SERVER = 2;
export const CLIENT = 3;
export const ERROR = 2;

/** A client's span, as a W3C traceparent names it (sampled). */
const clientSpan = (traceId: string, spanId: string) => ({
  traceId,
  spanId,
  header: { traceparent: `00-${traceId}-${spanId}-01` },
});

const hex = (n: number, length: number) => n.toString(16).padStart(length, '0');
let traces = 0;
export const newClientSpan = () => {
  traces += 1;
  return clientSpan(`4bf92f3577b34da6${hex(traces, 16)}`, `00f067aa${hex(traces, 8)}`);
};

/** Waits for `count` spans of a trace to reach the receiver (or fails with what came). */
export async function spansOf(
  receiver: OtlpReceiver,
  traceId: string,
  count: number,
): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const spans = receiver.spans().filter((s) => s.traceId === traceId);
    if (spans.length >= count || Date.now() > deadline) return spans;
    await sleep(20);
  }
}

/**
 * The operation's span (by name) and its calls' spans, in the order they started: not by position
 * among all, as two spans started in the same instant can come either way round.
 */
export function operationAndCalls(
  spans: readonly ReceivedSpan[],
  name: string,
): [ReceivedSpan | undefined, ...ReceivedSpan[]] {
  const operation = spans.find((s) => s.name === name);
  return [operation, ...spans.filter((s) => s !== operation)];
}

/** An attempt span as the tests compare it. */
export const attempt = (s: ReceivedSpan) => ({
  name: s.name,
  kind: s.kind,
  parentSpanId: s.parentSpanId,
  status: s.status,
  attributes: s.attributes,
});
