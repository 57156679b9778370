import { describe, expect, it } from 'vitest';
import { newId, type UpstreamEndpoint } from '../../src/sandbox';
import { expectMsg, POLICY, suffix, WRITES, writableStandIn } from './endpoint-fixtures';
import { call, expectApiError, headersFor, raw, walkEndpoints } from './helpers';

// PATCH and DELETE /endpoints/{id} and the programmatic add / touch / remove: fields not sent
// unchanged, updated_at strictly later on every update, each refusal a 400 saying what is wrong.

const standIn = writableStandIn();
const { endpointsUrl, create, writeTunnels } = standIn;

describe('cloud endpoints: update and delete', () => {
  async function fresh(url: string): Promise<UpstreamEndpoint> {
    const answer = await create({
      type: 'cloud',
      url,
      traffic_policy: POLICY,
      description: 'before',
      metadata: 'm',
    });
    expect(answer.status).toBe(201);
    return answer.json as UpstreamEndpoint;
  }
  const patch = (id: string, body: unknown) =>
    call(endpointsUrl(`/${id}`), { key: WRITES, method: 'PATCH', body });

  it('changes only the fields sent, clears a string with "", and moves updated_at every time', async () => {
    const original = await fresh('https://patch-me.example.com');
    const described = await patch(original.id, { description: 'after' });
    expect(described.status).toBe(200);
    const afterDescription = described.json as UpstreamEndpoint;
    expect(afterDescription).toEqual({
      ...original,
      description: 'after',
      updated_at: afterDescription.updated_at,
    });
    expect(Date.parse(afterDescription.updated_at)).toBeGreaterThan(Date.parse(original.updated_at));

    const moved = (
      await patch(original.id, { url: 'https://Patched.internal', bindings: ['internal'], metadata: '' })
    ).json as UpstreamEndpoint;
    expect(moved).toMatchObject({
      url: 'https://patched.internal',
      host: 'patched.internal',
      bindings: ['internal'],
    });
    expect('metadata' in moved).toBe(false);
    expect(moved.description).toBe('after');
    expect(moved.created_at).toBe(original.created_at);
    expect((await call(endpointsUrl(`/${original.id}`), { key: WRITES })).json).toEqual(moved);

    // Back to back, within the same millisecond or not, each update is strictly later.
    let previous = Date.parse(moved.updated_at);
    for (let i = 0; i < 5; i += 1) {
      const next = (await patch(original.id, { pooling_enabled: i % 2 === 0 })).json as UpstreamEndpoint;
      expect(Date.parse(next.updated_at)).toBeGreaterThan(previous);
      previous = Date.parse(next.updated_at);
    }
  });

  it('refuses each bad update with a 400 whose msg says what is wrong, and changes nothing', async () => {
    const target = await fresh('https://refuse-me.example.com');
    const other = standIn.writesSeed[1];
    const cases: [unknown, string, string][] = [
      [
        {},
        'ERR_NGROK_18004',
        'The cloud endpoint update failed because no values were provided. Specify at least one value.',
      ],
      [
        { type: 'cloud' },
        'ERR_NGROK_214',
        'The request parameter type is unknown. Supported fields: url, traffic_policy, description, metadata, bindings, pooling_enabled.',
      ],
      [{ url: '' }, 'ERR_NGROK_249', 'The endpoint URL "" is not valid: a cloud endpoint needs a URL.'],
      [
        { url: other?.url },
        'ERR_NGROK_18009',
        `This account already has an endpoint on the URL ${other?.url}: ${other?.id}.`,
      ],
      [
        { url: 'https://refuse-me.internal' },
        'ERR_NGROK_249',
        'The endpoint URL https://refuse-me.internal is not valid: a URL ending in ".internal" takes the internal binding, not public.',
      ],
      [
        { traffic_policy: '' },
        'ERR_NGROK_18002',
        'The provided cloud endpoint traffic policy configuration is invalid: a cloud endpoint needs a Traffic Policy.',
      ],
      [
        { traffic_policy: 'on_http_request: [{actions: [{config: {}}]}]' },
        'ERR_NGROK_18002',
        'The provided cloud endpoint traffic policy configuration is invalid: on_http_request[0].actions[0].type must be a non-empty string.',
      ],
      [
        { bindings: ['kubernetes', 'public'] },
        'ERR_NGROK_215',
        'The value given for the request parameter bindings is invalid: an endpoint takes exactly one binding, got 2.',
      ],
      [
        { description: 7 },
        'ERR_NGROK_215',
        'The value given for the request parameter description is invalid: expected a string.',
      ],
    ];
    for (const [body, code, msg] of cases) {
      const answer = await patch(target.id, body);
      expectApiError(answer, 400, code);
      expectMsg(answer, msg);
    }
    expect((await call(endpointsUrl(`/${target.id}`), { key: WRITES })).json).toEqual(target);
    expectApiError(await patch(newId('ep'), { description: 'x' }), 404);
  });

  it('deletes with 204 and no body; the id is then unknown', async () => {
    const target = await fresh('https://delete-me.example.com');
    const answer = await raw(standIn.sandbox.url, `/endpoints/${target.id}`, {
      method: 'DELETE',
      headers: headersFor(WRITES),
    });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers['content-type']).toBeUndefined();
    expectApiError(await call(endpointsUrl(`/${target.id}`), { key: WRITES }), 404);
    expectApiError(await call(endpointsUrl(`/${target.id}`), { key: WRITES, method: 'DELETE' }), 404);
    expect(standIn.sandbox.listEndpoints(WRITES).some((endpoint) => endpoint.id === target.id)).toBe(false);
    // The URL is free again.
    expect((await create({ type: 'cloud', url: target.url, traffic_policy: POLICY })).status).toBe(201);
  });
});

