// The lookups over an observation (lookups/observation-source.ts): the same pages, by-id reads and
// references as over the upstream client, answered from the items one poll saw, with no call, and a
// list's CEL filter with the upstream's meaning; what the observation does not hold is refused, never fetched.
import { describe, expect, it } from 'vitest';
import { lookupsOf, type Observation, ObservationSource } from '../../src/lookups';
import { ENDPOINT, type Resource, TUNNEL } from '../../src/resources';

const id = (prefix: string, n: number): string => `${prefix}_${String(n).padStart(27, '0')}`;
const ref = (prefix: string, n: number) => ({ id: id(prefix, n), uri: `https://api.ngrok.com/x/${n}` });

// Newest first: descending ids, as the upstream lists them.
const tunnels = [5, 4, 3, 2, 1].map((n) =>
  TUNNEL.parse({
    id: id('tn', n),
    public_url: `https://t${n}.ngrok.app`,
    started_at: '2026-01-01T00:00:00Z',
    region: 'eu',
    tunnel_session: ref('ts', n),
  }),
);
const endpoints = [3, 2, 1].map((n) =>
  ENDPOINT.parse({
    id: id('ep', n),
    url: `https://e${n}.example.com`,
    type: n === 2 ? 'agent' : 'cloud',
    created_at: `2026-01-0${n}T00:00:00Z`,
    bindings: ['public'],
    ...(n === 2 ? { tunnel_session: ref('ts', 7) } : {}),
  }),
);
const observation: Observation = new Map<Resource, readonly { id: string }[]>([
  [TUNNEL, tunnels],
  [ENDPOINT, endpoints],
]);

describe('lookups over an observation', () => {
  it('pages newest first as the upstream would: limit, before_id, hasNextPage', async () => {
    const lookups = lookupsOf(new ObservationSource(observation));
    const first = await lookups.of(TUNNEL).page(2, undefined);
    expect(first.items.map((t) => t.id)).toEqual([id('tn', 5), id('tn', 4)]);
    expect(await first.hasNextPage()).toBe(true);
    const last = await lookups.of(TUNNEL).page(2, id('tn', 2));
    expect(last.items.map((t) => t.id)).toEqual([id('tn', 1)]);
    expect(await last.hasNextPage()).toBe(false);
    // A before_id the observation does not hold is a position in the order, as upstream.
    const between = await lookups.of(ENDPOINT).page(5, `ep_${'0'.repeat(26)}25`);
    expect(between.items.map((e) => e.id)).toEqual([id('ep', 2), id('ep', 1)]);
  });

  it('answers by id and by reference, a GET kind and a listed kind alike, null for an id it lacks', async () => {
    const lookups = lookupsOf(new ObservationSource(observation));
    const [two, missing] = await lookups.of(TUNNEL).loadMany([id('tn', 2), id('tn', 9)]);
    expect(two).toMatchObject({ id: id('tn', 2), publicUrl: 'https://t2.ngrok.app' });
    expect(missing).toBeNull();
    const refs = await Promise.all(
      [id('tn', 3), id('tn', 1)].map((t) => lookups.of(TUNNEL).loadReference(t)),
    );
    expect(refs.map((t) => t?.id)).toEqual([id('tn', 3), id('tn', 1)]);
    expect((await lookups.ofKind('endpoint').load(id('ep', 1)))?.id).toBe(id('ep', 1));
    expect(await lookups.of(ENDPOINT).load(id('ep', 7))).toBeNull();
  });

  it("filters a list with the upstream's CEL, against the upstream's field names, before paging", async () => {
    const lookups = lookupsOf(new ObservationSource(observation));
    const cloud = await lookups.of(ENDPOINT).page(1, undefined, 'obj.type in ["cloud"]');
    expect(cloud.items.map((e) => e.id)).toEqual([id('ep', 3)]);
    expect(await cloud.hasNextPage()).toBe(true);
    const recent = await lookups
      .of(ENDPOINT)
      .page(5, undefined, 'obj.created_at >= timestamp("2026-01-02T00:00:00Z") && obj.type != "cloud"');
    expect(recent.items.map((e) => e.id)).toEqual([id('ep', 2)]);
    const bySession = await lookups
      .of(ENDPOINT)
      .page(5, undefined, `obj.tunnel_session.id == "${id('ts', 7)}"`);
    expect(bySession.items.map((e) => e.id)).toEqual([id('ep', 2)]);
    // A value is data: the injection the upstream contract names matches nothing.
    const injected = await lookups.of(ENDPOINT).page(5, undefined, 'obj.url in [" || true || "]');
    expect(injected.items).toEqual([]);
    // A list-valued field cannot be filtered, as upstream.
    await expect(lookups.of(ENDPOINT).page(5, undefined, 'obj.bindings == "public"')).rejects.toThrow();
  });

  it('refuses what it does not hold: a kind not observed, a backend module', async () => {
    const lookups = lookupsOf(new ObservationSource(new Map([[TUNNEL as Resource, tunnels]])));
    await expect(lookups.ofKind('tunnelSession').load(id('ts', 1))).rejects.toThrow(
      'The live observation does not hold tunnel sessions.',
    );
    await expect(
      lookups.backendModules.load({ edgeId: id('edghts', 1), routeId: id('edghtsrt', 1) }),
    ).rejects.toThrow('does not hold backend modules');
  });
});
