// Edges were shut down on 2025-12-31: writes may be refused with ERR_NGROK_7196. The gateway says so
// plainly (FORBIDDEN, why, what to use instead) and never retries it; reads still work.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/sandbox';
import { DELETE, oneRouteAccount, REPLACE } from '../support/fixtures';
import { KEY, type Stack, startStack } from '../support/stack';

const { edge, route, backend, seed } = oneRouteAccount([]);
const READ_ONLY =
  'This HTTPS edge is read-only: the ngrok API shut Edges down on 2025-12-31 and refuses changes to them. Use Cloud Endpoints and Traffic Policy instead.';
const READ = `{ httpsEdgeRouteBackend(edgeId: "${edge}", routeId: "${route}") { backend { id } } }`;

describe('the stand-in refuses edge writes by default, as the real API', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({ accounts: { [KEY]: seed } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.resetCalls());

  it('a replace is FORBIDDEN with the reason, sent once, the module untouched', async () => {
    const { body } = await h.gql(REPLACE, {
      input: { edgeId: edge, routeId: route, backendId: newId('bkdtg') },
    });
    expect(body).toMatchObject({
      data: null,
      errors: [
        {
          message: READ_ONLY,
          extensions: { code: 'FORBIDDEN', upstream: { status: 400, errorCode: 'ERR_NGROK_7196' } },
        },
      ],
    });
    expect(h.sandbox.calls('replaceBackend')).toBe(1);
    expect(h.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend?.backendId).toBe(backend);
  });

  it('a delete is FORBIDDEN with the reason, sent once', async () => {
    const { body } = await h.gql(DELETE, { input: { edgeId: edge, routeId: route } });
    expect(body.errors?.[0]?.message).toBe(READ_ONLY);
    expect(body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(h.sandbox.calls('deleteBackend')).toBe(1);
  });

  it('reads still answer', async () => {
    const { body } = await h.gql(READ);
    expect(body).toEqual({ data: { httpsEdgeRouteBackend: { backend: { id: backend } } } });
  });
});

describe('ERR_NGROK_7196 as an injected fault', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({ accounts: { [KEY]: seed } });
  });
  afterAll(() => h.close());

  it('is FORBIDDEN and not retried, whatever status it comes with', async () => {
    h.sandbox.inject('replaceBackend', { kind: 'status', status: 503, errorCode: 'ERR_NGROK_7196' });
    const { body } = await h.gql(REPLACE, {
      input: { edgeId: edge, routeId: route, backendId: backend },
    });
    expect(body.errors?.[0]?.message).toBe(READ_ONLY);
    expect(body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(body.errors?.[0]?.extensions?.outcome).toBeUndefined();
    expect(h.sandbox.calls('replaceBackend')).toBe(1);
  });
});
