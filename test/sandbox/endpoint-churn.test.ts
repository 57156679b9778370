import { describe, expect, it } from 'vitest';
import { demoData, startSandbox } from '../../src/sandbox';
import { isAgent, suffix } from './endpoint-fixtures';
import { call, type EndpointListBody, nullPaths, waitUntil } from './helpers';

// The demo data's cloud endpoints, and churn changing cloud endpoints besides tunnels.

describe('demo data and churn', () => {
  it('has deterministic cloud endpoints, some internal, among the demo agent endpoints', () => {
    const data = demoData();
    expect(demoData().endpoints).toEqual(data.endpoints);
    const endpoints = data.endpoints ?? [];
    expect(endpoints.length).toBeGreaterThanOrEqual(4);
    expect(
      endpoints.some((endpoint) => endpoint.url.endsWith('.internal') && endpoint.bindings[0] === 'internal'),
    ).toBe(true);
    expect(endpoints.some((endpoint) => endpoint.bindings[0] === 'public')).toBe(true);
    expect(endpoints.map((endpoint) => endpoint.id)).toEqual(
      endpoints
        .map((endpoint) => endpoint.id)
        .sort()
        .reverse(),
    );
    expect(nullPaths(endpoints)).toEqual([]);
  });

  it('keeps the ids printed in src/sandbox/README.md', async () => {
    const demo = await startSandbox();
    try {
      const listed = demo.listEndpoints(demo.keys[0] ?? '');
      expect(listed).toHaveLength(25);
      expect(listed.find((endpoint) => endpoint.id === 'ep_325c0BFfnWPebYX01WauKGYkh94')?.url).toBe(
        'https://checkout.example.com',
      );
      expect(listed.find((endpoint) => endpoint.id === 'ep_325dAasvHMRX8hiZZ0PrJyfE9m9')?.type).toBe('agent');
    } finally {
      await demo.close();
    }
  });

  it('--churn creates, touches and deletes cloud endpoints; agent endpoints follow the tunnels', async () => {
    const churned = await startSandbox({
      accounts: { c: demoData({ seed: 4, tunnels: 12 }) },
      rateLimit: false,
    });
    try {
      const initial = new Map((churned.account('c').endpoints ?? []).map((e) => [e.id, e.updated_at]));
      const seen = { created: false, touched: false, deleted: false };
      const stop = churned.churn('c', { everyMs: 10, seed: 4 });
      await waitUntil(() => {
        const now = churned.account('c').endpoints ?? [];
        const ids = new Set(now.map((endpoint) => endpoint.id));
        seen.created ||= now.some((endpoint) => !initial.has(endpoint.id));
        seen.touched ||= now.some((e) => initial.has(e.id) && initial.get(e.id) !== e.updated_at);
        seen.deleted ||= [...initial.keys()].some((id) => !ids.has(id));
        return seen.created && seen.touched && seen.deleted;
      }, 'a created, a touched and a deleted cloud endpoint');
      stop();
      const agentIds = (churned.account('c').tunnels ?? []).filter(isAgent).map((t) => `ep_${suffix(t.id)}`);
      const listed = churned.listEndpoints('c');
      expect(
        listed
          .filter((endpoint) => endpoint.type === 'agent')
          .map((endpoint) => endpoint.id)
          .sort(),
      ).toEqual(agentIds.sort());
      const page = (await call(`${churned.url}/endpoints`, { key: 'c' })).json as EndpointListBody;
      expect(page.endpoints).toEqual(listed.slice(0, 100));
    } finally {
      await churned.close();
    }
  });
});
