// What the benchmark's files share: where the built entries are, the shared credential, small helpers.
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const GATEWAY_ENTRY = `${ROOT}dist/main.js`;
export const STAND_IN_ENTRY = `${ROOT}dist/bench/processes/standin.js`;
export const FLOOR_ENTRY = `${ROOT}dist/bench/processes/yoga-floor.js`;
export const OUT_DIR = `${ROOT}bench-results`;
export const SHARED_KEY = 'bench-shared';
/** The cache setting of the `cache` gateway rows. */
export const CACHE_TTL_MS = 1000;

export const log = (line: string) => process.stdout.write(`${line}\n`);

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};
