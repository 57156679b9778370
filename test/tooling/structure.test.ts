// The shape of the code, checked on every run: no import circles in src/ (type-only imports
// included), no import running up the layers below, no file over 280 lines in src/ (300 in test/), no
// crowded room. Each failure lists the files (file:line -> file for imports). The detectors are proven
// on small trees.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RouteName as StandInRoute } from '../../src/sandbox';
import type { RouteName as GatewayRoute } from '../../src/upstream';
import {
  crowdedFolders,
  diskTree,
  importCircles,
  importEdges,
  type Layer,
  layerBreaches,
  longFiles,
  memoryTree,
} from './structure-checks';

/** The rooms of src/ in the order a request meets them; a file imports its own layer or later ones. */
const LAYERS: readonly Layer[] = [
  {
    name: 'entry points',
    why: 'programs a person starts; nothing but another entry point imports them',
    holds: ['src/main.ts', 'src/command-line.ts', 'src/tools/', 'src/bench/', 'src/sandbox/cli.ts'],
  },
  {
    name: 'server',
    why: 'the listening server and the yoga instance put together from the plugins',
    holds: ['src/http-server.ts', 'src/app.ts'],
  },
  {
    name: 'gateway',
    why: 'the yoga plugins around every operation; app.ts assembles them, they never reach back for it',
    holds: ['src/gateway/'],
  },
  {
    name: 'schema',
    why: "the Pothos types and resolvers; the builder is typed with context.ts's Context, which resolvers receive",
    holds: ['src/schema/'],
  },
  {
    name: 'context',
    why: "one request's credential, upstream client and lookups, made from the rooms below; it never needs the schema",
    holds: ['src/context.ts'],
  },
  {
    name: 'lookups and live events',
    why: "one operation's lookups (each owns its kind's DataLoader) and the live events, both fed by the upstream client",
    holds: ['src/lookups/', 'src/live/'],
  },
  {
    name: 'upstream client',
    why: "the client one request holds and the read cache: the upstream's face to the rest (index.ts re-exports)",
    holds: ['src/upstream/index.ts', 'src/upstream/client.ts', 'src/upstream/read-cache.ts'],
  },
  {
    name: 'upstream resources',
    why: 'the REST resources and their JSON, called over the transport (upstream/README.md)',
    holds: ['src/upstream/api/'],
  },
  {
    name: 'upstream transport',
    why: 'the one ordered list of stages that every call passes',
    holds: ['src/upstream/transport.ts'],
  },
  {
    name: 'upstream stages',
    why: 'one concern around a call per file (retry, breaker, budget…), over the stage contract',
    holds: ['src/upstream/stages/'],
  },
  {
    name: 'upstream exchange',
    why: 'one HTTP exchange with the upstream: the answer read, its timer, its errors',
    holds: ['src/upstream/exchange/'],
  },
  {
    name: 'upstream call',
    why: 'what a call is, the stage contract, the call scope, the hooks and the words of failures',
    holds: ['src/upstream/call/'],
  },
  {
    name: 'shared state',
    why: 'what replicas share in Redis, each with a per-process twin; it knows nothing of the upstream',
    holds: ['src/shared-state/'],
  },
  {
    name: 'stand-in upstream',
    why: 'the local ngrok API is a separate program: it uses only the leaves, and only entry points start it',
    holds: ['src/sandbox/'],
    aside: true,
  },
  {
    name: 'leaves',
    why: 'settings, the logger, the error vocabulary, id checks, the resource kinds and the clock: everything may use them',
    holds: [
      'src/config/',
      'src/log.ts',
      'src/log-output.ts',
      'src/errors.ts',
      'src/ids.ts',
      'src/time.ts',
      'src/resources/',
    ],
  },
];

const MAX_SOURCE_LINES = 280;
const MAX_TEST_LINES = 300;
const MAX_FILES_IN_ROOM = 12;
const generated = (path: string): boolean => path.split('/').includes('__generated__');
/** The files a length check skips: generated ones, and those outside `root`. */
const outside =
  (root: string) =>
  (path: string): boolean =>
    generated(path) || !path.startsWith(root);

describe('the structure of src/ and test/', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const tree = diskTree(root, ['src', 'test']);
  const edges = importEdges(tree, 'src/');
  const sources = tree.files.filter((f) => f.startsWith('src/') && f.endsWith('.ts'));

  it('reads the imports of src/ (the graph is not empty)', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(edges.length).toBeGreaterThan(300);
  });

  it('has no import circle in src/, type-only imports included', () => {
    expect(importCircles(edges)).toEqual([]);
  });

  it('has no import running up the layers, and every source file in a layer', () => {
    expect(layerBreaches(sources, edges, LAYERS)).toEqual([]);
  });

  it(`has no file in src/ over ${MAX_SOURCE_LINES} lines, READMEs included (generated files aside)`, () => {
    expect(longFiles(tree, MAX_SOURCE_LINES, outside('src/'))).toEqual([]);
  });

  it(`has no file in test/ over ${MAX_TEST_LINES} lines (generated files aside)`, () => {
    expect(longFiles(tree, MAX_TEST_LINES, outside('test/'))).toEqual([]);
  });

  it(`has at most ${MAX_FILES_IN_ROOM} files directly in any folder of src/, READMEs included`, () => {
    expect(crowdedFolders(tree, 'src/', MAX_FILES_IN_ROOM)).toEqual([]);
  });
});

