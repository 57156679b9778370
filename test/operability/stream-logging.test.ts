// The request log of an answer in payloads (@defer, @stream) over multipart HTTP, SSE and graphql-ws:
// its line is written when the stream ends (not at its first payload), once, with every call the
// stream made and the codes of the errors of every payload; a client that stops reading or goes away
// mid-stream still gets its line, once. The deferred call's answer is held upstream (an answer gate),
// so what the line says before and after it is known without timing.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exampleIdsFrom } from '../../src/gateway/graphiql';
import { demoData } from '../../src/sandbox';
import { type AnswerGate, startAnswerGate } from '../live/answer-gate';
import { until } from '../live/support';
import { KEY, type Stack, startStack } from '../support/stack';
import { ACCEPT, payloadsOf, type StreamPayload, type StreamTransport } from '../support/streamed-answers';
import { run, wsClient } from '../support/websocket';

const seed = demoData();
const ids = exampleIdsFrom(seed);
if (!ids) throw new Error('the demo data has no route with a backend');
const route = { edgeId: ids.edgeId, routeId: ids.routeId };

const DEFERRED = `query Deferred($edgeId: ID!, $routeId: ID!) {
  tunnels(first: 2) { nodes { id } }
  ... @defer(label: "module") {
    httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) { enabled backend { id } }
  }
}`;

/** The deferred fragment's upstream call (GET …/routes/{id}/backend). */
const isBackend = (_method: string, url: string) => url.endsWith('/backend');

/** A streamed answer read as it comes: its payloads so far, whether it ended, and two ways to leave it. */
async function openStream(url: string, transport: StreamTransport, reqId: string) {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    signal: abort.signal,
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT[transport],
      authorization: `Bearer ${KEY}`,
      'x-request-id': reqId,
    },
    body: JSON.stringify({ query: DEFERRED, variables: route }),
  });
  if (!response.body) throw new Error('no body');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const state = { text: '', reading: true };
  const reading = (async () => {
    try {
      while (state.reading) {
        const { done, value } = await reader.read();
        if (done) break;
        state.text += value;
      }
    } catch {
      // Aborted by the test.
    }
  })();
  return {
    status: response.status,
    payloads: () => payloadsOf(transport, state.text),
    /** Waits for the answer's end (it is read as it comes). */
    toEnd: () => reading,
    /** Asks for nothing more, the connection left open (until `disconnect`). */
    stopReading: () => {
      state.reading = false;
    },
    disconnect: () => abort.abort(),
  };
}

