// A subscription over SSE is one request whose answer lasts as long as its stream: its log line is
// written when the stream ends, names the operation as a subscription, and its duration covers the
// stream (not the few milliseconds until the headers went out).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { KEY, type Stack, startLiveStack, until } from '../live/support';

const EVENTS = 'subscription Events { tunnelEvents(includeCurrent: true) { kind tunnelId } }';

/** An SSE subscriber sending its own request id; counts `next` events and notes the stream's end. */
async function subscribe(url: string, reqId: string, key: string) {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    signal: abort.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      authorization: `Bearer ${key}`,
      'x-request-id': reqId,
    },
    body: JSON.stringify({ query: EVENTS }),
  });
  const state = { status: response.status, events: 0, firstEventAt: 0, ended: false };
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      let text = '';
      for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
        text += read.value;
        const events = text.match(/^event: next$/gm)?.length ?? 0;
        if (events > 0 && state.events === 0) state.firstEventAt = performance.now();
        state.events = events;
      }
    } catch {
      // Aborted by the test.
    }
    state.ended = true;
  })();
  return { state, close: () => abort.abort() };
}

describe('the request log of a subscription over SSE', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels: makeTunnels(3, { seed: 5 }) } } });
  });
  afterAll(() => stack.close());
  const linesOf = (reqId: string) => stack.lines().filter((l) => l.msg === 'request' && l.reqId === reqId);

  it('is written when the stream ends, as a subscription, with a duration covering the stream', async () => {
    const subscriber = await subscribe(stack.url, 'stream-1', KEY);
    expect(subscriber.state.status).toBe(200);
    await until(() => subscriber.state.events >= 3, 'the current tunnels');
    // A change after the current list: the stream has been open for at least one more poll.
    stack.sandbox.addTunnel(KEY);
    await until(() => subscriber.state.events >= 4, 'the new tunnel');
    expect(linesOf('stream-1')).toEqual([]);
    subscriber.close();
    const closedAt = performance.now();
    await until(() => linesOf('stream-1').length === 1, 'the request line');
    const [line] = linesOf('stream-1');
    expect(line).toMatchObject({
      level: 30,
      method: 'POST',
      path: '/graphql',
      operationName: 'Events',
      operationType: 'subscription',
      status: 200,
      upstream: { calls: 0, coalesced: 0, cached: 0, retries: 0 },
      outcome: 'ok',
    });
    // The stream was open at least from its first event until the client closed it.
    expect(line?.durationMs).toBeGreaterThanOrEqual(Math.floor(closedAt - subscriber.state.firstEventAt));
  });

  it('carries the error that ended the stream', async () => {
    // A key the upstream does not know: the poller's first walk is refused, the stream ends with it.
    const subscriber = await subscribe(stack.url, 'stream-refused', 'unknown-key-0123456789');
    await until(() => subscriber.state.ended, 'the end of the stream');
    await until(() => linesOf('stream-refused').length === 1, 'the request line');
    expect(linesOf('stream-refused')[0]).toMatchObject({
      level: 30,
      operationName: 'Events',
      operationType: 'subscription',
      status: 200,
      outcome: 'error',
      errors: ['UNAUTHENTICATED'],
    });
  });

  it('a subscription refused before it streams is logged at once, as before', async () => {
    const response = await stack.post(
      { query: EVENTS },
      { accept: 'application/json', 'x-request-id': 'stream-406' },
    );
    expect(response.status).toBe(406);
    expect(linesOf('stream-406')).toEqual([
      expect.objectContaining({ operationType: 'subscription', status: 406, errors: ['NOT_ACCEPTABLE'] }),
    ]);
  });
});
