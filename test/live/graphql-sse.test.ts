// The graphql-sse client against /graphql: its distinct connections mode (the default) streams
// tunnel events; its single connection mode is refused at its first request (the PUT that would
// reserve a stream) with a 405 whose body names the mode and the alternatives, and a request that
// carries a stream token gets a 400 saying the same. Nothing reaches the upstream for them.
import { createClient, NetworkError } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { EVENTS, type EventResult, KEY, type Stack, startLiveStack } from './support';

const MESSAGE =
  "graphql-sse's single connection mode is not supported: use its distinct connections mode (singleConnection: false, the default) or graphql-ws on this endpoint.";
const REFUSED = { errors: [{ message: MESSAGE, extensions: { code: 'SSE_SINGLE_CONNECTION_UNSUPPORTED' } }] };

describe('graphql-sse', () => {
  let stack: Stack;
  const tunnels = makeTunnels(3, { seed: 71 });
  beforeAll(async () => {
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels } } });
  });
  afterAll(() => stack.close());

  it('distinct connections mode (the default): the current tunnels, then a change', async () => {
    const client = createClient({
      url: stack.url,
      headers: { authorization: `Bearer ${KEY}` },
      retryAttempts: 0,
    });
    const seen: string[] = [];
    for await (const result of client.iterate<EventResult['data']>({
      query: EVENTS(),
      variables: { includeCurrent: true },
    })) {
      expect(result.errors).toBeUndefined();
      seen.push(`${result.data?.tunnelEvents.kind}:${result.data?.tunnelEvents.tunnelId}`);
      if (seen.length === tunnels.length) stack.sandbox.removeTunnel(KEY, tunnels[0]?.id ?? '');
      if (seen.length === tunnels.length + 1) break;
    }
    expect(seen.slice(0, tunnels.length).sort()).toEqual(tunnels.map((t) => `ONLINE:${t.id}`).sort());
    expect(seen.at(-1)).toBe(`OFFLINE:${tunnels[0]?.id}`);
    client.dispose();
  });

  it('single connection mode is refused at its reservation, with an error that names the mode', async () => {
    stack.sandbox.resetCalls();
    const answers: { method?: string; body: unknown }[] = [];
    const client = createClient({
      url: stack.url,
      headers: { authorization: `Bearer ${KEY}` },
      singleConnection: true,
      retryAttempts: 0,
      // The client aborts the request once it has failed: the body is read here, as it arrives.
      fetchFn: async (url: RequestInfo | URL, init?: RequestInit) => {
        const response = await fetch(url, init);
        answers.push({ method: init?.method, body: await response.clone().json() });
        return response;
      },
    });
    const error = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: EVENTS(), variables: { includeCurrent: true } },
        {
          next: () => resolve(new Error('an event arrived')),
          error: resolve,
          complete: () => resolve(undefined),
        },
      );
    });
    expect(error).toBeInstanceOf(NetworkError);
    const response = (error as NetworkError<Response>).response;
    expect(response?.status).toBe(405);
    expect(response?.headers.get('allow')).toBe('GET, POST');
    expect(answers).toEqual([{ method: 'PUT', body: REFUSED }]);
    expect(stack.sandbox.calls()).toBe(0);
    client.dispose();
  });

  it('a request with a stream token (an operation or the stream itself) is refused with 400', async () => {
    const headers = {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      'x-graphql-event-stream-token': 'some-token',
    };
    const operation = await fetch(stack.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: EVENTS(), extensions: { operationId: 'op1' } }),
    });
    expect(operation.status).toBe(400);
    expect(await operation.json()).toEqual(REFUSED);
    const stream = await fetch(`${stack.url}?token=some-token`, {
      headers: { authorization: `Bearer ${KEY}`, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(400);
    expect(await stream.json()).toEqual(REFUSED);
    // A GraphQL GET is not mistaken for one.
    const query = await fetch(`${stack.url}?query=${encodeURIComponent('{ __typename }')}&token=x`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(await query.json()).toEqual({
      data: { __typename: 'Query' },
      extensions: { upstreamCalls: { predicted: 0, made: 0 } },
    });
  });
});
