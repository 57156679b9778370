// The start-up timing: from spawning `node dist/main.js` to its first answered request.
import { type StandIn, startGateway } from '../processes/processes';
import type { Startup } from '../report/report';
import type { Settings } from '../settings';
import { GATEWAY_ENTRY, log, median, SHARED_KEY } from '../shared';

export async function startups(settings: Settings, standIn: StandIn): Promise<Startup[]> {
  const modes: { mode: string; env: Record<string, string> }[] = [
    {
      mode: 'node dist/main.js, NGROK_API_URL set',
      env: { NGROK_API_URL: standIn.url, NODE_ENV: 'production' },
    },
    { mode: 'node dist/main.js, embedded stand-in', env: {} },
  ];
  const out: Startup[] = [];
  for (const { mode, env } of modes) {
    const times: number[] = [];
    for (let i = 0; i < settings.startupRuns; i += 1) {
      const gateway = await startGateway(GATEWAY_ENTRY, env, {
        headers: { authorization: `Bearer ${SHARED_KEY}` },
      });
      times.push(gateway.startupMs);
      await gateway.stop();
    }
    out.push({ mode, runs: times.length, medianMs: median(times), maxMs: Math.max(...times) });
    log(
      `  start-up (${mode}): median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
    );
  }
  return out;
}
