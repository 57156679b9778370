// The README stays true: its example operations run against the demo data, and its configuration
// table is the one generated from src/config.ts.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../src/sandbox';
import { withConfigTable } from '../../src/tools/config-table';
import { sse } from '../live/support';
import { KEY, type Stack, startStack } from '../support/stack';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
// Each ```graphql block, with the ```json block of its variables when one follows it.
const examples = [...readme.matchAll(/```graphql\n([\s\S]*?)```(?:\s+```json\n([\s\S]*?)```)?/g)].map(
  (m) => ({
    document: m[1] ?? '',
    variables: m[2] === undefined ? undefined : (JSON.parse(m[2]) as Record<string, unknown>),
  }),
);
const operations = examples.map((e) => e.document);
const nameOf = (op: string) => /^(?:query|mutation|subscription)\s+(\w+)/m.exec(op)?.[1] ?? '?';
const isSubscription = (op: string) => /^subscription\s/m.test(op);

/** What an example answers: a query's or mutation's body, a subscription's first event. */
async function run(stack: Stack, operation: string, variables: Record<string, unknown> | undefined) {
  if (!isSubscription(operation)) return (await stack.gql(operation, variables)).body;
  const subscriber = await sse(stack.url, KEY, variables, operation);
  try {
    const [first] = await subscriber.received(1);
    return first ?? {};
  } finally {
    subscriber.close();
  }
}

describe('README', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: demoData() } });
  });
  afterAll(() => stack.close());

  it('shows an example of every query, mutation and subscription', () => {
    const names = operations.map(nameOf);
    expect(names).toEqual([
      'TunnelsPage',
      'OneTunnel',
      'ByIds',
      'BackendModule',
      'ReplaceBackend',
      'DeleteBackend',
      'TunnelEvents',
    ]);
    const text = operations.join('\n');
    for (const field of [
      'tunnels(',
      'tunnel(',
      'node(',
      'nodes(',
      'httpsEdgeRouteBackend(',
      'replaceHttpsEdgeRouteBackend(',
      'deleteHttpsEdgeRouteBackend(',
      'tunnelEvents(',
    ]) {
      expect(text).toContain(field);
    }
  });

  for (const { document: operation, variables } of examples) {
    it(`example ${nameOf(operation)} runs against the demo data with no error and real data`, async () => {
      const body = await run(stack, operation, variables);
      expect(body.errors).toBeUndefined();
      const values = Object.values(body.data ?? {});
      expect(values.length).toBeGreaterThan(0);
      for (const value of values) expect(value).not.toBeNull();
      const typenames = JSON.stringify(body.data).match(/"__typename":"(\w+)"/g) ?? [];
      for (const t of typenames) expect(t).not.toMatch(/Error"/);
    });
  }

  it('the configuration table lists every option (regenerate with npm run docs:config)', () => {
    expect(withConfigTable(readme)).toBe(readme);
  });
});
