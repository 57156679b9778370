// The detectors behind test/tooling/structure.test.ts: the import graph of src/ read with the
// TypeScript compiler (type-only imports and re-exports included), its circles, imports that run
// up the layers, long files and crowded folders. Each returns a list of readable findings.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** A set of files by repository-relative path ('/'-separated), on disk or in memory. */
export interface SourceTree {
  readonly files: readonly string[];
  read(path: string): string;
}

export interface ImportEdge {
  readonly from: string;
  readonly line: number;
  readonly to: string;
}

/** A room of the code; a file may import its own layer and those listed after it. */
export interface Layer {
  readonly name: string;
  readonly why: string;
  /** Folders end in '/', anything else is one file; a file belongs to its longest match. */
  readonly holds: readonly string[];
  /** Set aside: a separate program that only the first layer (the entry points) may import. */
  readonly aside?: boolean;
}

/** The files under `folders` of the repository at `root`. */
export function diskTree(root: string, folders: readonly string[]): SourceTree {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  for (const folder of folders) walk(folder);
  return { files: files.sort(), read: (path) => readFileSync(join(root, path), 'utf8') };
}

export function memoryTree(contents: Readonly<Record<string, string>>): SourceTree {
  return {
    files: Object.keys(contents).sort(),
    read: (path) => {
      const text = contents[path];
      if (text === undefined) throw new Error(`no file ${path}`);
      return text;
    },
  };
}

// Resolution runs on a made-up absolute root so the compiler never looks at the real disk.
const ROOT = '/tree/';
const RESOLUTION: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
};

/** Every relative import between the .ts files under `under`: static, `import type`, `export … from`, `import()`. */
export function importEdges(tree: SourceTree, under: string): ImportEdge[] {
  const sources = tree.files.filter((f) => f.startsWith(under) && f.endsWith('.ts'));
  const present = new Set(tree.files);
  const host: ts.ModuleResolutionHost = {
    fileExists: (p) => p.startsWith(ROOT) && present.has(p.slice(ROOT.length)),
    readFile: (p) => (p.startsWith(ROOT) ? tree.read(p.slice(ROOT.length)) : undefined),
    directoryExists: (p) => !p.startsWith(ROOT) || tree.files.some((f) => `${ROOT}${f}`.startsWith(`${p}/`)),
  };
  const edges: ImportEdge[] = [];
  for (const from of sources) {
    const text = tree.read(from);
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const resolved = ts.resolveModuleName(imported.fileName, ROOT + from, RESOLUTION, host).resolvedModule;
      if (!resolved?.resolvedFileName.startsWith(ROOT)) continue; // tsc reports an unresolved import
      const line = text.slice(0, imported.pos).split('\n').length;
      edges.push({ from, line, to: resolved.resolvedFileName.slice(ROOT.length) });
    }
  }
  return edges;
}

/** One line per circle (a strongly connected set of files): a path round it, and who else is tied in. */
export function importCircles(edges: readonly ImportEdge[]): string[] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const circles: string[] = [];
  for (const knot of stronglyConnected(next)) {
    const selfLoop = knot.length === 1 && (next.get(knot[0] ?? '') ?? []).includes(knot[0] ?? '');
    if (knot.length < 2 && !selfLoop) continue;
    const start = [...knot].sort()[0] ?? '';
    const path = shortestRound(start, new Set(knot), next);
    const others = knot.filter((f) => !path.includes(f)).sort();
    circles.push(`${path.join(' -> ')}${others.length ? ` (also tied in: ${others.join(', ')})` : ''}`);
  }
  return circles.sort();
}

/** Tarjan's algorithm, iterative so a long chain cannot exhaust the stack. */
function stronglyConnected(next: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const knots: string[][] = [];
  let counter = 0;
  for (const root of next.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; child: number }> = [{ node: root, child: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1] as { node: string; child: number };
      const children = next.get(top.node) ?? [];
      if (top.child < children.length) {
        const child = children[top.child++] as string;
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(child)) {
          low.set(top.node, Math.min(low.get(top.node) ?? 0, index.get(child) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(top.node) ?? 0));
      if (low.get(top.node) === index.get(top.node)) {
        const knot: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          knot.push(member);
        } while (member !== top.node);
        knots.push(knot);
      }
    }
  }
  return knots;
}

/** The shortest path from `start` back to itself inside one strongly connected set. */
function shortestRound(
  start: string,
  knot: ReadonlySet<string>,
  next: ReadonlyMap<string, readonly string[]>,
): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const child of next.get(node) ?? []) {
      if (!knot.has(child)) continue;
      if (child === start) {
        const path: string[] = [];
        for (let at = node; at !== start; at = cameFrom.get(at) ?? start) path.unshift(at);
        return [start, ...path, start];
      }
      if (!cameFrom.has(child)) {
        cameFrom.set(child, node);
        queue.push(child);
      }
    }
  }
  return [start, start];
}

/** The index in `layers` of the file's layer (its longest matching entry), or -1. */
function layerOf(file: string, layers: readonly Layer[]): number {
  let best = -1;
  let bestLength = -1;
  layers.forEach((layer, i) => {
    for (const entry of layer.holds) {
      const matches = entry.endsWith('/') ? file.startsWith(entry) : file === entry;
      if (matches && entry.length > bestLength) {
        best = i;
        bestLength = entry.length;
      }
    }
  });
  return best;
}

/** Files in no layer, imports into a layer above, and imports of a set-aside layer by others than the entries. */
export function layerBreaches(
  files: readonly string[],
  edges: readonly ImportEdge[],
  layers: readonly Layer[],
): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (layerOf(file, layers) < 0) found.push(`${file} is in no layer`);
  }
  for (const e of edges) {
    const from = layerOf(e.from, layers);
    const to = layerOf(e.to, layers);
    if (from < 0 || to < 0 || from === to) continue;
    const fromName = layers[from]?.name;
    const toName = layers[to]?.name;
    if (to < from)
      found.push(`${e.from}:${e.line} -> ${e.to} (${fromName} imports ${toName}, a layer above it)`);
    else if (layers[to]?.aside && from !== 0) {
      found.push(
        `${e.from}:${e.line} -> ${e.to} (${fromName} imports ${toName}, which only entry points may)`,
      );
    }
  }
  return found;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Files longer than `limit` lines, longest first. */
export function longFiles(tree: SourceTree, limit: number, skip: (path: string) => boolean): string[] {
  return tree.files
    .filter((f) => !skip(f))
    .map((f) => ({ f, lines: lineCount(tree.read(f)) }))
    .filter(({ lines }) => lines > limit)
    .sort((a, b) => b.lines - a.lines || a.f.localeCompare(b.f))
    .map(({ f, lines }) => `${f}: ${lines} lines`);
}

/** Every folder under `root` holding more than `limit` files directly (subfolders' files not counted). */
export function crowdedFolders(tree: SourceTree, root: string, limit: number): string[] {
  const counts = new Map<string, number>();
  for (const file of tree.files.filter((f) => f.startsWith(root))) {
    const folder = file.slice(0, file.lastIndexOf('/') + 1);
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return [...counts]
    .filter(([, n]) => n > limit)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([folder, n]) => `${folder}: ${n} files`);
}
