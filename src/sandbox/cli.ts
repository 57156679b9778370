// `npm run sandbox`: the stand-in on its own, with demo data, for frontend work and curl.
import { parseArgs } from 'node:util';
import { commandLine } from '../command-line';
import { MINUTE_MS } from '../time';
import { DEFAULT_API_KEY, startSandbox } from './http/server';
import { demoData } from './state/demo-data';
import type { AccountSeed, SandboxOptions } from './types';

const USAGE = `Usage: npm run sandbox -- [options]

A local stand-in of ngrok's REST API (GET /tunnels, GET /tunnels/{id},
PUT|GET|DELETE /edges/https/{edge_id}/routes/{id}/backend, GET|POST /endpoints,
GET|PATCH|DELETE /endpoints/{id}) with demo data.

Options:
  --port N            port to listen on (default 8787; 0 picks a free one)
  --host H            address to bind (default 127.0.0.1)
  --key K             an API key to accept; repeat for several accounts, each with its own data
                      (default ${DEFAULT_API_KEY})
  --tunnels N         demo tunnels per account (default 30)
  --seed N            demo data seed (default 1; the first key gets this seed, the next seed+1, ...)
  --rate-limit N      requests per rolling 60 s per key (default 120)
  --no-rate-limit     turn the rate limit off
  --latency MS        added latency on every operation (default 0)
  --churn             every 3 s a demo tunnel comes online or goes offline and a cloud endpoint is
                      created, changed or deleted (live events to watch)
  --edges-writable    accept backend module writes (a demo of the mutations); by default they are
                      refused with ERR_NGROK_7196, as the real API refuses them since Edges were
                      shut down on 2025-12-31 (npm start takes the same flag, or EDGES_WRITABLE)
  --help              show this help
`;

class UsageError extends Error {}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

interface CliConfig {
  options: SandboxOptions;
  keys: string[];
  latency: number;
  churn: boolean;
  seed: number;
  tunnels: number;
}

function parse(argv: string[]): CliConfig | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      key: { type: 'string', multiple: true },
      tunnels: { type: 'string' },
      seed: { type: 'string' },
      'rate-limit': { type: 'string' },
      'no-rate-limit': { type: 'boolean' },
      latency: { type: 'string' },
      churn: { type: 'boolean' },
      'edges-writable': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  if (values['no-rate-limit'] && values['rate-limit'] !== undefined) {
    throw new UsageError('--rate-limit and --no-rate-limit exclude each other');
  }
  const seed = integer('seed', values.seed, 1, 0, 2 ** 31);
  const tunnels = integer('tunnels', values.tunnels, 30, 0, 100_000);
  const keys = values.key ?? [DEFAULT_API_KEY];
  const accounts: Record<string, AccountSeed> = {};
  keys.forEach((key, index) => {
    accounts[key] = demoData({ seed: seed + index, tunnels });
  });
  const max = integer('rate-limit', values['rate-limit'], 120, 1, 1_000_000);
  return {
    options: {
      host: values.host ?? '127.0.0.1',
      port: integer('port', values.port, 8787, 0, 65_535),
      accounts,
      rateLimit: values['no-rate-limit'] ? false : { max, windowMs: MINUTE_MS },
      edgesWritable: values['edges-writable'] === true,
    },
    keys,
    latency: integer('latency', values.latency, 0, 0, 600_000),
    churn: values.churn ?? false,
    seed,
    tunnels,
  };
}

function banner(url: string, config: CliConfig, sample: AccountSeed): string {
  const key = config.keys[0] ?? DEFAULT_API_KEY;
  const headers = `-H 'Authorization: Bearer ${key}' -H 'Ngrok-Version: 2'`;
  const edge = sample.edges?.[0];
  const route = edge?.routes[0];
  const limit = config.options.rateLimit;
  const lines = [
    `ngrok API stand-in listening on ${url}`,
    `  API key${config.keys.length > 1 ? 's' : ''}: ${config.keys.join(', ')}`,
    `  demo data: ${config.tunnels} tunnels per account (seed ${config.seed})`,
    `  rate limit: ${limit ? `${limit.max} requests per 60 s per key` : 'off'}`,
    ...(config.latency > 0 ? [`  added latency: ${config.latency} ms`] : []),
    ...(config.churn
      ? ['  churn: every 3 s a tunnel comes online or goes offline, and a cloud endpoint changes']
      : []),
    config.options.edgesWritable
      ? '  edges: writable (a demo: the real API refuses backend module writes since 2025-12-31)'
      : '  edges: read-only, as the real API (backend module writes answer ERR_NGROK_7196; --edges-writable for a demo)',
    'Try:',
    `  curl -s '${url}/tunnels?limit=2' ${headers}`,
    `  curl -s '${url}/endpoints?limit=5&filter=${encodeURIComponent('obj.type == "cloud"')}' ${headers}`,
    ...(edge && route
      ? [`  curl -s ${url}/edges/https/${edge.id}/routes/${route.id}/backend ${headers}`]
      : []),
    'Stop with Ctrl+C.',
  ];
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const config = commandLine(parse, USAGE);
  if (config === undefined) return;
  const sandbox = await startSandbox(config.options);
  if (config.latency > 0) sandbox.setLatency('all', config.latency);
  if (config.churn) {
    config.keys.forEach((key, index) => {
      sandbox.churn(key, { seed: config.seed + index });
    });
  }
  const firstKey = config.keys[0] ?? DEFAULT_API_KEY;
  process.stdout.write(banner(sandbox.url, config, sandbox.account(firstKey)));

  const stop = (signal: NodeJS.Signals) => {
    process.stdout.write(`${signal}: closing the stand-in\n`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
