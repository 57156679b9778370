// operationName comes from clients: as a metric label it is bounded (the first names of operations
// that validated, the rest counted as "other"), and in a log line it is cut to a printable prefix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { sample } from '../support/prometheus';
import { KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(1, { seed: 7 });
const ONE = 'query OneTunnel($id: ID!) { tunnel(id: $id) { id } }';

/** Every distinct operationName label value in a scrape. */
const operationNames = (text: string) =>
  new Set([...text.matchAll(/operationName="((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]));

describe('operationName as a metric label', () => {
  let stack: Stack;
  const scrape = async () => (await fetch(`${stack.base}/metrics`)).text();
  /** Introspection-only operations need no credential, as an anonymous flood would send them. */
  const flood = async (from: number, count: number) => {
    for (let start = from; start < from + count; start += 100) {
      const batch = Array.from({ length: Math.min(100, from + count - start) }, (_, i) => ({
        query: `query N${String(start + i).padStart(5, '0')}${'x'.repeat(58)} { __typename }`,
      }));
      const response = await stack.post(batch, { authorization: '' });
      expect(response.status).toBe(200);
      expect(((await response.json()) as unknown[]).length).toBe(batch.length);
    }
  };

  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { METRICS_MAX_OPERATION_NAMES: '3', MAX_BATCH: '100' },
    });
  });
  afterAll(() => stack.close());

  it('gives the first names of operations that validated their own series', async () => {
    for (let i = 0; i < 2; i += 1) {
      const response = await stack.post({ query: ONE, variables: { id: tunnels[0]?.id } });
      expect(response.status).toBe(200);
    }
    const text = await scrape();
    const op = { operationName: 'OneTunnel', operationType: 'query' };
    expect(sample(text, 'graphql_envelop_request', op)).toBe(2);
    // Parse time included: the name's first parse happens before validation admitted it.
    for (const phase of ['parse', 'validate', 'context', 'execute']) {
      expect(sample(text, `graphql_envelop_phase_${phase}_count`, op)).toBe(2);
    }
    expect(
      sample(text, 'graphql_yoga_http_duration_count', { ...op, method: 'POST', statusCode: '200' }),
    ).toBe(2);
  });

  it('adds no series for operations that fail validation, and never shows raw control bytes', async () => {
    await stack.post({ query: 'query Broken { nope }' });
    await stack.post({ query: 'query Evil { __typename }', operationName: 'Evil\u0001\n}' });
    const text = await scrape();
    expect(text).not.toMatch(/Broken|Evil/);
    const control = [...text].filter((c) => c !== '\n' && (c < ' ' || c === '\u007f'));
    expect(control).toEqual([]);
    expect(
      sample(text, 'graphql_envelop_error_result', {
        operationName: 'other',
        operationType: 'query',
        phase: 'validate',
      }),
    ).toBe(1);
    // The HTTP histogram of the request whose operationName matched no operation.
    expect(operationNames(text)).toEqual(new Set(['OneTunnel', 'other', 'unknown']));
  });

  it('counts every name past the budget as "other": 2,000 unique names leave /metrics small', async () => {
    await flood(0, 2000);
    const text = await scrape();
    // OneTunnel and the first two flood names took the three places.
    expect(operationNames(text)).toEqual(
      new Set(['OneTunnel', `N00000${'x'.repeat(58)}`, `N00001${'x'.repeat(58)}`, 'other', 'unknown']),
    );
    const other = { operationName: 'other', operationType: 'query' };
    // 1,998 flood operations executed; Broken was parsed and validated too, but never executed.
    expect(sample(text, 'graphql_envelop_request', other)).toBe(1998);
    expect(sample(text, 'graphql_envelop_phase_parse_count', other)).toBe(1999);
    expect(sample(text, 'graphql_envelop_phase_validate_count', other)).toBe(1999);
    expect(Buffer.byteLength(text)).toBeLessThan(200_000);
  });

  it('logs names cut to a printable prefix of 64 characters', async () => {
    const long = `Long${'y'.repeat(1000)}`;
    await stack.post({ query: `query ${long} { __typename }` }, { authorization: '' });
    await stack.post({ query: 'query Evil { __typename }', operationName: 'Evil\u0001\n}' });
    const lines = stack.lines().filter((l) => l.msg === 'request');
    expect(lines.at(-2)?.operationName).toBe(`${long.slice(0, 64)}...`);
    expect(lines.at(-1)?.operationName).toBe('Evil??}');
    expect(stack.text()).not.toContain('y'.repeat(65));
  });
});
