// Mutation fields run one after the other, and graphql-js stops at a failed non-null one: a write
// after a failed write must never reach the upstream (compiled execution once sent it anyway).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTunnels, newId } from '../../src/sandbox';
import { oneRouteAccount } from '../support/fixtures';
import { KEY, type Stack, startStack } from '../support/stack';

const { edge, route, seed } = oneRouteAccount(makeTunnels(1, { seed: 31 }));
const FIRST = newId('bkdtg');
const SECOND = newId('bkdtg');
const replace = (alias: string, backendId: string) =>
  `${alias}: replaceHttpsEdgeRouteBackend(input: { edgeId: "${edge}", routeId: "${route}", backendId: "${backendId}" }) {
    __typename ... on ReplaceHttpsEdgeRouteBackendPayload { backendModule { backend { id } } }
  }`;
const TWO_WRITES = `mutation {\n  ${replace('a', FIRST)}\n  ${replace('b', SECOND)}\n}`;

describe('two writes in one mutation', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: { ...seed, backends: [FIRST, SECOND] } },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sandbox.resetCalls();
  });

  // Twice: the first run prepares the document, the second runs what was prepared.
  for (const run of ['first', 'second']) {
    it(`the first PUT answered 500: data is null, only its error, one PUT (${run} run)`, async () => {
      h.sandbox.inject('replaceBackend', { kind: 'status', status: 500 });
      const { status, body } = await h.gql(TWO_WRITES);
      expect(status).toBe(200);
      expect(body).toEqual({
        data: null,
        errors: [
          {
            message: 'The ngrok API is unavailable.',
            locations: [{ line: 2, column: 3 }],
            path: ['a'],
            extensions: {
              code: 'UPSTREAM_UNAVAILABLE',
              upstream: { status: 500, errorCode: null, operationId: expect.any(String) },
            },
          },
        ],
      });
      expect(h.sandbox.calls('replaceBackend')).toBe(1);
      expect(h.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend?.backendId).not.toBe(SECOND);
    });
  }

  it('both succeed: both PUTs, in order', async () => {
    const { body } = await h.gql(TWO_WRITES);
    expect(body).toEqual({
      data: {
        a: { __typename: 'ReplaceHttpsEdgeRouteBackendPayload', backendModule: { backend: { id: FIRST } } },
        b: { __typename: 'ReplaceHttpsEdgeRouteBackendPayload', backendModule: { backend: { id: SECOND } } },
      },
    });
    expect(h.sandbox.calls('replaceBackend')).toBe(2);
    expect(h.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend?.backendId).toBe(SECOND);
  });
});
