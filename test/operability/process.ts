// The gateway as `npm start` runs it: src/main.ts bundled the way `npm run build` does it (packages
// external, into node_modules/.cache so its imports resolve) and started with node and the same
// heap limit, as a child process on a loopback ephemeral port.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The node flags of `npm start` (package.json: the heap and young-generation limits), read from the script. */
const START_NODE_FLAGS: string[] = (() => {
  const start: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  const flags = /exec node ((?:--\S+ )+)dist\/main\.js/.exec(start)?.[1];
  if (!flags) throw new Error(`npm start's node flags not found in: ${start}`);
  return flags.trim().split(' ');
})();

/** Bundles the entry point; returns its path and a function removing it. */
export async function bundleMain(): Promise<{ main: string; remove: () => void }> {
  const cache = join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const out = mkdtempSync(join(cache, 'gateway-process-'));
  const main = join(out, 'main.js');
  await build({
    entryPoints: [join(root, 'src/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: main,
    logLevel: 'warning',
  });
  return { main, remove: () => rmSync(out, { recursive: true, force: true }) };
}

export interface GatewayProcess {
  readonly child: ChildProcess;
  /** e.g. http://127.0.0.1:40123 (no path). */
  readonly base: string;
  /** The exit code once it exited, or undefined while it runs. */
  exitCode(): number | null | undefined;
  /** Resident set size in bytes, read from /proc (Linux). */
  rss(): number;
  /** The first and last output, for a failure message. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts the bundled gateway with only the given variables, and waits for its listening line. */
export async function startProcess(main: string, env: Record<string, string>): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [...START_NODE_FLAGS, main], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Kept bounded: the head (start-up lines) and a tail (a crash), never the whole request log.
  let head = '';
  let tail = '';
  const keep = (chunk: Buffer) => {
    if (head.length < 4096) head += String(chunk);
    else tail = (tail + String(chunk)).slice(-4096);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  const base = await new Promise<string>((resolve, reject) => {
    // Generous: on a loaded machine, beside the other test files, a start-up can take many seconds.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no listening line: ${head}`));
    }, 60_000);
    const look = () => {
      const found = /listening on (http:\/\/[^/\s]+)\/graphql/.exec(head);
      if (found?.[1]) {
        clearTimeout(timer);
        child.stdout?.off('data', look);
        resolve(found[1]);
      }
    };
    child.stdout?.on('data', look);
    void exit.then(() => reject(new Error(`exited before listening: ${head}${tail}`)));
  });
  return {
    child,
    base,
    exitCode: () => exited,
    rss: () => {
      const status = readProcStatus(child.pid);
      const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
      return kb === undefined ? Number.NaN : Number(kb) * 1024;
    },
    output: () => `${head}\n...\n${tail}`,
    async stop() {
      if (exited === undefined) child.kill('SIGTERM');
      await exit;
    },
  };
}

function readProcStatus(pid: number | undefined): string {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
}
