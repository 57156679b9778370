import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AccountSeed, newId } from '../../src/sandbox';
import { KEY, type Stack, startStack } from '../support/stack';

const edge = newId('edghts');
const withModule = newId('edghtsrt');
const withoutModule = newId('edghtsrt');
const backendA = newId('bkdtg');
const backendB = newId('bkdfo');

const seed = (): AccountSeed => ({
  edges: [
    {
      id: edge,
      routes: [{ id: withModule, backend: { backendId: backendA, enabled: true } }, { id: withoutModule }],
    },
  ],
  backends: [backendA, backendB],
});

const READ = `query($edgeId: ID!, $routeId: ID!) {
  httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) { edgeId routeId enabled backend { id uri } }
}`;

const REPLACE = `mutation($input: ReplaceHttpsEdgeRouteBackendInput!) {
  replaceHttpsEdgeRouteBackend(input: $input) {
    __typename
    ... on ReplaceHttpsEdgeRouteBackendPayload { backendModule { edgeId routeId enabled backend { id uri } } }
    ... on Error { message code }
    ... on NotFoundError { id }
    ... on InvalidInputError { field }
  }
}`;

const DELETE = `mutation($input: DeleteHttpsEdgeRouteBackendInput!) {
  deleteHttpsEdgeRouteBackend(input: $input) {
    __typename
    ... on DeleteHttpsEdgeRouteBackendPayload { edgeId routeId }
    ... on Error { message code }
    ... on NotFoundError { id }
    ... on InvalidInputError { field }
  }
}`;

