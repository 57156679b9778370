// The --help text, built from the same table the parser reads: one group per section (the config
// file's top-level keys), each setting with its flag, its variable and its key in the file, wrapped
// to WIDTH columns. And --version, from package.json.
import packageJson from '../../package.json' with { type: 'json' };
import { DEFAULT_CONFIG_FILE } from './file';
import { CONFIG_FLAG, flagOf } from './load';
import { type Config, defaultTextOf, OPTIONS } from './table';

/** @internal test seam: no line of --help is wider. */
export const HELP_WIDTH = 100;

/** What each section holds, as --help heads its group (every section of table.ts has one). */
const SECTION_TITLES: Readonly<Record<keyof Config, string>> = {
  server: 'the listening HTTP server: address, timeouts with slow clients, shutdown, compression',
  upstream: 'the ngrok API and the client in front of it: URL, key, timeouts, retries, pool, budget',
  limits: "what one request may ask: its deadline, the query's size, depth and cost, batches",
  access: 'who may ask: introspection, browser origins, host names, gateway tokens',
  metrics: 'the /metrics endpoint',
  log: 'the log',
  tracing: "OpenTelemetry tracing (OpenTelemetry's own variable names)",
  persisted: 'persisted operations and APQ',
  readiness: 'the /readiness probe',
  cache: 'the per-credential read cache',
  live: 'live events: the poller and its subscribers',
  redis: 'Redis, shared by replicas',
};

/** `text` in lines of at most HELP_WIDTH columns, each starting with `indent` (a word never splits). */
function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = indent;
  for (const word of text.split(' ')) {
    if (line !== indent && line.length + 1 + word.length > HELP_WIDTH) {
      lines.push(line);
      line = indent;
    }
    line += line === indent ? word : ` ${word}`;
  }
  return [...lines, line];
}

function sectionHelp(section: keyof Config): string[] {
  const rows = OPTIONS.filter((o) => o.section === section).flatMap((o) => {
    const shown = defaultTextOf(o);
    return [
      `  ${flagOf(o.env)} <value>   ${o.env}`,
      ...wrap(`${o.key}: ${o.help}${shown === 'unset' ? '' : ` (default: ${shown})`}`, '      '),
    ];
  });
  return ['', ...wrap(`${section}: ${SECTION_TITLES[section]}`, ''), ...rows];
}

export function helpText(): string {
  const sections = [...new Set(OPTIONS.map((o) => o.section))] as (keyof Config)[];
  return [
    `Usage: npm start -- [${CONFIG_FLAG} <file>] [flags]`,
    '',
    ...wrap(
      `Every setting is a flag, an environment variable and a key in a YAML config file: under its section (the headings below), e.g. "server:" then "  port: 4000". Precedence: flags, then the environment, then a .env file in the working directory, then the config file (${CONFIG_FLAG} <file>, else ${DEFAULT_CONFIG_FILE} in the working directory when present), then the defaults.`,
      '',
    ),
    '',
    `  ${CONFIG_FLAG} <file>   read settings from this YAML file`,
    '  --help            this text',
    "  --version         the gateway's version",
    ...sections.flatMap(sectionHelp),
  ].join('\n');
}

export const versionText = (): string => `${packageJson.name} ${packageJson.version}`;