describe('the request log of a streamed answer', () => {
  let gate: AnswerGate;
  let stack: Stack;
  /** The client ports of the gateway's connections that have closed. */
  const closedPorts = new Set<number>();
  beforeAll(async () => {
    gate = await startAnswerGate();
    stack = await startStack({ accounts: { [KEY]: seed }, upstreamUrl: gate.url, websocket: true });
    gate.target = stack.sandbox.url;
    stack.server.on('connection', (socket) => {
      const port = socket.remotePort;
      socket.on('close', () => closedPorts.add(port ?? -1));
    });
  });
  afterAll(async () => {
    await stack.close();
    await gate.close();
  });
  beforeEach(() => {
    gate.release();
    stack.sandbox.clearFaults();
  });
  const linesOf = (reqId: string) => stack.lines().filter((l) => l.msg === 'request' && l.reqId === reqId);
  const graphqlWsLines = () =>
    stack.lines().filter((l) => l.msg === 'request' && l.transport === 'graphql-ws');
  const backendAnswers = () => stack.of('attempt').filter((a) => a.route === 'getBackend').length;
  let sentinels = 0;
  /** A request's line after all that came before: a second line of a stream would be written by now. */
  async function nextLine() {
    sentinels += 1;
    const reqId = `sentinel-${sentinels}`;
    const answer = await stack.gql('{ tunnels(first: 1) { nodes { id } } }', undefined, {
      headers: { 'x-request-id': reqId },
    });
    expect(answer.status).toBe(200);
    await until(() => linesOf(reqId).length === 1, 'the next request line');
  }
  /** Lets the held call answer (`answered`: backend answers before it), then waits for a later line. */
  async function afterTheHeldCall(answered: number) {
    gate.release();
    await until(() => backendAnswers() > answered, 'the held call answered');
    await nextLine();
  }
  const whole = { calls: 2, coalesced: 0, cached: 0, retries: 0, predicted: 2, made: 2 };

  describe.each<StreamTransport>(['multipart', 'sse'])('over %s', (transport) => {
    it('is written when the stream ends, with the deferred call, once', async () => {
      gate.hold(isBackend);
      const reqId = `${transport}-whole`;
      const stream = await openStream(stack.url, transport, reqId);
      expect(stream.status).toBe(200);
      await until(() => stream.payloads().length === 1 && gate.held() === 1, 'the first payload');
      // The first payload has gone, the deferred call waits upstream: no line yet.
      expect(linesOf(reqId)).toEqual([]);
      gate.release();
      await stream.toEnd();
      expect(stream.payloads().map((p) => p.hasNext)).toEqual([true, false]);
      await until(() => linesOf(reqId).length === 1, 'the request line');
      expect(linesOf(reqId)).toEqual([
        expect.objectContaining({
          level: 30,
          status: 200,
          operationName: 'Deferred',
          operationType: 'query',
          upstream: whole,
          outcome: 'ok',
        }),
      ]);
      expect(linesOf(reqId)[0]).not.toHaveProperty('errors');
    });

    it('a deferred error is logged with its code, as an error outcome at warn level', async () => {
      // The deferred call fails (a 500 is not retried, unlike 502-504): UPSTREAM_UNAVAILABLE, last payload.
      stack.sandbox.inject('getBackend', { kind: 'status', status: 500 });
      const reqId = `${transport}-error`;
      const stream = await openStream(stack.url, transport, reqId);
      await stream.toEnd();
      expect(stream.payloads().at(-1)?.incremental?.[0]?.errors?.[0]?.extensions?.code).toBe(
        'UPSTREAM_UNAVAILABLE',
      );
      await until(() => linesOf(reqId).length === 1, 'the request line');
      expect(linesOf(reqId)).toEqual([
        expect.objectContaining({
          level: 40,
          status: 200,
          operationName: 'Deferred',
          upstream: whole,
          outcome: 'error',
          errors: ['UPSTREAM_UNAVAILABLE'],
        }),
      ]);
    });

    it('a client that stops reading mid-stream gets its line when the stream ends, once', async () => {
      gate.hold(isBackend);
      const reqId = `${transport}-stopped`;
      const stream = await openStream(stack.url, transport, reqId);
      await until(() => stream.payloads().length === 1 && gate.held() === 1, 'the first payload');
      stream.stopReading();
      const answered = backendAnswers();
      await afterTheHeldCall(answered);
      // The last payload is small enough to leave for the client's socket: the stream ended.
      await until(() => linesOf(reqId).length === 1, 'the request line');
      expect(linesOf(reqId)).toEqual([
        expect.objectContaining({ status: 200, upstream: whole, outcome: 'ok' }),
      ]);
      stream.disconnect();
      await nextLine();
      expect(linesOf(reqId)).toHaveLength(1);
    });

    it('a client that disconnects mid-stream gets its line at once, once', async () => {
      gate.hold(isBackend);
      const reqId = `${transport}-gone`;
      const stream = await openStream(stack.url, transport, reqId);
      await until(() => stream.payloads().length === 1 && gate.held() === 1, 'the first payload');
      const answered = backendAnswers();
      stream.disconnect();
      await until(() => linesOf(reqId).length === 1, 'the request line');
      // Written as the stream was cut: the deferred call, still waiting upstream, had not answered.
      expect(linesOf(reqId)).toEqual([
        expect.objectContaining({
          status: 200,
          operationName: 'Deferred',
          upstream: { ...whole, calls: 1, made: 1 },
          outcome: 'ok',
        }),
      ]);
      await afterTheHeldCall(answered);
      expect(linesOf(reqId)).toHaveLength(1);
    });

    it('a client gone before the first payload gets its line once the answer is ready, once', async () => {
      // Both calls start at once (a deferred fragment runs with the rest; only its payload waits): both held.
      gate.hold(() => true);
      const reqId = `${transport}-early`;
      // Its own connection, so the gateway's end of it can be seen closing before the answer is ready.
      const client = httpRequest(stack.url, {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: ACCEPT[transport],
          authorization: `Bearer ${KEY}`,
          'x-request-id': reqId,
        },
      });
      client.on('error', () => {});
      client.end(JSON.stringify({ query: DEFERRED, variables: route }));
      await until(() => gate.held() === 2, 'both calls held');
      const port = client.socket?.localPort;
      expect(closedPorts.has(port ?? -1)).toBe(false);
      const answered = backendAnswers();
      client.destroy();
      await until(() => closedPorts.has(port ?? -1), 'the gateway seeing the connection closed');
      // Nothing will read the answer's body: its line comes all the same.
      await afterTheHeldCall(answered);
      await until(() => linesOf(reqId).length === 1, 'the request line');
      expect(linesOf(reqId)).toEqual([expect.objectContaining({ operationName: 'Deferred', outcome: 'ok' })]);
      await nextLine();
      expect(linesOf(reqId)).toHaveLength(1);
    });
  });

  describe('over graphql-ws', () => {
    it('is written when the operation completes, with the deferred call and its error code', async () => {
      const client = wsClient(stack.wsUrl, { key: KEY });
      try {
        const before = graphqlWsLines().length;
        const ok = await run(client, DEFERRED, route);
        expect(ok.upstreamCalls).toEqual([undefined, { predicted: 2, made: 2 }]);
        stack.sandbox.inject('getBackend', { kind: 'status', status: 500 });
        const failed = await run(client, DEFERRED, route);
        const last = failed.results.at(-1) as StreamPayload | undefined;
        expect(last?.incremental?.[0]?.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
        await until(() => graphqlWsLines().length === before + 2, 'the two operation lines');
        expect(graphqlWsLines().slice(before)).toEqual([
          expect.objectContaining({ level: 30, operationName: 'Deferred', upstream: whole, outcome: 'ok' }),
          expect.objectContaining({
            level: 40,
            operationName: 'Deferred',
            upstream: whole,
            outcome: 'error',
            errors: ['UPSTREAM_UNAVAILABLE'],
          }),
        ]);
      } finally {
        await client.dispose();
      }
    });

    it('a client whose socket closes mid-stream gets its line at once, once', async () => {
      gate.hold(isBackend);
      const client = wsClient(stack.wsUrl, { key: KEY });
      const before = graphqlWsLines().length;
      const received: unknown[] = [];
      client.client.subscribe(
        { query: DEFERRED, variables: route },
        { next: (r) => received.push(r), error: () => {}, complete: () => {} },
      );
      await until(() => received.length === 1 && gate.held() === 1, 'the first payload');
      const answered = backendAnswers();
      await client.dispose();
      await until(() => graphqlWsLines().length === before + 1, 'the operation line');
      expect(graphqlWsLines().at(-1)).toMatchObject({
        operationName: 'Deferred',
        upstream: { ...whole, calls: 1, made: 1 },
        outcome: 'ok',
      });
      await afterTheHeldCall(answered);
      expect(graphqlWsLines()).toHaveLength(before + 1);
    });
  });
});
