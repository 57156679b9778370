import { describe, expect, it } from 'vitest';
import { newId, type UpstreamEndpoint } from '../../src/sandbox';
import { expectMsg, POLICY, suffix, WRITES, writableStandIn, YAML_POLICY } from './endpoint-fixtures';
import { call, type EndpointListBody, expectApiError, expectRawError, headersFor, raw } from './helpers';

// POST and GET /endpoints/{id}: cloud endpoints only, each refusal a 400 whose msg says what is
// wrong, and nothing stored when refused.

const standIn = writableStandIn();
const { endpointsUrl, create, writeTunnels } = standIn;

describe('cloud endpoints: create and get', () => {
  it('creates with 201, lists first, and GET answers the same body', async () => {
    const answer = await create({
      type: 'cloud',
      url: 'https://Shop.Example.com:443',
      traffic_policy: YAML_POLICY,
      description: 'the shop',
      metadata: '{"env":"prod"}',
      pooling_enabled: true,
    });
    expect(answer.status).toBe(201);
    const body = answer.json as UpstreamEndpoint;
    expect(body.id).toMatch(/^ep_[0-9A-Za-z]{27}$/);
    expect(body.created_at).toBe(body.updated_at);
    expect(Date.parse(body.created_at)).not.toBeNaN();
    expect(body).toEqual({
      id: body.id,
      created_at: body.created_at,
      updated_at: body.updated_at,
      public_url: 'https://shop.example.com',
      proto: 'https',
      scheme: 'https',
      hostport: 'shop.example.com:443',
      host: 'shop.example.com',
      port: 443,
      type: 'cloud',
      metadata: '{"env":"prod"}',
      description: 'the shop',
      url: 'https://shop.example.com',
      traffic_policy: YAML_POLICY,
      bindings: ['public'],
      uri: endpointsUrl(`/${body.id}`),
      pooling_enabled: true,
    } satisfies UpstreamEndpoint);
    expect((await call(endpointsUrl(`/${body.id}`), { key: WRITES })).json).toEqual(body);
    const first = (await call(endpointsUrl('?limit=1'), { key: WRITES })).json as EndpointListBody;
    expect(first.endpoints).toEqual([body]);
    expect(standIn.sandbox.account(WRITES).endpoints?.[0]?.id).toBe(body.id);
  });

  it('defaults bindings by URL, omits what was not given, and takes tcp URLs with a port', async () => {
    const internal = (await create({ type: 'cloud', url: 'https://api.internal', traffic_policy: POLICY }))
      .json as Record<string, unknown>;
    expect(internal.bindings).toEqual(['internal']);
    expect(internal.pooling_enabled).toBe(false);
    expect('description' in internal || 'metadata' in internal || 'region' in internal).toBe(false);
    const tcp = (await create({ type: 'cloud', url: 'tcp://db.example.com:5432', traffic_policy: POLICY }))
      .json as UpstreamEndpoint;
    expect([tcp.url, tcp.port, tcp.hostport]).toEqual([
      'tcp://db.example.com:5432',
      5432,
      'db.example.com:5432',
    ]);
  });

  it.each([
    [
      { url: 'https://a.example.com', traffic_policy: POLICY },
      'ERR_NGROK_1405',
      'A required parameter is missing: type.',
    ],
    [{ type: 'cloud', traffic_policy: POLICY }, 'ERR_NGROK_1405', 'A required parameter is missing: url.'],
    [
      { type: 'cloud', url: 'https://a.example.com', traffic_policy: '' },
      'ERR_NGROK_1405',
      'A required parameter is missing: traffic_policy.',
    ],
    [
      { type: 'agent', url: 'https://a.example.com', traffic_policy: POLICY },
      'ERR_NGROK_248',
      'The endpoint create request passed an invalid type of "agent"; only cloud endpoints can be created through the API.',
    ],
    [
      { type: 'cloud', url: 'ftp://a.example.com', traffic_policy: POLICY },
      'ERR_NGROK_249',
      'The endpoint URL "ftp://a.example.com" is not valid: the scheme ftp is not one of http, https, tcp, tls.',
    ],
    [
      { type: 'cloud', url: 'https://a.example.com/path', traffic_policy: POLICY },
      'ERR_NGROK_249',
      'The endpoint URL "https://a.example.com/path" is not valid: it must not have a path, query or fragment.',
    ],
    [
      { type: 'cloud', url: 'tcp://a.example.com', traffic_policy: POLICY },
      'ERR_NGROK_249',
      'The endpoint URL "tcp://a.example.com" is not valid: a tcp URL needs a port.',
    ],
    [
      { type: 'cloud', url: 'a.example.com', traffic_policy: POLICY },
      'ERR_NGROK_249',
      'The endpoint URL "a.example.com" is not valid: it needs a scheme and a host, such as https://app.example.com.',
    ],
    [
      { type: 'cloud', url: 'https://a.example.com', traffic_policy: '{"on_http_request": [' },
      'ERR_NGROK_18002',
      'The provided cloud endpoint traffic policy configuration is invalid: it is neither JSON nor YAML (Flow sequence in block collection must be sufficiently indented and end with a ] at line 1, column 22).',
    ],
    [
      {
        type: 'cloud',
        url: 'https://a.example.com',
        traffic_policy: 'on_request:\n  - actions: [{type: deny}]',
      },
      'ERR_NGROK_18002',
      'The provided cloud endpoint traffic policy configuration is invalid: unknown phase on_request (known phases: on_http_request, on_http_response, on_tcp_connect).',
    ],
    [
      { type: 'cloud', url: 'https://a.example.com', traffic_policy: '{"on_http_request":[{"actions":[]}]}' },
      'ERR_NGROK_18002',
      'The provided cloud endpoint traffic policy configuration is invalid: on_http_request[0].actions must be a non-empty list.',
    ],
    [
      { type: 'cloud', url: 'https://a.example.com', traffic_policy: POLICY, bindings: ['private'] },
      'ERR_NGROK_215',
      'The value given for the request parameter bindings is invalid: "private" is not one of public, internal, kubernetes.',
    ],
    [
      {
        type: 'cloud',
        url: 'https://a.example.com',
        traffic_policy: POLICY,
        bindings: ['public', 'internal'],
      },
      'ERR_NGROK_215',
      'The value given for the request parameter bindings is invalid: an endpoint takes exactly one binding, got 2.',
    ],
    [
      { type: 'cloud', url: 'https://a.example.com', traffic_policy: POLICY, bindings: ['internal'] },
      'ERR_NGROK_9029',
      'The endpoint URL https://a.example.com cannot take the internal binding: internal endpoints need a URL ending in ".internal".',
    ],
    [
      { type: 'cloud', url: 'https://a.internal', traffic_policy: POLICY, bindings: ['public'] },
      'ERR_NGROK_249',
      'The endpoint URL https://a.internal is not valid: a URL ending in ".internal" takes the internal binding, not public.',
    ],
    [
      { type: 'cloud', url: 'https://a.example.com', traffic_policy: POLICY, name: 'x' },
      'ERR_NGROK_214',
      'The request parameter name is unknown. Supported fields: url, type, traffic_policy, description, metadata, bindings, pooling_enabled.',
    ],
    [
      { type: 'cloud', url: 'https://a.example.com', traffic_policy: POLICY, pooling_enabled: 'yes' },
      'ERR_NGROK_215',
      'The value given for the request parameter pooling_enabled is invalid: expected true or false.',
    ],
  ])('refuses %j with %s', async (body, code, msg) => {
    const before = standIn.sandbox.listEndpoints(WRITES).length;
    const answer = await create(body);
    expectApiError(answer, 400, code);
    expectMsg(answer, msg);
    expect(standIn.sandbox.listEndpoints(WRITES)).toHaveLength(before);
  });

  it('refuses a URL another endpoint of the account holds, cloud or agent, and not one of another account', async () => {
    const taken = standIn.writesSeed[1];
    if (taken === undefined) throw new Error('no seeded endpoint');
    const again = await create({ type: 'cloud', url: `${taken.url}:443`, traffic_policy: POLICY });
    expectApiError(again, 400, 'ERR_NGROK_18009');
    expectMsg(again, `This account already has an endpoint on the URL ${taken.url}: ${taken.id}.`);
    const agent = writeTunnels.find((tunnel) => tunnel.proto === 'https');
    if (agent === undefined) throw new Error('no https agent tunnel');
    const onAgent = await create({ type: 'cloud', url: agent.public_url, traffic_policy: POLICY });
    expectApiError(onAgent, 400, 'ERR_NGROK_18009');
    expectMsg(
      onAgent,
      `This account already has an endpoint on the URL ${agent.public_url}: ep_${suffix(agent.id)}.`,
    );
    const elsewhere = await create({ type: 'cloud', url: taken.url, traffic_policy: POLICY }, 'empty-key');
    expect(elsewhere.status).toBe(201);
  });

  it('refuses a body without JSON content type or that is not JSON', async () => {
    const noType = await raw(standIn.sandbox.url, '/endpoints', {
      method: 'POST',
      headers: headersFor(WRITES),
      body: '{}',
    });
    expectRawError(noType, 400, 'ERR_NGROK_216');
    const notJson = await raw(standIn.sandbox.url, '/endpoints', {
      method: 'POST',
      headers: { ...headersFor(WRITES), 'content-type': 'application/json' },
      body: '{"url":',
    });
    expectRawError(notJson, 400, 'ERR_NGROK_213');
  });

  it('answers an unknown or malformed id with the plain 404, and refuses query parameters', async () => {
    for (const id of [newId('ep'), 'nope', writeTunnels[0]?.id ?? '', 'ep_%2F..']) {
      expectApiError(await call(endpointsUrl(`/${id}`), { key: WRITES }), 404);
    }
    const id = standIn.writesSeed[0]?.id ?? '';
    expectApiError(await call(endpointsUrl(`/${id}?limit=1`), { key: WRITES }), 400, 'ERR_NGROK_231');
  });
});
