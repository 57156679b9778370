// Small documents that expand through the Node interface, sent to the gateway as `npm start` runs
// it (its own process, 128 MB heap), in pass-through mode with any bearer string: each is refused by
// the expanded-size bound before validation, planning or compilation, or served. Before, a 1.5 KB
// document four hops deep took graphql-jit's compiler past the heap and the process died.
import { createHash } from 'node:crypto';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fanOutDocuments } from '../../src/bench/scenarios/fan-out-documents';
import { expandedSize } from '../../src/gateway/limits/expanded-size';
import { demoData, type Sandbox, startSandbox } from '../../src/sandbox';
import { schema } from '../../src/schema';
import { bundleMain, type GatewayProcess, startProcess } from '../operability/process';
import { run, wsClient } from '../support/websocket';
import { seededRandom } from './operation-generator';

const KEY = 'fan-out-key';
const LIMIT = 1_000;

/** The document: fragments L1..L4 on Node, each reference joining the next, under one page. */
function fourHops(skipped: boolean): string {
  const level = (i: number) => {
    const next = (f: string) => (i < 4 ? `${f} { node { ...L${i + 1} } }` : `${f} { id }`);
    return `fragment L${i} on Node { ... on Endpoint { ${next('domain')} ${next('tcpAddr')} ${next('tunnel')} ${next('tunnelSession')} ${next('principal')} } ... on Tunnel { ${next('endpoint')} ${next('backends')} } ... on TunnelSession { ${next('credential')} } ... on ReservedDomain { ${next('certificate')} } }`;
  };
  const fragments = [1, 2, 3, 4].map(level).join('\n');
  return skipped
    ? `query($s: Boolean!) { endpoints(first: 1) { nodes @skip(if: $s) { ...L1 } } }\n${fragments}`
    : `{ endpoints(first: 1) { nodes { principal { node { ...L1 } } } } }\n${fragments}`;
}

interface Answer {
  readonly status: number;
  readonly body: {
    data?: unknown;
    errors?: { message: string; extensions: { code: string } }[];
    extensions?: { upstreamCalls?: { predicted: number; made: number } };
  };
}

describe('fan-out documents, against the gateway as npm start runs it', () => {
  let sandbox: Sandbox;
  let gateway: GatewayProcess;
  let remove = () => {};
  const account = demoData({ tunnels: 20 });

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: false, accounts: { [KEY]: account } });
    const bundle = await bundleMain();
    remove = bundle.remove;
    gateway = await startProcess(bundle.main, {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      NGROK_API_URL: sandbox.url,
      UPSTREAM_RATE_LIMIT_PER_MIN: '0',
      // Only the size bound in the way: the other limits would refuse some of the documents first.
      MAX_ALIASES: '10000',
      MAX_DIRECTIVES: '10000',
      MAX_DEPTH: '100',
      MAX_UPSTREAM_CALLS_PER_OPERATION: '10000',
      MAX_RESPONSE_OBJECTS: '1000000',
    });
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
    await sandbox?.close();
    remove();
  });

  const url = () => `${gateway.base}/graphql`;
  const headers = (bearer: string) => ({
    'content-type': 'application/json',
    accept: 'application/graphql-response+json',
    authorization: `Bearer ${bearer}`,
  });
  const post = async (body: unknown, bearer = KEY): Promise<Answer> => {
    const response = await fetch(url(), {
      method: 'POST',
      headers: headers(bearer),
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };
  const get = async (query: string, variables: unknown, bearer: string): Promise<Answer> => {
    const params = new URLSearchParams({ query, variables: JSON.stringify(variables) });
    const response = await fetch(`${url()}?${params}`, { headers: headers(bearer) });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };
  const heapUsed = async (): Promise<number> => {
    const text = await (await fetch(`${gateway.base}/metrics`)).text();
    return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1]);
  };
  const refusedForSize = (answer: Answer) => {
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors?.map((e) => e.extensions.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(answer.body.errors?.[0]?.message).toMatch(
      /expands to \d+ fields .* at most 1000 .*MAX_EXPANDED_FIELDS/,
    );
  };

  it('the four-hop document and its @skip form: refused over POST, GET, APQ and graphql-ws, no call', async () => {
    sandbox.resetCalls();
    for (const skipped of [false, true]) {
      const query = fourHops(skipped);
      const variables = skipped ? { s: true } : {};
      expect(expandedSize(schema, parse(query))).toBeGreaterThan(5 * LIMIT);
      // Any bearer string: nothing about the key is looked at before the document is measured.
      refusedForSize(await post({ query, variables }, 'not-a-key'));
      refusedForSize(await get(query, variables, 'not-a-key'));
      const sha256Hash = createHash('sha256').update(query).digest('hex');
      refusedForSize(
        await post({ query, variables, extensions: { persistedQuery: { version: 1, sha256Hash } } }),
      );
      const ws = wsClient(`${url().replace(/^http/, 'ws')}`, { key: KEY });
      try {
        const outcome = await run(ws, query, variables);
        expect(outcome.results).toEqual([]);
        const errors = outcome.error as { message: string; extensions?: { code?: string } }[];
        expect(errors.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
        expect(errors[0]?.message).toMatch(/MAX_EXPANDED_FIELDS/);
      } finally {
        await ws.dispose();
      }
    }
    expect(sandbox.calls()).toBe(0);
    expect(gateway.exitCode(), gateway.output()).toBeUndefined();
    expect(await heapUsed()).toBeLessThan(128 * 1024 * 1024);
    const answer = await post({ query: '{ tunnels(first: 1) { nodes { id } } }' });
    expect(answer.status).toBe(200);
    expect(answer.body.extensions?.upstreamCalls).toEqual({ predicted: 1, made: 1 });
  }, 60_000);

  it('80 generated documents, 2 to 8 hops: each refused by the size bound or served, the heap bounded after each', async ({
    annotate,
  }) => {
    const tunnelIds = (account.tunnels ?? []).slice(0, 2).map((t) => t.id);
    const ids = { nodeIds: tunnelIds, missingEndpointId: 'ep_2zzzzzzzzzzzzzzzzzzzzzzzzzz' };
    const documents = fanOutDocuments(seededRandom(3601), ids, 80);
    const outcomes = { refused: 0, served: 0 };
    let highest = 0;
    for (const [i, { query, variables }] of documents.entries()) {
      const where = `document ${i}: ${query}`;
      const answer = await post({ query, variables });
      if (expandedSize(schema, parse(query)) > LIMIT) {
        refusedForSize(answer);
        outcomes.refused += 1;
      } else {
        expect(answer.status, `${where} ${JSON.stringify(answer.body.errors)}`).toBe(200);
        expect(answer.body.data, where).toBeDefined();
        const calls = answer.body.extensions?.upstreamCalls;
        expect(calls && calls.made <= calls.predicted, where).toBe(true);
        outcomes.served += 1;
      }
      expect(gateway.exitCode(), gateway.output()).toBeUndefined();
      highest = Math.max(highest, await heapUsed());
      expect(highest, where).toBeLessThan(110 * 1024 * 1024);
    }
    // The generator makes both kinds: the bound is what refuses, and the rest runs.
    expect(outcomes.refused).toBeGreaterThan(10);
    expect(outcomes.served).toBeGreaterThan(10);
    await annotate(
      `fan-out documents: ${outcomes.refused} refused by the size bound, ${outcomes.served} served; highest heap ${(highest / 2 ** 20).toFixed(1)} MB`,
    );
  }, 120_000);
});
