// The Relay compiler (the binary shipped in the relay-compiler package) accepts the schema: a
// fragment paging `tunnels` with @connection and @refetchable compiles into forward pagination
// metadata, and a selection the schema lacks is refused. It runs on a copy of test/tooling/relay
// and schema/, and its output must equal the checked-in src/__generated__ (the cache recipe runs those).
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const compiler = join(root, 'node_modules/.bin/relay-compiler');
let copy = '';
let project = '';

function relay(): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(compiler, ['relay.config.json'], { cwd: project, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'relay-'));
  project = join(copy, 'test/tooling/relay');
  mkdirSync(join(copy, 'schema'), { recursive: true });
  cpSync(join(root, 'schema/schema.graphql'), join(copy, 'schema/schema.graphql'));
  cpSync(join(root, 'test/tooling/relay'), project, { recursive: true });
  rmSync(join(project, 'src/__generated__'), { recursive: true, force: true });
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('the Relay compiler', () => {
  it('compiles a @connection fragment on tunnels into forward pagination artifacts', async () => {
    const { code, output } = await relay();
    expect(output).toContain('Compilation completed.');
    expect(code).toBe(0);
    const generated = join(project, 'src/__generated__');
    for (const name of ['TunnelList_query', 'TunnelListQuery', 'TunnelListPaginationQuery']) {
      expect(existsSync(join(generated, `${name}.graphql.ts`)), name).toBe(true);
    }
    // The checked-in artifacts (client-caches.test.ts runs them) are what the compiler writes now.
    const checkedIn = join(root, 'test/tooling/relay/src/__generated__');
    expect(readdirSync(checkedIn).sort()).toEqual(readdirSync(generated).sort());
    for (const name of readdirSync(generated)) {
      expect(readFileSync(join(checkedIn, name), 'utf8'), `${name} is stale: run relay-compiler`).toBe(
        readFileSync(join(generated, name), 'utf8'),
      );
    }
    const fragment = readFileSync(join(generated, 'TunnelList_query.graphql.ts'), 'utf8');
    expect(fragment.replace(/\s+/g, ' ')).toContain(
      '"connection": [ { "count": "count", "cursor": "cursor", "direction": "forward", "path": (v0/*:: as any*/) } ]',
    );
    expect(fragment).toContain('readonly proto: TunnelProtocol | null | undefined;');
    const pagination = readFileSync(join(generated, 'TunnelListPaginationQuery.graphql.ts'), 'utf8');
    // Relay adds what paging needs: cursors, __typename, pageInfo.
    expect(pagination).toContain(
      String.raw`tunnels(first: $count, after: $cursor) {\n    edges {\n      node {\n        id\n        publicUrl\n        proto\n        region\n        startedAt\n        __typename\n      }\n      cursor\n    }\n    pageInfo {\n      endCursor\n      hasNextPage\n    }\n  }`,
    );
  });

  it('refuses a fragment that selects a field the schema does not have', async () => {
    writeFileSync(
      join(project, 'src/TunnelHost.ts'),
      'const graphql = (s: TemplateStringsArray) => s.join("");\n' +
        'export const f = graphql`fragment TunnelHost_tunnel on Tunnel { id hostname }`;\n',
    );
    const { code, output } = await relay();
    expect(code).not.toBe(0);
    expect(output).toMatch(/hostname/);
    rmSync(join(project, 'src/TunnelHost.ts'));
  });
});