describe('httpsEdgeRouteBackend and its mutations', () => {
  let stack: Stack;
  const uriOf = (id: string) =>
    `${stack.sandbox.url}/backends/${id.startsWith('bkdtg_') ? 'tunnel_group' : 'failover'}/${id}`;

  beforeAll(async () => {
    stack = await startStack({ sandbox: { edgesWritable: true } });
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    stack.sandbox.seed(KEY, seed());
    stack.sandbox.resetCalls();
  });

  it('reads the module of a route', async () => {
    const { body } = await stack.gql(READ, { edgeId: edge, routeId: withModule });
    expect(body).toEqual({
      data: {
        httpsEdgeRouteBackend: {
          edgeId: edge,
          routeId: withModule,
          enabled: true,
          backend: { id: backendA, uri: uriOf(backendA) },
        },
      },
    });
  });

  it('is null for a route without module, and for an unknown route or edge', async () => {
    for (const [edgeId, routeId] of [
      [edge, withoutModule],
      [edge, newId('edghtsrt')],
      [newId('edghts'), withModule],
    ]) {
      const { body } = await stack.gql(READ, { edgeId, routeId });
      expect(body).toEqual({ data: { httpsEdgeRouteBackend: null } });
    }
    expect(stack.sandbox.calls('getBackend')).toBe(3);
  });

  it('refuses malformed or wrong-kind ids with BAD_USER_INPUT and no call', async () => {
    for (const [edgeId, routeId] of [
      [withModule, withModule],
      [edge, edge],
      ['edghts_../x', withModule],
      [edge, 'edghtsrt_a/b'],
      [`edghts_${'x'.repeat(10_000)}`, withModule],
    ]) {
      const { body } = await stack.gql(READ, { edgeId, routeId });
      expect(body.data).toEqual({ httpsEdgeRouteBackend: null });
      expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('replace attaches a backend, enabled by default, and the upstream stores it', async () => {
    const { body } = await stack.gql(REPLACE, {
      input: { edgeId: edge, routeId: withoutModule, backendId: backendB },
    });
    expect(body.data?.replaceHttpsEdgeRouteBackend).toEqual({
      __typename: 'ReplaceHttpsEdgeRouteBackendPayload',
      backendModule: {
        edgeId: edge,
        routeId: withoutModule,
        enabled: true,
        backend: { id: backendB, uri: uriOf(backendB) },
      },
    });
    const stored = stack.sandbox.account(KEY).edges?.[0]?.routes.find((r) => r.id === withoutModule);
    expect(stored?.backend).toEqual({ backendId: backendB, enabled: true });
    expect(stack.sandbox.calls('replaceBackend')).toBe(1);
  });

  it('replace with enabled: false stores a disabled module', async () => {
    const { body } = await stack.gql(REPLACE, {
      input: { edgeId: edge, routeId: withModule, backendId: backendB, enabled: false },
    });
    expect(body.data?.replaceHttpsEdgeRouteBackend).toMatchObject({ backendModule: { enabled: false } });
    expect(stack.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend).toEqual({
      backendId: backendB,
      enabled: false,
    });
  });

  it('a read after the write in the same operation shows the write, with no extra call', async () => {
    const { body } = await stack.gql(
      `mutation($input: ReplaceHttpsEdgeRouteBackendInput!, $del: DeleteHttpsEdgeRouteBackendInput!) {
        before: replaceHttpsEdgeRouteBackend(input: $input) { ... on ReplaceHttpsEdgeRouteBackendPayload { backendModule { backend { id } } } }
        gone: deleteHttpsEdgeRouteBackend(input: $del) { __typename }
        again: replaceHttpsEdgeRouteBackend(input: $input) { ... on ReplaceHttpsEdgeRouteBackendPayload { backendModule { enabled backend { id } } } }
      }`,
      {
        input: { edgeId: edge, routeId: withModule, backendId: backendB, enabled: false },
        del: { edgeId: edge, routeId: withModule },
      },
    );
    expect(body.data).toEqual({
      before: { backendModule: { backend: { id: backendB } } },
      gone: { __typename: 'DeleteHttpsEdgeRouteBackendPayload' },
      again: { backendModule: { enabled: false, backend: { id: backendB } } },
    });
    expect(stack.sandbox.calls('getBackend')).toBe(0);
  });

  it('delete detaches the module; a later read in a new request is null', async () => {
    const { body } = await stack.gql(DELETE, { input: { edgeId: edge, routeId: withModule } });
    expect(body.data?.deleteHttpsEdgeRouteBackend).toEqual({
      __typename: 'DeleteHttpsEdgeRouteBackendPayload',
      edgeId: edge,
      routeId: withModule,
    });
    expect(stack.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend).toBeUndefined();
    const read = await stack.gql(READ, { edgeId: edge, routeId: withModule });
    expect(read.body).toEqual({ data: { httpsEdgeRouteBackend: null } });
  });

  it('unknown edge or route → NotFoundError for replace and delete', async () => {
    const unknownRoute = newId('edghtsrt');
    for (const [query, input] of [
      [REPLACE, { edgeId: edge, routeId: unknownRoute, backendId: backendA }],
      [DELETE, { edgeId: edge, routeId: unknownRoute }],
      [REPLACE, { edgeId: newId('edghts'), routeId: withModule, backendId: backendA }],
      [DELETE, { edgeId: newId('edghts'), routeId: withModule }],
    ] as const) {
      const { body } = await stack.gql(query, { input });
      const result = Object.values(body.data ?? {})[0] as Record<string, unknown>;
      expect(result).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
      expect(typeof result.message).toBe('string');
    }
    expect(stack.sandbox.calls()).toBe(4);
  });

  it('malformed ids → InvalidInputError naming the field, with no call', async () => {
    const cases = [
      [REPLACE, { edgeId: 'edghts_a/../b', routeId: withModule, backendId: backendA }, 'edgeId'],
      [REPLACE, { edgeId: edge, routeId: edge, backendId: backendA }, 'routeId'],
      [REPLACE, { edgeId: edge, routeId: withModule, backendId: 'tn_abc' }, 'backendId'],
      [REPLACE, { edgeId: edge, routeId: withModule, backendId: 'bkdtg_%2F' }, 'backendId'],
      [DELETE, { edgeId: edge, routeId: 'edghtsrt_?x=1' }, 'routeId'],
      [DELETE, { edgeId: '', routeId: withModule }, 'edgeId'],
    ] as const;
    for (const [query, input, field] of cases) {
      const { body } = await stack.gql(query, { input });
      const result = Object.values(body.data ?? {})[0];
      expect(result).toMatchObject({ __typename: 'InvalidInputError', code: 'INVALID_INPUT', field });
    }
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('an upstream validation error (unknown backend) → InvalidInputError on backendId, nothing stored', async () => {
    const { body } = await stack.gql(REPLACE, {
      input: { edgeId: edge, routeId: withModule, backendId: newId('bkdwd') },
    });
    expect(body.data?.replaceHttpsEdgeRouteBackend).toMatchObject({
      __typename: 'InvalidInputError',
      code: 'INVALID_INPUT',
      field: 'backendId',
    });
    expect(stack.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend).toEqual({
      backendId: backendA,
      enabled: true,
    });
    expect(stack.sandbox.calls('replaceBackend')).toBe(1);
  });

  it('enabled: null leaves the default to the upstream (true)', async () => {
    const { body } = await stack.gql(REPLACE, {
      input: { edgeId: edge, routeId: withoutModule, backendId: backendA, enabled: null },
    });
    expect(body.data?.replaceHttpsEdgeRouteBackend).toMatchObject({ backendModule: { enabled: true } });
  });
});
