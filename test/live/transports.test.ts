// The ways in: `npm start` on the embedded stand-in with STANDIN_CHURN (what a newcomer opens
// GraphiQL on: events within seconds, no header), and GraphQL over SSE by GET as well as POST.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { start } from '../../src/main';
import { makeTunnels } from '../../src/sandbox';
import { EVENTS, type EventResult, KEY, type Stack, sse, startLiveStack, until } from './support';

describe('tunnelEvents transports', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0)) await fn();
  });

  it('npm start with STANDIN_CHURN: GraphiQL-style SSE (POST, no header) sees tunnels come and go within seconds', async () => {
    const running = await start(
      loadConfig({ NODE_ENV: 'development', PORT: '0', LOG_LEVEL: 'silent', STANDIN_CHURN: 'true' }),
      () => {},
    );
    cleanup.push(() => running.close());
    // GraphiQL's SSE fetcher: a JSON POST that accepts text/event-stream, no Authorization on loopback.
    const s = await sse(running.url, null, {}, EVENTS('id'));
    cleanup.push(async () => s.close());
    expect(s.status).toBe(200);
    await s.received(1, 20_000);
    expect(s.results[0]?.errors).toBeUndefined();
    expect(s.results[0]?.data?.tunnelEvents.kind).toMatch(/^(ONLINE|OFFLINE)$/);
  });

  it('GET with Accept: text/event-stream streams too (with a CSRF-prevention header, as any GET needs)', async () => {
    const tunnels = makeTunnels(2, { seed: 71 });
    const stack: Stack = await startLiveStack({ accounts: { [KEY]: { tunnels } } });
    cleanup.push(() => stack.close());
    const abort = new AbortController();
    cleanup.push(async () => abort.abort());
    const params = new URLSearchParams({ query: EVENTS('id'), variables: '{"includeCurrent":true}' });
    const response = await fetch(`${stack.url}?${params}`, {
      signal: abort.signal,
      headers: { accept: 'text/event-stream', authorization: `Bearer ${KEY}`, 'x-graphql-yoga-csrf': '1' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const events = () =>
      [...text.matchAll(/^data: (\{.*\})$/gm)].map((m) => JSON.parse(m[1] ?? '') as EventResult);
    const reading = (async () => {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) return;
        text += chunk.value;
      }
    })().catch(() => {});
    await until(() => events().length >= 2, 'two events');
    expect(events().map((e) => e.data?.tunnelEvents.tunnelId)).toEqual(tunnels.map((t) => t.id));
    abort.abort();
    await reading;
  });
});