// Written twice on purpose: the stand-in and the gateway name the upstream operations alike without
// importing each other (only entry points may import the stand-in). Type-checking fails if they part.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const routesAgree: Same<StandInRoute, GatewayRoute> = true;

describe('what stays written twice', () => {
  it('the stand-in and the upstream client name the same routes (checked by tsc)', () => {
    expect(routesAgree).toBe(true);
  });
});

describe('the detectors, on small trees', () => {
  const layers: readonly Layer[] = [
    { name: 'top', why: '', holds: ['src/main.ts'] },
    { name: 'middle', why: '', holds: ['src/mid/'] },
    { name: 'aside', why: '', holds: ['src/aside/'], aside: true },
    { name: 'bottom', why: '', holds: ['src/low.ts', 'src/mid/low-too.ts'] },
  ];

  it('finds circles through type-only imports, re-exports and import(), and names every file tied in', () => {
    const tree = memoryTree({
      'src/main.ts': "import { a } from './mid/a';\nconst later = () => import('./low');\n",
      'src/mid/a.ts': "import type { B } from './b';\nexport const a = 1;\n",
      'src/mid/b.ts': "export type { C } from './c';\nexport type B = 2;\n",
      'src/mid/c.ts': "export * from './a';\nexport { d } from './d';\n",
      'src/mid/d.ts': "export type D = typeof import('./c');\n",
      'src/low.ts': "import { self } from './low';\nexport const self = 1;\n",
    });
    const edges = importEdges(tree, 'src/');
    expect(edges).toContainEqual({ from: 'src/main.ts', line: 2, to: 'src/low.ts' });
    expect(importCircles(edges)).toEqual([
      'src/low.ts -> src/low.ts',
      'src/mid/a.ts -> src/mid/b.ts -> src/mid/c.ts -> src/mid/a.ts (also tied in: src/mid/d.ts)',
    ]);
  });

  it('resolves a folder import to its index.ts and finds no circle in a clean tree', () => {
    const tree = memoryTree({
      'src/main.ts': "import { low } from './mid';\n",
      'src/mid/index.ts': "export { low } from '../low';\n",
      'src/low.ts': "import { readFileSync } from 'node:fs';\nexport const low = readFileSync;\n",
    });
    const edges = importEdges(tree, 'src/');
    expect(edges).toEqual([
      { from: 'src/main.ts', line: 1, to: 'src/mid/index.ts' },
      { from: 'src/mid/index.ts', line: 1, to: 'src/low.ts' },
    ]);
    expect(importCircles(edges)).toEqual([]);
    expect(layerBreaches(tree.files, edges, layers)).toEqual([]);
  });

  it('reports an upward import, a file in no layer, and a set-aside layer used by a non-entry', () => {
    const tree = memoryTree({
      'src/main.ts': "import './aside/x';\nimport './mid/a';\n",
      'src/mid/a.ts': "import '../aside/x';\n",
      'src/mid/low-too.ts': "\n\nimport type { A } from './a';\n",
      'src/aside/x.ts': "import '../low';\n",
      'src/low.ts': '',
      'src/stray.ts': '',
    });
    expect(layerBreaches(tree.files, importEdges(tree, 'src/'), layers)).toEqual([
      'src/stray.ts is in no layer',
      'src/mid/a.ts:1 -> src/aside/x.ts (middle imports aside, which only entry points may)',
      'src/mid/low-too.ts:3 -> src/mid/a.ts (bottom imports middle, a layer above it)',
    ]);
  });

  it('reports a long file (not a generated one) and a crowded folder', () => {
    const lines = (n: number): string => 'x\n'.repeat(n);
    const tree = memoryTree({
      'src/ok.ts': lines(300),
      'src/long.ts': lines(301),
      'test/__generated__/types.ts': lines(900),
      ...Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`src/room/f${i}.ts`, ''])),
      'src/calm/a.ts': '',
      ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`src/calm/deeper/f${i}.ts`, ''])),
      ...Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`test/crowd/f${i}.ts`, ''])),
    });
    expect(longFiles(tree, 300, generated)).toEqual(['src/long.ts: 301 lines']);
    expect(crowdedFolders(tree, 'src/', 12)).toEqual(['src/room/: 13 files']);
    expect(crowdedFolders(tree, 'src/', 13)).toEqual([]);
    expect(crowdedFolders(tree, 'src/', 11)).toEqual(['src/calm/deeper/: 12 files', 'src/room/: 13 files']);
  });
});
