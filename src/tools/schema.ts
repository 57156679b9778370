// Prints the schema built from the code to schema/schema.graphql; with --check, fails when the
// file on disk differs (CI's drift check).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { schema } from '../schema';

const target = fileURLToPath(new URL('../../schema/schema.graphql', import.meta.url));
const printed = `${printSchema(schema)}\n`;

if (process.argv.includes('--check')) {
  let onDisk = '';
  try {
    onDisk = readFileSync(target, 'utf8');
  } catch {
    // a missing file is drift too
  }
  if (onDisk !== printed) {
    console.error(
      'schema/schema.graphql is out of date with the code: run `npm run schema:print` and commit it.',
    );
    process.exit(1);
  }
  console.log('schema/schema.graphql matches the code.');
} else {
  writeFileSync(target, printed);
  console.log(`wrote ${target}`);
}
