// The README stays true: its first screen says what the provider retired, its example table names
// GraphiQL's tabs with their variables (each run against the demo data), its configuration table is
// the one generated from src/config (its config-file example read as it says), its logging table
// names every field of a request line, and the live-events cadence it states is the configured one. Its curls: readme-curls.test.ts.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, OPTIONS } from '../../src/config';
import { EXAMPLE_OPERATIONS, exampleIdsFrom } from '../../src/gateway/graphiql';
import { demoData } from '../../src/sandbox';
import { updateConfigTable, withConfigTable } from '../../src/tools/config-table';
import { sse } from '../live/support';
import { KEY, type Stack, startStack } from '../support/stack';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const ids = exampleIdsFrom(demoData());

/** The text of one `## ` section (or `### ` subsection), heading included. */
function section(heading: string): string {
  const at = readme.indexOf(`\n${heading}\n`);
  if (at === -1) throw new Error(`README has no "${heading}"`);
  const level = heading.split(' ')[0] ?? '##';
  const next = readme.slice(at + heading.length + 2).search(new RegExp(`^#{2,${level.length}} `, 'm'));
  return readme.slice(at + 1, next === -1 ? undefined : at + heading.length + 2 + next);
}

/** The example table: | `Name` | what it does | `{variables}` |. */
const exampleRows = [
  ...section('## Example operations').matchAll(/^\| `(\w+)` \| (.+?) \| `(\{.*\})` \|$/gm),
].map((m) => ({
  name: m[1] ?? '',
  description: m[2] ?? '',
  variables: JSON.parse(m[3] ?? 'null') as unknown,
}));

/** The fields of a log line, nested ones by path (`upstream.calls`); `upstream.budget` is one field. */
const fieldsOf = (value: Record<string, unknown>, prefix = ''): string[] =>
  Object.entries(value).flatMap(([key, inner]) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner) && prefix === ''
      ? fieldsOf(inner as Record<string, unknown>, `${key}.`)
      : [`${prefix}${key}`],
  );

