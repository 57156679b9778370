// The README's /metrics table against a real scrape: every gateway_* metric it names is in the
// gateway's /metrics with the type it says, carries exactly the labels it says, and every gateway_*
// metric of the scrape is in the table (gateway_redis_up only with REDIS_URL).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/stack';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

interface Row {
  readonly names: string[];
  readonly type: string;
  readonly labels: string[];
}

/** The table's rows; `_coalesced_total` after `gateway_upstream_retries_total` is `gateway_upstream_coalesced_total`. */
function rows(): Row[] {
  const table = readme.slice(
    readme.indexOf('\n### Metrics\n'),
    readme.indexOf('\n## ', readme.indexOf('\n### Metrics\n')),
  );
  return [...table.matchAll(/^\| (`gateway_[^|]+) \| (\w+) \|([^|]*)\|/gm)].map(
    ([, names = '', type = '', labels = '']) => {
      const listed = [...names.matchAll(/`(\w+)`/g)].map((m) => m[1] ?? '');
      const first = listed[0] ?? '';
      const prefix = first.split('_').slice(0, -2).join('_');
      return {
        names: listed.map((n) => (n.startsWith('_') ? `${prefix}${n}` : n)),
        type,
        labels: [...labels.matchAll(/`(\w+)`/g)].map((m) => m[1] ?? '').sort(),
      };
    },
  );
}

describe("the README's metrics table", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({});
  });
  afterAll(() => stack.close());

  it('names every gateway_* metric of a real /metrics, with its type and labels', async () => {
    const scraped = await (await fetch(`${stack.base}/metrics`)).text();
    const types = new Map(
      [...scraped.matchAll(/^# TYPE (gateway_\w+) (\w+)$/gm)].map(([, name = '', type = '']) => [name, type]),
    );
    const table = rows();
    expect(table.length).toBeGreaterThan(10);
    const documented = new Set<string>();
    for (const row of table) {
      for (const name of row.names) {
        documented.add(name);
        if (name === 'gateway_redis_up') continue;
        expect(types.get(name), name).toBe(row.type);
        const metric = stack.gateway.metrics.getSingleMetric(name) as unknown as { labelNames?: string[] };
        expect([...(metric?.labelNames ?? [])].sort(), name).toEqual(row.labels);
      }
    }
    expect([...types.keys()].filter((name) => !documented.has(name))).toEqual([]);
  });
});
