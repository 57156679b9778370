// How upstream answers, good and bad, become GraphQL answers: error codes and what the upstream
// JSON is read into (upstream-variants.test.ts: upstreams that answer unlike the stand-in).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TUNNEL } from '../../src/resources';
import { parseBackendModule } from '../../src/resources/kinds/backend-module';

const parseTunnel = TUNNEL.parse;

import { makeTunnels, newId } from '../../src/sandbox';
import { dataOf, KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(5, { seed: 21 });
const id = (i: number) => tunnels[i]?.id ?? '';

describe('upstream errors map to codes with extensions.upstream', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ sandbox: { edgesWritable: true }, accounts: { [KEY]: { tunnels } } });
  });
  afterAll(() => stack.close());
  afterEach(() => {
    stack.sandbox.clearFaults();
    stack.sandbox.resetCalls();
  });

  it('a 500 is UPSTREAM_UNAVAILABLE with status, error code and operation id, and no upstream text', async () => {
    stack.sandbox.inject('getTunnel', { kind: 'status', status: 500, errorCode: 'ERR_NGROK_500' });
    const { body } = await stack.gql(`{ tunnel(id: "${id(0)}") { id } }`);
    expect(body.data).toEqual({ tunnel: null });
    const error = body.errors?.[0];
    expect(error?.path).toEqual(['tunnel']);
    expect(error?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error?.extensions?.upstream).toMatchObject({ status: 500, errorCode: 'ERR_NGROK_500' });
    expect(error?.extensions?.upstream).toMatchObject({
      operationId: expect.stringMatching(/^op_[A-Za-z0-9]+$/),
    });
    expect(error?.message).toBe('The ngrok API is unavailable.');
    expect(JSON.stringify(body)).not.toMatch(/stack|at .*\.ts/);
  });

  it('partial failure: the failed field is null with its error, the rest of the data comes back', async () => {
    stack.sandbox.inject('getTunnel', { kind: 'status', status: 500 });
    const { body } = await stack.gql(`{ a: tunnel(id: "${id(0)}") { id } b: tunnel(id: "${id(1)}") { id } }`);
    const data = body.data as Record<string, { id: string } | null>;
    const failed = Object.entries(data).filter(([, v]) => v === null);
    expect(failed).toHaveLength(1);
    expect(Object.values(data).filter((v) => v !== null)).toHaveLength(1);
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]?.path).toEqual([failed[0]?.[0]]);
  });

  it('nodes(ids): one failed id is null with its error, the others resolve', async () => {
    stack.sandbox.inject('getTunnel', { kind: 'pass' }, { kind: 'status', status: 500 });
    const { body } = await stack.gql(`{ nodes(ids: ["${id(0)}", "${id(1)}"]) { id } }`);
    const nodes = body.data?.nodes as ({ id: string } | null)[];
    expect(nodes.filter((n) => n === null)).toHaveLength(1);
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
  });

  for (const kind of ['malformedJson', 'truncatedJson', 'wrongContentType', 'missingField'] as const) {
    it(`${kind} from the upstream is UPSTREAM_BAD_RESPONSE, and the next request is served`, async () => {
      stack.sandbox.inject('listTunnels', { kind });
      const first = await stack.gql('{ tunnels(first: 2) { nodes { id } } }');
      expect(first.body.data).toBeNull();
      expect(first.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_BAD_RESPONSE');
      const next = await stack.gql('{ tunnels(first: 2) { nodes { id } } }');
      expect(dataOf<{ nodes: unknown[] }>(next.body, 'tunnels').nodes).toHaveLength(2);
    });
  }

  it('an account without edges (ERR_NGROK_7008) is FORBIDDEN with a clear message, for reads and writes', async () => {
    const edgeId = newId('edghts');
    const routeId = newId('edghtsrt');
    stack.sandbox.inject('getBackend', { kind: 'status', status: 400, errorCode: 'ERR_NGROK_7008' });
    stack.sandbox.inject('replaceBackend', { kind: 'status', status: 400, errorCode: 'ERR_NGROK_7008' });
    const read = await stack.gql(
      `{ httpsEdgeRouteBackend(edgeId: "${edgeId}", routeId: "${routeId}") { enabled } }`,
    );
    const write = await stack.gql(
      `mutation { replaceHttpsEdgeRouteBackend(input: { edgeId: "${edgeId}", routeId: "${routeId}", backendId: "bkdtg_1" }) { __typename } }`,
    );
    for (const { body } of [read, write]) {
      expect(body.errors?.[0]?.message).toBe(
        'HTTPS edges are deprecated and not available for this account.',
      );
      expect(body.errors?.[0]?.extensions).toMatchObject({
        code: 'FORBIDDEN',
        upstream: { status: 400, errorCode: 'ERR_NGROK_7008' },
      });
    }
  });

  it('a missing required field of one tunnel is UPSTREAM_BAD_RESPONSE for that field only', async () => {
    stack.sandbox.inject('getTunnel', { kind: 'missingField' });
    const { body } = await stack.gql(`{ tunnel(id: "${id(2)}") { id } tunnels(first: 1) { nodes { id } } }`);
    expect(body.data).toEqual({ tunnel: null, tunnels: { nodes: [{ id: id(0) }] } });
    expect(body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_BAD_RESPONSE');
  });
});

describe('tolerant parsing of what the upstream sends', () => {
  const base = {
    id: 'tn_1',
    started_at: '2025-09-04T10:11:22Z',
    region: 'us',
    tunnel_session: { id: 'ts_1', uri: 'u' },
  };

  it('ignores unknown fields and accepts a single Ref or an array for backends', () => {
    expect(
      parseTunnel({ ...base, shiny_new_field: { x: 1 }, backends: { id: 'bkdtg_1', uri: 'u' } }).backends,
    ).toEqual([{ id: 'bkdtg_1', uri: 'u' }]);
    expect(
      parseTunnel({
        ...base,
        backends: [
          { id: 'bkdtg_1', uri: 'u' },
          { id: 'bkdtg_2', uri: 'v' },
        ],
      }).backends,
    ).toHaveLength(2);
    expect(parseTunnel({ ...base, metadata: null }).metadata).toBeUndefined();
  });

  it('reports a missing or mistyped required field as UPSTREAM_BAD_RESPONSE', () => {
    for (const broken of [
      { ...base, id: undefined },
      { ...base, region: 3 },
      { ...base, tunnel_session: 'ts_1' },
      [],
      null,
    ]) {
      expect(() => parseTunnel(broken)).toThrow(expect.objectContaining({ code: 'UPSTREAM_BAD_RESPONSE' }));
    }
    expect(() => parseBackendModule({ backend: null })).toThrow(
      expect.objectContaining({ code: 'UPSTREAM_BAD_RESPONSE' }),
    );
  });
});