describe('README', () => {
  let stack: Stack;
  beforeAll(async () => {
    // The example table's edge mutations run on a stand-in whose edges are writable (EDGES_WRITABLE).
    stack = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: demoData() },
      env: { UPSTREAM_RATE_LIMIT_PER_MIN: '120' },
    });
  });
  afterAll(() => stack.close());

  it('says on its first screen what it is, its two commands, and what the provider retired', () => {
    const firstScreen = readme.split('\n').slice(0, 25).join('\n');
    expect(firstScreen).toMatch(/GraphQL gateway in front of \[ngrok's management API\]/);
    expect(firstScreen).toMatch(/Edges down on 2025-12-31: since then they are read-only/);
    expect(firstScreen).toMatch(/`GET \/tunnels`, behind `tunnels`, is deprecated: use endpoints/);
    const commands = /After `npm ci`:\n\n```sh\n([\s\S]*?)```/.exec(firstScreen)?.[1] ?? '';
    expect(
      commands
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.split('#')[0]?.trim()),
    ).toEqual(['npm start', 'npm test']);
  });

  it('runs one folder of tests as npm test runs them all', () => {
    const script: string = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).scripts.test;
    const [, command, folder] =
      /`npx (vitest run --config \S+) (test\/\S+)`/.exec(section('## Development')) ?? [];
    expect(script).toContain(`${command}`);
    // Piped (not a terminal), without colour codes.
    expect(script.startsWith('[ -t 1 ] || export NO_COLOR=1; ')).toBe(true);
    expect(existsSync(new URL(folder ?? 'none', root)), folder).toBe(true);
  });

  it('has a table of contents linking every section', () => {
    const contents = section('## Contents');
    for (const [, heading] of readme.matchAll(/^##+ (.+)$/gm)) {
      if (heading === 'Contents') continue;
      const anchor = (heading ?? '')
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, '')
        .replaceAll(' ', '-');
      expect(contents, heading).toContain(`](#${anchor})`);
    }
  });

  it('names every GraphiQL tab in its example table, in order, with its description and variables', () => {
    expect(exampleRows.map((r) => r.name)).toEqual(EXAMPLE_OPERATIONS.map((o) => o.name));
    if (!ids) throw new Error('no example ids in the demo data');
    for (const [i, operation] of EXAMPLE_OPERATIONS.entries()) {
      expect(exampleRows[i]?.description).toBe(/^# (.*)$/m.exec(operation.document)?.[1]);
      expect(exampleRows[i]?.variables).toEqual(operation.variables(ids));
    }
  });

  /** A query's or mutation's body; a subscription's first event (over SSE). */
  async function answerOf(document: string, variables: Record<string, unknown>) {
    if (!/^subscription\s/m.test(document)) return (await stack.gql(document, variables)).body;
    const subscriber = await sse(stack.url, KEY, variables, document);
    try {
      const [first] = await subscriber.received(1);
      return (first ?? {}) as { data?: Record<string, unknown>; errors?: unknown[] };
    } finally {
      subscriber.close();
    }
  }

  for (const operation of EXAMPLE_OPERATIONS) {
    it(`example ${operation.name} runs with the README's variables: no error and real data`, async () => {
      const variables = exampleRows.find((r) => r.name === operation.name)?.variables;
      const body = await answerOf(operation.document, variables as Record<string, unknown>);
      expect(body.errors).toBeUndefined();
      const values = Object.values(body.data ?? {});
      expect(values.length).toBeGreaterThan(0);
      for (const value of values) expect(value).not.toBeNull();
      const typenames = JSON.stringify(body.data).match(/"__typename":"(\w+)"/g) ?? [];
      for (const t of typenames) expect(t).not.toMatch(/Error"/);
    });
  }

  it('the configuration table lists every option (regenerate with npm run docs:config)', () => {
    expect(withConfigTable(readme)).toBe(readme);
  });

  it('its config file example is read as it says, each value under its section and key', () => {
    const example = /\*\*Config file\.\*\*[\s\S]*?```yaml\n([\s\S]*?)```/.exec(
      section('## Configuration'),
    )?.[1];
    const dir = mkdtempSync(join(tmpdir(), 'readme-config-file-'));
    try {
      const path = join(dir, 'gateway.config.yaml');
      writeFileSync(path, example ?? '');
      const config = loadConfig({}, ['--config', path]);
      expect(config.server.port).toBe(5000);
      expect(config.upstream).toMatchObject({ timeoutMs: 5000, retries: 1 });
      expect(config.access.corsOrigins).toEqual(['https://app.example.com']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('npm run docs:config rewrites only a stale table, and says which it did', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'readme-config-'));
    const copy = join(dir, 'README.md');
    try {
      copyFileSync(new URL('README.md', root), copy);
      const { stdout } = await promisify(execFile)(
        join(root.pathname, 'node_modules/.bin/tsx'),
        [join(root.pathname, 'src/tools/config-table.ts'), copy],
        { cwd: root.pathname },
      );
      expect(stdout).toBe('README.md configuration table unchanged\n');
      expect(readFileSync(copy, 'utf8')).toBe(readme);
      writeFileSync(copy, readme.replace(/^\| `PORT` .*$/m, '| `PORT` | stale |'));
      expect(updateConfigTable(copy)).toBe('updated');
      expect(readFileSync(copy, 'utf8')).toBe(readme);
      expect(updateConfigTable(copy)).toBe('unchanged');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('its logging table names every field of a request line', async () => {
    await stack.post({ query: '{ tunnels(first: 1) { nodes { id } } }' }, { 'x-request-id': 'readme-ok' });
    await stack.post({ query: '{ tunnels { nope } }' }, { 'x-request-id': 'readme-error' });
    const lines = stack.lines().filter((l) => l.msg === 'request' && String(l.reqId).startsWith('readme-'));
    expect(lines).toHaveLength(2);
    const fields = new Set(lines.flatMap((l) => fieldsOf(l)));
    expect(fields).toContain('upstream.budget');
    const table = section('### Logging');
    // pino's own fields (level, time, service, msg) are not the request's.
    for (const field of [...fields].filter((f) => !['level', 'time', 'service', 'msg'].includes(f))) {
      const leaf = field.slice(field.lastIndexOf('.'));
      expect(table.includes(`\`${field}\``) || (leaf !== field && table.includes(`\`${leaf}\``)), field).toBe(
        true,
      );
    }
  });

  it('states the live-events cadence the configuration has', () => {
    const interval = OPTIONS.find((o) => o.env === 'LIVE_POLL_INTERVAL_MS')?.default;
    const live = section('## Live events');
    expect(live).toContain(`Every \`LIVE_POLL_INTERVAL_MS\` (${Number(interval) / 1000} s)`);
    // The embedded stand-in's churn is one change per poll, so one event per poll interval.
    expect(OPTIONS.find((o) => o.env === 'STANDIN_CHURN')?.help).toContain('once per LIVE_POLL_INTERVAL_MS');
    expect(live).toContain(`once per poll interval, so one event arrives every ${Number(interval) / 1000} s`);
  });
});
