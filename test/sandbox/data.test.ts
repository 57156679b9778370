import { describe, expect, it } from 'vitest';
import { DEFAULT_START, demoData, idTime, makeTunnels, type UpstreamTunnel } from '../../src/sandbox';
import { nullPaths } from './helpers';

const suffix = (id: string) => id.slice(id.indexOf('_') + 1);

function checkTunnel(tunnel: UpstreamTunnel): void {
  expect(tunnel.id).toMatch(/^tn_[0-9A-Za-z]{27}$/);
  expect(tunnel.started_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(idTime(tunnel.id)?.toISOString()).toBe(new Date(tunnel.started_at).toISOString());
  expect(['us', 'eu', 'ap', 'au', 'sa', 'jp', 'in']).toContain(tunnel.region);
  expect(tunnel.tunnel_session.id).toMatch(/^ts_[0-9A-Za-z]{27}$/);
  expect(tunnel.tunnel_session.uri).toBe(`https://api.ngrok.com/tunnel_sessions/${tunnel.tunnel_session.id}`);
  expect(tunnel.forwards_to.length).toBeGreaterThan(0);
  if (tunnel.labels !== undefined) {
    expect(tunnel.proto).toBeUndefined();
    expect(tunnel.public_url).toBeUndefined();
    expect(tunnel.endpoint).toBeUndefined();
    expect(Array.isArray(tunnel.backends)).toBe(true);
    for (const backend of tunnel.backends ?? []) {
      expect(backend.id).toMatch(/^bkdtg_[0-9A-Za-z]{27}$/);
      expect(backend.uri).toBe(`https://api.ngrok.com/backends/tunnel_group/${backend.id}`);
    }
  } else {
    expect(tunnel.backends).toBeUndefined();
    expect(tunnel.proto).toMatch(/^(http|https|tcp|tls)$/);
    const scheme =
      tunnel.proto === 'tcp'
        ? /^tcp:\/\/\d\.tcp\.([a-z]+\.)?ngrok\.io:\d{5}$/
        : new RegExp(`^${tunnel.proto}://[0-9a-f]{12}\\.`);
    expect(tunnel.public_url).toMatch(scheme);
    expect(tunnel.endpoint?.id).toBe(`ep_${suffix(tunnel.id)}`);
    expect(tunnel.endpoint?.uri).toBe(`https://api.ngrok.com/endpoints/${tunnel.endpoint?.id}`);
  }
}

describe('makeTunnels', () => {
  it('gives distinct ids, newest first, consistent with started_at', () => {
    const tunnels = makeTunnels(1000);
    const ids = tunnels.map((tunnel) => tunnel.id);
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort().reverse()).toEqual(ids);
    for (const tunnel of tunnels) checkTunnel(tunnel);
    expect(tunnels.at(-1)?.started_at).toBe(DEFAULT_START.toISOString().replace('.000', ''));
  });

  it('is deterministic per seed', () => {
    expect(makeTunnels(50, { seed: 7 })).toEqual(makeTunnels(50, { seed: 7 }));
    expect(makeTunnels(50, { seed: 7 })).not.toEqual(makeTunnels(50, { seed: 8 }));
  });

  it('honours kind and start', () => {
    const start = new Date('2026-01-02T03:04:05Z');
    const agents = makeTunnels(20, { kind: 'agent', start });
    expect(agents.every((tunnel) => tunnel.proto !== undefined && tunnel.labels === undefined)).toBe(true);
    expect(agents.at(-1)?.started_at).toBe('2026-01-02T03:04:05Z');
    const labeled = makeTunnels(20, { kind: 'labeled' });
    expect(labeled.every((tunnel) => tunnel.labels !== undefined && tunnel.proto === undefined)).toBe(true);
    for (const tunnel of [...agents, ...labeled]) checkTunnel(tunnel);
    expect(makeTunnels(0)).toEqual([]);
  });
});

describe('demoData', () => {
  const data = demoData();
  const tunnels = data.tunnels ?? [];

  it('is the same for the same seed and differs across seeds', () => {
    expect(demoData()).toEqual(data);
    expect(demoData({ seed: 2 })).not.toEqual(data);
    expect(demoData({ tunnels: 5 }).tunnels).toHaveLength(5);
  });

  it('has agent tunnels of every protocol in several regions, some with metadata', () => {
    expect(tunnels).toHaveLength(30);
    for (const tunnel of tunnels) checkTunnel(tunnel);
    expect(new Set(tunnels.map((tunnel) => tunnel.proto).filter(Boolean))).toEqual(
      new Set(['http', 'https', 'tcp', 'tls']),
    );
    expect(new Set(tunnels.map((tunnel) => tunnel.region)).size).toBeGreaterThanOrEqual(3);
    expect(tunnels.some((tunnel) => tunnel.metadata !== undefined)).toBe(true);
    expect(tunnels.some((tunnel) => tunnel.metadata === undefined)).toBe(true);
  });

  it('has labeled tunnels whose array backends are backends of the account', () => {
    const labeled = tunnels.filter((tunnel) => tunnel.labels !== undefined);
    expect(labeled.length).toBeGreaterThan(0);
    for (const tunnel of labeled) {
      for (const backend of tunnel.backends ?? []) expect(data.backends).toContain(backend.id);
    }
  });

  it('has backends of every kind and edges with and without modules', () => {
    const kinds = new Set((data.backends ?? []).map((id) => id.slice(0, id.indexOf('_'))));
    expect(kinds).toEqual(new Set(['bkdtg', 'bkdfo', 'bkdwd', 'bkdhr', 'bkdsc']));
    const routes = (data.edges ?? []).flatMap((edge) => edge.routes);
    expect(data.edges?.every((edge) => /^edghts_[0-9A-Za-z]{27}$/.test(edge.id))).toBe(true);
    expect(routes.every((route) => /^edghtsrt_[0-9A-Za-z]{27}$/.test(route.id))).toBe(true);
    expect(routes.some((route) => route.backend === undefined)).toBe(true);
    expect(routes.some((route) => route.backend?.enabled === true)).toBe(true);
    expect(routes.some((route) => route.backend?.enabled === false)).toBe(true);
    for (const route of routes) if (route.backend) expect(data.backends).toContain(route.backend.backendId);
  });

  it('has no nulls', () => {
    expect(nullPaths(data)).toEqual([]);
  });
});

describe('the ids printed in the README', () => {
  it('stay what the default demo data produces', () => {
    const data = demoData();
    const [edge] = data.edges ?? [];
    expect(data.tunnels?.[1]?.id).toBe('tn_325dAasvHMRX8hiZZ0PrJyfE9m9');
    expect(edge?.id).toBe('edghts_31zxeuAX31drmHb2rnSFDvJ8qA6');
    expect(edge?.routes.map((route) => route.id)).toEqual([
      'edghtsrt_3204xH7QAuKXMwOmaRfcbO3TWQt',
      'edghtsrt_320CFkUFxBwCs68XNuTjmAhlqmq',
      'edghtsrt_320JY5IyLZUUvEm6P6OpYBmpsaB',
    ]);
    expect(edge?.routes[2]?.backend).toBeUndefined();
    expect(data.backends).toContain('bkdsc_325RUIGLGzuoLVySf64GV4q69zX');
  });
});
