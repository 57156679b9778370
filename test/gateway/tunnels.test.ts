import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { graphqlTunnel } from '../support/fixtures';
import { dataOf, KEY, type Stack, startStack, TUNNEL_FIELDS } from '../support/stack';

const PAGE = `query Page($first: Int, $after: String) {
  tunnels(first: $first, after: $after) {
    edges { cursor node { id } }
    nodes { id }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

interface PageResult {
  edges: { cursor: string; node: { id: string } }[];
  nodes: { id: string }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

describe('tunnels: paging over lists of every size', () => {
  const SIZES = [0, 1, 100, 101, 250];
  const FIRSTS = [1, 20, 99, 100];
  let stack: Stack;
  const keyOf = (size: number) => `key-${size}-0123456789`;
  const lists = new Map(SIZES.map((size) => [size, makeTunnels(size, { seed: size + 1 })]));

  beforeAll(async () => {
    stack = await startStack({
      accounts: Object.fromEntries(SIZES.map((s) => [keyOf(s), { tunnels: lists.get(s) }])),
    });
  });
  afterAll(() => stack.close());

  for (const size of SIZES) {
    for (const first of FIRSTS) {
      it(`walks ${size} tunnels with first: ${first}, each once, hasNextPage exact`, async () => {
        const expected = (lists.get(size) ?? []).map((t) => t.id);
        const seen: string[] = [];
        let after: string | null = null;
        let pages = 0;
        stack.sandbox.resetCalls();
        let expectedCalls = 0;
        for (;;) {
          const { body } = await stack.gql(PAGE, { first, after }, { key: keyOf(size) });
          expect(body.errors).toBeUndefined();
          const page = (body.data?.tunnels ?? {}) as PageResult;
          pages += 1;
          const ids = page.edges.map((e) => e.node.id);
          expect(page.nodes.map((n) => n.id)).toEqual(ids);
          seen.push(...ids);
          const remaining = expected.length - seen.length;
          expect(page.pageInfo.hasNextPage).toBe(remaining > 0);
          expect(page.pageInfo.hasPreviousPage).toBe(false);
          expect(page.pageInfo.startCursor).toBe(page.edges[0]?.cursor ?? null);
          expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
          // Below 100 one call answers hasNextPage too; at 100 a full page with more behind costs one probe.
          expectedCalls += first === 100 && ids.length === 100 && remaining > 0 ? 2 : 1;
          if (first === 100 && ids.length === 100 && remaining === 0) expectedCalls += 0;
          if (!page.pageInfo.hasNextPage) break;
          after = page.pageInfo.endCursor;
        }
        expect(seen).toEqual(expected);
        expect(pages).toBe(Math.max(1, Math.ceil(expected.length / first)));
        expect(stack.sandbox.calls('listTunnels')).toBe(expectedCalls);
      });
    }
  }

  it('defaults first to 20', async () => {
    const { body } = await stack.gql(
      '{ tunnels { nodes { id } pageInfo { hasNextPage } } }',
      {},
      { key: keyOf(250) },
    );
    expect(dataOf<PageResult>(body, 'tunnels').nodes.map((n) => n.id)).toEqual(
      (lists.get(250) ?? []).slice(0, 20).map((t) => t.id),
    );
  });

  it('at first: 100 makes no probe when hasNextPage is not asked for', async () => {
    stack.sandbox.resetCalls();
    const { body } = await stack.gql('{ tunnels(first: 100) { nodes { id } } }', {}, { key: keyOf(250) });
    expect(dataOf<PageResult>(body, 'tunnels').nodes).toHaveLength(100);
    expect(stack.sandbox.calls('listTunnels')).toBe(1);
  });
});

describe('tunnels: arguments refused before any upstream call', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: { tunnels: makeTunnels(5) } } });
  });
  afterAll(() => stack.close());

  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['first: 0', { first: 0 }, /first must be from 1 to 100, got 0/],
    ['first: -1', { first: -1 }, /first must be from 1 to 100, got -1/],
    ['first: 101', { first: 101 }, /first must be from 1 to 100, got 101/],
    ['last', { last: 5 }, /pages forward only/],
    ['before', { before: 'abc' }, /pages forward only/],
    ['a cursor that is not ours', { after: 'bm90LWEtY3Vyc29y' }, /not a cursor/],
    [
      'a cursor with a path in it',
      { after: Buffer.from('tunnel:../../edges').toString('base64url') },
      /not a cursor/,
    ],
    ['an empty cursor', { after: '' }, /not a cursor/],
    ['a 10 kB cursor', { after: 'A'.repeat(10_000) }, /not a cursor/],
  ];
  for (const [name, variables, message] of cases) {
    it(`refuses ${name} with BAD_USER_INPUT`, async () => {
      stack.sandbox.resetCalls();
      const { body } = await stack.gql(
        'query($first: Int, $after: String, $last: Int, $before: String) { tunnels(first: $first, after: $after, last: $last, before: $before) { nodes { id } } }',
        variables,
      );
      expect(body.data).toBeNull();
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0]?.message).toMatch(message);
      expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(stack.sandbox.calls()).toBe(0);
    });
  }
});

describe('Tunnel fields map from the upstream', () => {
  let stack: Stack;
  const tunnels = makeTunnels(40, { seed: 7, kind: 'mix' });
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: { tunnels } } });
  });
  afterAll(() => stack.close());

  it('maps every field of agent and labeled tunnels, absent fields as null, labels sorted', async () => {
    const { body } = await stack.gql(`{ tunnels(first: 40) { nodes { ${TUNNEL_FIELDS} } } }`);
    expect(body.errors).toBeUndefined();
    const nodes = dataOf<{ nodes: Record<string, unknown>[] }>(body, 'tunnels').nodes;
    expect(nodes).toHaveLength(40);
    const base = stack.sandbox.url;
    nodes.forEach((node, i) => {
      const t = tunnels[i];
      if (!t) throw new Error('fixture missing');
      expect(node).toEqual(graphqlTunnel(t, base));
    });
    // The fixture holds both kinds, so both mappings above were exercised.
    expect(nodes.some((n) => n.labels !== null)).toBe(true);
    expect(nodes.some((n) => n.proto !== null)).toBe(true);
  });
});
