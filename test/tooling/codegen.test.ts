// GraphQL Code Generator against the schema and the example operations: the checked-in output is
// what the generator produces now, the generated types type-check (and catch mistakes) with tsc,
// and the typed client example runs against a gateway, with full documents and as persisted ids.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '@graphql-codegen/cli';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData, newId } from '../../src/sandbox';
import { KEY, type Stack, startStack } from '../support/stack';
import { allTunnelUrls, detachBackend, gatewayClient, switchBackend, tunnelRegion } from './client-example';
import config from './codegen';

const root = fileURLToPath(new URL('../../', import.meta.url));
const generatedDir = join(root, 'test/tooling/__generated__');
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** Type-checks files with the repository's compiler options; diagnostics per file name. */
function typeCheck(files: string[]): Map<string, string[]> {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  const program = ts.createProgram(files, { ...parsed?.options, noEmit: true });
  const found = new Map<string, string[]>();
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file ? (d.file.fileName.split('/').pop() ?? '') : '(global)';
    found.set(name, [...(found.get(name) ?? []), ts.flattenDiagnosticMessageText(d.messageText, '\n')]);
  }
  return found;
}

describe('GraphQL Code Generator', () => {
  let outputs: { filename: string; content: string }[];
  beforeAll(async () => {
    outputs = await generate({ ...config, cwd: root }, false);
  });

  it('generates typed documents for the example operations, identical to the checked-in ones', () => {
    const names = outputs.map((o) => o.filename.replace(/^.*__generated__\//, '')).sort();
    expect(names).toEqual(['gql.ts', 'graphql.ts', 'index.ts', 'persisted-documents.json']);
    for (const output of outputs) {
      const checkedIn = readFileSync(join(root, output.filename), 'utf8');
      expect(checkedIn, `${output.filename} is stale: run npm run codegen`).toBe(output.content);
    }
    const graphql = outputs.find((o) => o.filename.endsWith('graphql.ts'))?.content ?? '';
    for (const name of ['TunnelsPage', 'OneTunnel', 'BackendModule']) {
      expect(graphql).toContain(`export type ${name}Query = `);
      expect(graphql).toContain(`export const ${name}Document = `);
    }
    for (const name of ['ReplaceBackend', 'DeleteBackend']) {
      expect(graphql).toContain(`export type ${name}Mutation = `);
    }
  });

  it('the fresh output type-checks with the client example, and the types reject misuse', () => {
    const cache = join(root, 'node_modules/.cache');
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'codegen-'));
    scratch.push(dir);
    for (const output of outputs) {
      const path = join(dir, output.filename.replace(/^.*__generated__\//, '__generated__/'));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, output.content);
    }
    writeFileSync(join(dir, 'client-example.ts'), readFileSync(join(root, 'test/tooling/client-example.ts')));
    writeFileSync(
      join(dir, 'misuse.ts'),
      `import { gatewayClient } from './client-example';
import { OneTunnelDocument, TunnelsPageDocument } from './__generated__/graphql';
const client = gatewayClient('http://127.0.0.1:4000/graphql', 'token');
export async function misuse() {
  await client(OneTunnelDocument, {});
  await client(TunnelsPageDocument, { first: 'ten' });
  const { tunnel } = await client(OneTunnelDocument, { id: 'tn_1' });
  return tunnel?.hostname;
}
`,
    );
    const diagnostics = typeCheck([join(dir, 'client-example.ts'), join(dir, 'misuse.ts')]);
    expect(diagnostics.get('client-example.ts')).toBeUndefined();
    expect(diagnostics.get('graphql.ts')).toBeUndefined();
    const misuse = diagnostics.get('misuse.ts') ?? [];
    expect(misuse).toHaveLength(3);
    expect(misuse.join('\n')).toMatch(/Property 'id' is missing/);
    expect(misuse.join('\n')).toMatch(/Type 'string' is not assignable to type 'number'/);
    expect(misuse.join('\n')).toMatch(/Property 'hostname' does not exist/);
  });
});

describe('the typed client example', () => {
  const seed = demoData({ tunnels: 7 });
  const edge = seed.edges?.[0];
  const route = { edgeId: edge?.id ?? '', routeId: edge?.routes[0]?.id ?? '' };
  const otherBackend = seed.backends?.[1] ?? '';
  let stack: Stack;
  let persistedOnly: Stack;
  beforeAll(async () => {
    stack = await startStack({ sandbox: { edgesWritable: true }, accounts: { [KEY]: seed } });
    persistedOnly = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed },
      env: {
        PERSISTED_OPERATIONS_FILE: join(generatedDir, 'persisted-documents.json'),
        PERSISTED_OPERATIONS_ONLY: 'true',
      },
    });
  });
  afterAll(async () => {
    await stack.close();
    await persistedOnly.close();
  });

  it('pages through every tunnel, reads one, switches and detaches a backend', async () => {
    const client = gatewayClient(stack.url, KEY);
    const tunnels = seed.tunnels ?? [];
    expect(await allTunnelUrls(client, 3)).toEqual(tunnels.map((t) => t.public_url ?? t.forwards_to));
    expect(stack.sandbox.calls('listTunnels')).toBe(3);
    expect(await tunnelRegion(client, tunnels[2]?.id ?? '')).toBe(tunnels[2]?.region);
    expect(await tunnelRegion(client, newId('tn'))).toBeNull();
    expect(await switchBackend(client, route, otherBackend)).toBe(`now ${otherBackend}`);
    expect(await switchBackend(client, route, newId('bkdtg'))).toBe(
      'invalid backendId: The ngrok API refused backendId.',
    );
    const missingRoute = newId('edghtsrt');
    expect(await switchBackend(client, { ...route, routeId: missingRoute }, otherBackend)).toBe(
      `not found: ${missingRoute}`,
    );
    expect(await detachBackend(client, route)).toBe('detached');
    await expect(
      tunnelRegion(gatewayClient(stack.url, 'wrong-key-0123456789'), tunnels[0]?.id ?? ''),
    ).rejects.toThrow(/^UNAUTHENTICATED: /);
  });

  it('sends only hashes to a gateway that loaded the generated persisted-documents.json', async () => {
    const tunnels = seed.tunnels ?? [];
    const persisted = gatewayClient(persistedOnly.url, KEY, { persisted: true });
    expect(await tunnelRegion(persisted, tunnels[0]?.id ?? '')).toBe(tunnels[0]?.region);
    expect(await allTunnelUrls(persisted, 5)).toHaveLength(tunnels.length);
    await expect(tunnelRegion(gatewayClient(persistedOnly.url, KEY), tunnels[0]?.id ?? '')).rejects.toThrow(
      'PERSISTED_QUERY_ONLY: Only persisted operations are accepted: send their id, not a query.',
    );
  });
});
