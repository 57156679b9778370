// The benchmark's upstream: the stand-in in its own process, one account per key, no rate limit
// (with --live-queries: live-account.ts's account under every key, and --rate-limit N). The runner
// forks it and drives it over IPC (latency, call counts, churn), so counting costs the stand-in
// nothing while the load runs.
import { parseArgs } from 'node:util';
import { type AccountSeed, demoData, joinedAccount, ROUTE_NAMES, startSandbox } from '../../sandbox';
import { liveAccount, startLiveChurn } from './live-account';
import type { StandInReply, StandInRequest } from './protocol';

const { values } = parseArgs({
  options: {
    keys: { type: 'string', multiple: true },
    tunnels: { type: 'string' },
    'live-queries': { type: 'boolean' },
    'rate-limit': { type: 'string' },
  },
});
const keys = values.keys ?? ['bench-shared'];
const tunnels = Number(values.tunnels ?? 40);

// Every account holds the same data, so any key answers any scenario's ids. Agent tunnels only, each
// on an agent and a reserved domain or address of its own, so each tunnel has its agent endpoint and
// every endpoint joins (the join rows read them), beside the demo's cloud endpoints.
const live = values['live-queries'] === true ? liveAccount() : undefined;
const accounts: Record<string, AccountSeed> = {};
for (const key of keys)
  accounts[key] = live ?? { ...demoData({ seed: 1, tunnels }), ...joinedAccount(tunnels, { seed: 1 }) };

const limit = Number(values['rate-limit'] ?? 0);
const sandbox = await startSandbox({
  rateLimit: limit > 0 ? { max: limit, windowMs: 60_000 } : false,
  accounts,
});
const churning = new Map<string, () => void>();

function answer(request: StandInRequest): StandInReply {
  switch (request.type) {
    case 'latency':
      sandbox.clearFaults();
      sandbox.setLatency('all', request.ms);
      return { type: 'ok', id: request.id };
    case 'reset':
      sandbox.resetCalls();
      return { type: 'ok', id: request.id };
    case 'churn':
      churning.get(request.key)?.();
      churning.delete(request.key);
      if (request.everyMs > 0)
        churning.set(
          request.key,
          live
            ? startLiveChurn(sandbox, request.key, request.everyMs)
            : sandbox.churn(request.key, { everyMs: request.everyMs }),
        );
      return { type: 'ok', id: request.id };
    case 'calls': {
      const byRoute: Record<string, number> = {};
      for (const route of ROUTE_NAMES) byRoute[route] = sandbox.calls(route);
      const byKey: Record<string, number> = {};
      for (const key of keys) byKey[key] = sandbox.calls(undefined, key);
      return { type: 'calls', id: request.id, total: sandbox.calls(), byRoute, byKey };
    }
  }
}

process.on('message', (message: StandInRequest) => process.send?.(answer(message)));
process.once('disconnect', () => {
  void sandbox.close().then(() => process.exit(0));
});
process.send?.({ type: 'ready', url: sandbox.url, account: sandbox.account(keys[0] ?? '') });
