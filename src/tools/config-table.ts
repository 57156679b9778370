// Writes the README's configuration table from the option table in src/config/table.ts, so the two
// cannot drift (test/gateway/readme.test.ts fails when they do).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultTextOf, flagOf, OPTIONS } from '../config';

const START = '<!-- config-table:start -->';
const END = '<!-- config-table:end -->';

export function configTable(): string {
  const cell = (s: string) => s.replaceAll('|', '\\|');
  const rows = OPTIONS.map(
    (o) =>
      `| \`${o.env}\` | \`${flagOf(o.env)}\` | \`${o.section}.${o.key}\` | ${cell(defaultTextOf(o))} | ${cell(o.help)} |`,
  );
  return [
    START,
    '| variable | flag | config file | default | meaning |',
    '|---|---|---|---|---|',
    ...rows,
    END,
  ].join('\n');
}

export function withConfigTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end === -1) throw new Error('README.md lacks the config-table markers');
  return readme.slice(0, start) + configTable() + readme.slice(end + END.length);
}

/** Rewrites the table in the README at `path` when it differs; says which it was. */
export function updateConfigTable(path: string): 'updated' | 'unchanged' {
  const readme = readFileSync(path, 'utf8');
  const updated = withConfigTable(readme);
  if (updated === readme) return 'unchanged';
  writeFileSync(path, updated);
  return 'updated';
}

// `npm run docs:config [-- <README path>]`: the project's README by default.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const path = process.argv[2] ?? fileURLToPath(new URL('../../README.md', import.meta.url));
  console.log(`README.md configuration table ${updateConfigTable(path)}`);
}
