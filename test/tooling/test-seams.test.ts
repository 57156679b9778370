// The test seams knip lets through (exports only tests import, tagged `@internal test seam`) are the
// ones test/README.md names: each tagged export is named there, by itself or by the file it is in.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diskTree } from './structure-checks';

const TAG = '/** @internal test seam';
const root = fileURLToPath(new URL('../../', import.meta.url));

/** The names tagged in one file: a name after the tag in an export list, or a declaration below it. */
function taggedNames(text: string): string[] {
  const names: string[] = [];
  for (const [, name] of text.matchAll(/@internal test seam[^*]*\*\/\s*(?:type\s+)?([A-Za-z_$][\w$]*)/g))
    if (name) names.push(name);
  for (const [, name] of text.matchAll(
    /@internal test seam[^*]*\*\/\s*\nexport (?:const|function|class|type|interface) ([A-Za-z_$][\w$]*)/g,
  ))
    if (name) names.push(name);
  return names.filter((n) => n !== 'export');
}

describe('test seams', () => {
  const readme = readFileSync(`${root}test/README.md`, 'utf8');
  const section = readme.slice(
    readme.indexOf('## Test seams'),
    readme.indexOf('\n## ', readme.indexOf('## Test seams') + 1),
  );
  const tree = diskTree(root, ['src']);
  const seams = tree.files
    .filter((f) => f.endsWith('.ts'))
    .flatMap((file) => taggedNames(tree.read(file)).map((name) => ({ file, name })));

  it('finds the tagged exports', () => {
    expect(seams.length).toBeGreaterThan(20);
  });

  it('names every tagged export in test/README.md, by itself or by its file', () => {
    const unnamed = seams.filter(({ file, name }) => {
      const short = file.replace(/^src\//, '');
      const byName = new RegExp(`\\b${name.replace('$', '\\$')}\\b`).test(section);
      const byFile = section.includes(short) || section.includes(short.split('/').slice(-2).join('/'));
      return !byName && !byFile;
    });
    expect(unnamed).toEqual([]);
  });

  it('reads both forms of the tag', () => {
    expect(taggedNames(`export { ${TAG} */ a, b } from './x';\n${TAG}: why */\nexport const c = 1;`)).toEqual(
      ['a', 'c'],
    );
  });
});
