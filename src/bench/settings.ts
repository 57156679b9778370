// The benchmark's command line: what to measure, for how long, with which Node flags.
import { parseArgs } from 'node:util';

export const USAGE = `Usage: npm run bench [-- options]

  --quick             a short run (about 80 s on 2 cores): 0 ms upstream latency only, no 60 s memory run
  --latency LIST      upstream latencies in ms, comma-separated (default 0,20; quick: 0)
  --seconds N         measured seconds per row (default 10; quick: 2)
  --connections N     concurrent connections (default 16)
  --soak N            seconds of the memory run (default 60; quick: 0 = none)
  --only LIST         these scenarios only (and rest-direct, yoga-floor), no start-up timing; for profiling
  --cpu-prof DIR      write the gateways' CPU profiles (node --cpu-prof) into DIR
  --node-arg ARG      a Node flag for the gateways (repeatable; default the heap flags of npm start)
  --live-scale        only the live-scale run: 10,000 endpoints, 500 includeCurrent subscribers joining each
                      event's domain, 3 replicas and a control (one reader) on one redis-server, a change
                      every 100 ms for --seconds (default 60)
  --live-queries      only the live-queries run: 2,000 endpoints and 500 agents changing every 100 ms,
                      1 then 200 live queries of 20 shapes over 3 replicas on one redis-server, for
                      --seconds (default 60) each
  --help              this text
`;

export interface Settings {
  readonly mode: 'quick' | 'full' | 'live-scale' | 'live-queries';
  readonly latencies: readonly number[];
  readonly warmupSeconds: number;
  readonly seconds: number;
  readonly connections: number;
  readonly soakSeconds: number;
  readonly startupRuns: number;
  /** Scenarios measured again on a gateway with the read cache on. */
  readonly cacheScenarios: readonly string[];
  /** Scenario names to run (rest-direct and yoga-floor always run); undefined: all, and the start-up timing. */
  readonly only?: readonly string[];
  /** Node flags of the measured gateways (--cpu-prof). */
  readonly nodeArgs: readonly string[];
}

export function settingsOf(argv: readonly string[]): Settings | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean' },
      latency: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
      soak: { type: 'string' },
      only: { type: 'string' },
      'cpu-prof': { type: 'string' },
      'node-arg': { type: 'string', multiple: true },
      'live-scale': { type: 'boolean' },
      'live-queries': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  const quick = values.quick === true;
  const scale = values['live-scale'] === true;
  const liveQueries = values['live-queries'] === true;
  if (scale && liveQueries) throw new Error('--live-scale and --live-queries: one at a time');
  const apart = scale || liveQueries;
  const whole = (raw: string | undefined, fallback: number, min: number, max: number, name: string) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name}: a whole number from ${min} to ${max}`);
    return n;
  };
  const only = values.only?.split(',').map((s) => s.trim());
  const latencies = (values.latency ?? (quick ? '0' : '0,20'))
    .split(',')
    .map((s) => whole(s, 0, 0, 1000, 'latency'));
  return {
    mode: scale ? 'live-scale' : liveQueries ? 'live-queries' : quick ? 'quick' : 'full',
    latencies,
    warmupSeconds: quick ? 1 : 3,
    seconds: whole(values.seconds, apart ? 60 : quick ? 2 : 10, 1, 600, 'seconds'),
    connections: whole(values.connections, 16, 1, 256, 'connections'),
    soakSeconds: whole(values.soak, quick ? 0 : 60, 0, 3600, 'soak'),
    startupRuns: quick ? 3 : 5,
    cacheScenarios: (quick
      ? ['list-20']
      : ['list-20', 'list-20-distinct', 'by-id-10', 'list-then-read']
    ).filter((name) => only === undefined || only.includes(name)),
    ...(only === undefined ? {} : { only }),
    nodeArgs: [
      // The heap sizes `npm start` and the container recipe give the gateway (see the README).
      ...(values['node-arg'] ?? ['--max-old-space-size=128', '--max-semi-space-size=8']),
      ...(values['cpu-prof'] === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`]),
    ],
  };
}
