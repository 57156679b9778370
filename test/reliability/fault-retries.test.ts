// What is retried after an upstream fault: reads on connection errors, 502/503/504 and 429, up to
// UPSTREAM_RETRIES; writes never once sent. The exact answer and the number of attempts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Fault } from '../../src/sandbox';
import { DELETE, REPLACE } from '../support/fixtures';
import type { Stack } from '../support/stack';
import {
  backendA,
  backendB,
  backendOf,
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
} from './fault-fixtures';

describe('upstream faults that are retried or not', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startFaultStack();
  });
  afterAll(() => h.close());
  beforeEach(() => freshFaults(h));

  describe('reads are retried on connection errors, 502/503/504 and 429', () => {
    const recovered: [string, Fault[]][] = [
      [
        '503 twice',
        [
          { kind: 'status', status: 503 },
          { kind: 'status', status: 503 },
        ],
      ],
      [
        '502 then 504',
        [
          { kind: 'status', status: 502 },
          { kind: 'status', status: 504 },
        ],
      ],
      ["a proxy's HTML 502 page", [{ kind: 'html' }]],
      ['a dropped connection', [{ kind: 'drop' }]],
      ['429 with Retry-After: 0', [{ kind: 'rateLimit', retryAfter: 0 }]],
      ['429 without Retry-After', [{ kind: 'rateLimit' }]],
    ];
    for (const [name, faults] of recovered) {
      it(`${name}: the data, after ${faults.length + 1} attempts`, async () => {
        h.sandbox.inject('getTunnel', ...faults);
        const { body } = await h.gql(TUNNEL, { id: t0.id });
        expect(body).toEqual({ data: { tunnel: { id: t0.id } } });
        expect(h.sandbox.calls('getTunnel')).toBe(faults.length + 1);
        expect(h.of('retry').map((r) => r.attempt)).toEqual(faults.map((_, i) => i + 2));
      });
    }

    it('503 on every attempt: UPSTREAM_UNAVAILABLE after 1 + UPSTREAM_RETRIES (2) attempts', async () => {
      h.sandbox.inject('getTunnel', ...Array<Fault>(3).fill({ kind: 'status', status: 503 }));
      const { body } = await h.gql(TUNNEL, { id: t0.id });
      expect(body).toEqual(
        failedTunnel(MESSAGES.unavailable, {
          code: 'UPSTREAM_UNAVAILABLE',
          upstream: { status: 503, errorCode: null, operationId: OP_ID },
        }),
      );
      expect(h.sandbox.calls('getTunnel')).toBe(3);
      await stillServes(h);
    });

    it('dropped on every attempt: UPSTREAM_UNAVAILABLE without upstream details, 3 attempts', async () => {
      h.sandbox.inject('getTunnel', { kind: 'drop' }, { kind: 'drop' }, { kind: 'drop' });
      const { body } = await h.gql(TUNNEL, { id: t0.id });
      expect(body).toEqual(failedTunnel(MESSAGES.unavailable, { code: 'UPSTREAM_UNAVAILABLE' }));
      expect(h.sandbox.calls('getTunnel')).toBe(3);
      await stillServes(h);
    });

    it('429 on every attempt: RATE_LIMITED with retryAfter and the upstream code', async () => {
      h.sandbox.inject('getTunnel', ...Array<Fault>(3).fill({ kind: 'rateLimit', retryAfter: 0 }));
      const { body } = await h.gql(TUNNEL, { id: t0.id });
      expect(body).toEqual(
        failedTunnel(MESSAGES.rateLimited, {
          code: 'RATE_LIMITED',
          // Retry-After: 0 is read as 1 s: every retryAfter a client sees is 1..60.
          retryAfter: 1,
          upstream: { status: 429, errorCode: 'ERR_NGROK_226', operationId: OP_ID },
        }),
      );
      expect(h.sandbox.calls('getTunnel')).toBe(3);
      expect(h.of('rateLimited')).toEqual(
        Array(3).fill({ route: 'getTunnel', source: 'upstream', retryAfter: 1 }),
      );
    });

    it('500 and 4xx are answers, not outages: not retried', async () => {
      h.sandbox.inject('getTunnel', { kind: 'status', status: 500 });
      const { body } = await h.gql(TUNNEL, { id: t0.id });
      expect(body).toEqual(
        failedTunnel(MESSAGES.unavailable, {
          code: 'UPSTREAM_UNAVAILABLE',
          upstream: { status: 500, errorCode: null, operationId: OP_ID },
        }),
      );
      h.sandbox.inject('getTunnel', { kind: 'status', status: 400, errorCode: 'ERR_NGROK_215' });
      const second = await h.gql(TUNNEL, { id: t0.id });
      expect(second.body.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        upstream: { status: 400, errorCode: 'ERR_NGROK_215' },
      });
      expect(h.sandbox.calls('getTunnel')).toBe(2);
      expect(h.of('retry')).toEqual([]);
    });
  });

  describe('writes are never retried once sent', () => {
    const sentFaults: [string, Fault, Record<string, unknown>][] = [
      ['503', { kind: 'status', status: 503 }, { code: 'UPSTREAM_UNAVAILABLE', upstream: { status: 503 } }],
      ['a dropped connection', { kind: 'drop' }, { code: 'UPSTREAM_UNAVAILABLE' }],
      ['429', { kind: 'rateLimit', retryAfter: 0 }, { code: 'RATE_LIMITED', retryAfter: 1 }],
      ['an HTML 502 page', { kind: 'html' }, { code: 'UPSTREAM_UNAVAILABLE', upstream: { status: 502 } }],
    ];
    for (const [name, fault, extensions] of sentFaults) {
      it(`PUT answered with ${name}: one attempt, the error, the state untouched`, async () => {
        h.sandbox.inject('replaceBackend', fault);
        const { body } = await h.gql(REPLACE, {
          input: { edgeId: edge, routeId: route, backendId: backendB },
        });
        expect(body).toMatchObject({ data: null, errors: [{ extensions }] });
        expect(h.sandbox.calls('replaceBackend')).toBe(1);
        expect(h.of('retry')).toEqual([]);
        expect(backendOf(h)).toBe(backendA);
      });
    }

    it('DELETE answered with 504: one attempt', async () => {
      h.sandbox.inject('deleteBackend', { kind: 'status', status: 504 });
      const { body } = await h.gql(DELETE, { input: { edgeId: edge, routeId: route } });
      expect(body).toMatchObject({ data: null, errors: [{ extensions: { code: 'UPSTREAM_UNAVAILABLE' } }] });
      expect(h.sandbox.calls('deleteBackend')).toBe(1);
      expect(backendOf(h)).toBe(backendA);
    });

    it('a write whose answer was damaged after it ran: UPSTREAM_BAD_RESPONSE, outcome unknown, applied once', async () => {
      h.sandbox.inject('replaceBackend', { kind: 'truncatedJson' });
      const { body } = await h.gql(REPLACE, { input: { edgeId: edge, routeId: route, backendId: backendB } });
      expect(body).toMatchObject({
        data: null,
        errors: [
          {
            message: MESSAGES.outcomeUnknown,
            extensions: { code: 'UPSTREAM_BAD_RESPONSE', outcome: 'UNKNOWN' },
          },
        ],
      });
      expect(h.sandbox.calls('replaceBackend')).toBe(1);
      expect(backendOf(h)).toBe(backendB);
    });
  });
});
