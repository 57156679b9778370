// The config file: YAML (the `yaml` package), one mapping per section of table.ts, each setting under
// its key there (camelCase, as Config names it: `server: { port: 4000 }`). Its values go through the
// same parsers as the environment's text, so a bad value has the same message, named
// `FILE: section.key`; an unknown section or key, or YAML that does not parse, stops start-up too.
import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { ConfigError } from './parsers';
import { OPTIONS } from './table';

/** Read from the working directory when present and no --config is given. */
export const DEFAULT_CONFIG_FILE = 'gateway.config.yaml';

/** One setting of the file: its text as the environment would hold it, and its name for errors. */
export interface FileSetting {
  readonly raw: string;
  readonly name: string;
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** A YAML value as the parsers read text: a scalar as written, a list of scalars comma-separated. */
function textOf(value: unknown, name: string): string {
  if (isScalar(value)) return String(value);
  if (Array.isArray(value) && value.every(isScalar)) return value.map(String).join(',');
  throw new ConfigError(`${name}: expected a value or a list of values`);
}

/** The settings of a config file's text, by variable name (null values are left unset). */
function settingsOfText(text: string, file: string): Map<string, FileSetting> {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const [error] = doc.errors;
  if (error) throw new ConfigError(`${file}: not valid YAML: ${error.message.split('\n')[0]}`);
  const root: unknown = doc.toJS() ?? {};
  if (!isMapping(root))
    throw new ConfigError(`${file}: expected a mapping of sections (server:, upstream:, …)`);
  const sections = new Map<string, Map<string, string>>();
  for (const o of OPTIONS) {
    if (!sections.has(o.section)) sections.set(o.section, new Map());
    sections.get(o.section)?.set(o.key, o.env);
  }
  const settings = new Map<string, FileSetting>();
  for (const [section, body] of Object.entries(root)) {
    const keys = sections.get(section);
    if (keys === undefined) {
      throw new ConfigError(
        `${file}: unknown section "${section}" (the sections: ${[...sections.keys()].join(', ')})`,
      );
    }
    if (body === null) continue;
    if (!isMapping(body)) throw new ConfigError(`${file}: ${section}: expected a mapping of settings`);
    for (const [key, value] of Object.entries(body)) {
      const env = keys.get(key);
      const name = `${file}: ${section}.${key}`;
      if (env === undefined) throw new ConfigError(`${file}: unknown key "${section}.${key}" (see --help)`);
      if (value !== null) settings.set(env, { raw: textOf(value, name), name });
    }
  }
  return settings;
}

/** Reads and checks the file at `path`; a file that cannot be read is an error naming it. */
export function readConfigFile(path: string): Map<string, FileSetting> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(
      `${path}: cannot read the config file (${code === 'ENOENT' ? 'no such file' : code})`,
    );
  }
  return settingsOfText(text, path);
}
