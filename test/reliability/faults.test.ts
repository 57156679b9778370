// Upstream answers the gateway cannot read, and a failure in part of a query: the exact GraphQL
// answer, the number of upstream attempts, and a gateway that still serves the next request.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Fault } from '../../src/sandbox';
import type { Stack } from '../support/stack';
import {
  edge,
  failedTunnel,
  freshFaults,
  MESSAGES,
  OP_ID,
  route,
  startFaultStack,
  stillServes,
  TUNNEL,
  t0,
  t1,
  tunnels,
} from './fault-fixtures';

describe('upstream faults', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startFaultStack();
  });
  afterAll(() => h.close());
  beforeEach(() => freshFaults(h));

  describe('malformed upstream answers are UPSTREAM_BAD_RESPONSE, not retried', () => {
    const kinds: [Fault, string][] = [
      [{ kind: 'malformedJson' }, MESSAGES.badResponse],
      [{ kind: 'truncatedJson' }, MESSAGES.badResponse],
      [{ kind: 'wrongContentType' }, MESSAGES.badResponse],
      [
        { kind: 'missingField' },
        'The ngrok API sent a response the gateway could not read (tunnel.id is missing).',
      ],
    ];
    for (const [fault, message] of kinds) {
      it(fault.kind, async () => {
        h.sandbox.inject('getTunnel', fault);
        const { status, body } = await h.gql(TUNNEL, { id: t0.id });
        expect(status).toBe(200);
        // A body that cannot be read at all keeps the upstream's details; a parsed one that lacks a field has none.
        const upstream =
          fault.kind === 'missingField'
            ? {}
            : { upstream: { status: 200, errorCode: null, operationId: OP_ID } };
        expect(body).toEqual(failedTunnel(message, { code: 'UPSTREAM_BAD_RESPONSE', ...upstream }));
        expect(h.sandbox.calls('getTunnel')).toBe(1);
        await stillServes(h);
      });
    }

    it('a list with a missing field fails the whole connection, and the next list works', async () => {
      h.sandbox.inject('listTunnels', { kind: 'missingField' });
      const bad = await h.gql('{ tunnels(first: 2) { nodes { id } } }');
      expect(bad.body).toMatchObject({
        data: null,
        errors: [{ extensions: { code: 'UPSTREAM_BAD_RESPONSE' } }],
      });
      const good = await h.gql('{ tunnels(first: 2) { nodes { id } } }');
      expect(good.body).toEqual({ data: { tunnels: { nodes: [{ id: t0.id }, { id: t1.id }] } } });
    });
  });

  describe('partial failure', () => {
    it('a field whose call failed is null with its error; the rest of the data comes back', async () => {
      h.sandbox.inject('getBackend', { kind: 'status', status: 500 });
      const { status, body } = await h.gql(
        `query($edgeId: ID!, $routeId: ID!) {
          tunnels(first: 1) { nodes { id } }
          httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) { enabled }
        }`,
        { edgeId: edge, routeId: route },
      );
      expect(status).toBe(200);
      expect(body).toEqual({
        data: { tunnels: { nodes: [{ id: t0.id }] }, httpsEdgeRouteBackend: null },
        errors: [
          {
            message: MESSAGES.unavailable,
            locations: [{ line: 3, column: 11 }],
            path: ['httpsEdgeRouteBackend'],
            extensions: {
              code: 'UPSTREAM_UNAVAILABLE',
              upstream: { status: 500, errorCode: null, operationId: OP_ID },
            },
          },
        ],
      });
    });

    it('one failing alias among several: only that one is null', async () => {
      h.sandbox.inject('getTunnel', { kind: 'pass' }, { kind: 'hang' }, { kind: 'pass' });
      const { body } = await h.gql(
        `query($a: ID!, $b: ID!, $c: ID!) { a: tunnel(id: $a) { id } b: tunnel(id: $b) { id } c: tunnel(id: $c) { id } }`,
        { a: t0.id, b: t1.id, c: tunnels[2]?.id },
      );
      // Which of the three parallel calls meets the hang depends on arrival order at the stand-in.
      const data = body.data as Record<string, { id: string } | null>;
      expect(Object.values(data).filter((v) => v === null)).toHaveLength(1);
      expect(Object.values(data).filter((v) => v !== null)).toHaveLength(2);
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0]?.extensions).toEqual({ code: 'UPSTREAM_TIMEOUT' });
      expect(body.errors?.[0]?.path).toEqual([Object.keys(data).find((k) => data[k] === null)]);
      expect(h.sandbox.calls('getTunnel')).toBe(3);
    });
  });
});