describe('programmatic API', () => {
  it('adds (generated or given), touches, removes and lists cloud endpoints', async () => {
    const added = standIn.sandbox.addEndpoint(WRITES);
    expect(added.id).toMatch(/^ep_[0-9A-Za-z]{27}$/);
    expect(standIn.sandbox.listEndpoints(WRITES)[0]?.id).toBe(added.id);
    const given = standIn.sandbox.addEndpoint(WRITES, {
      url: 'https://given.example.com',
      description: 'given',
    });
    expect(given).toMatchObject({
      url: 'https://given.example.com',
      description: 'given',
      bindings: ['public'],
    });
    expect(() => standIn.sandbox.addEndpoint(WRITES, { url: 'https://given.example.com' })).toThrow(
      `This account already has an endpoint on the URL https://given.example.com: ${given.id}.`,
    );
    expect(() => standIn.sandbox.addEndpoint(WRITES, { traffic_policy: 'nope: []' })).toThrow(
      /unknown phase nope/,
    );

    const touched = standIn.sandbox.touchEndpoint(WRITES, given.id);
    expect(Date.parse(touched?.updated_at ?? '')).toBeGreaterThan(Date.parse(given.updated_at));
    expect({ ...touched, updated_at: given.updated_at }).toEqual(given);
    const served = (await call(endpointsUrl(`/${given.id}`), { key: WRITES })).json as UpstreamEndpoint;
    expect(served.updated_at).toBe(touched?.updated_at);
    expect(standIn.sandbox.touchEndpoint(WRITES, `ep_${suffix(writeTunnels[0]?.id ?? '')}`)).toBeUndefined();
    expect(standIn.sandbox.touchEndpoint(WRITES, newId('ep'))).toBeUndefined();

    expect(standIn.sandbox.removeEndpoint(WRITES, given.id)).toBe(true);
    expect(standIn.sandbox.removeEndpoint(WRITES, given.id)).toBe(false);
    expect(standIn.sandbox.removeEndpoint(WRITES, `ep_${suffix(writeTunnels[0]?.id ?? '')}`)).toBe(false);
    const pages = await walkEndpoints(endpointsUrl('?limit=3'), WRITES);
    expect(pages.flatMap((page) => page.endpoints)).toEqual(standIn.sandbox.listEndpoints(WRITES));
    expect(standIn.sandbox.account(WRITES).endpoints?.map((endpoint) => endpoint.id)).toEqual(
      standIn.sandbox
        .listEndpoints(WRITES)
        .filter((endpoint) => endpoint.type === 'cloud')
        .map((endpoint) => endpoint.id),
    );
  });
});
