// /readiness: whether the ngrok API answers. One cheap call (GET /tunnels?limit=1), bounded by a
// short timeout, its result reused for READINESS_CACHE_MS (10 s by default): probes from every
// kubelet and load balancer cost at most one upstream call per period per replica. /health (alive)
// is yoga's own health check and never calls the upstream.
import { type Plugin, useReadinessCheck } from 'graphql-yoga';
import { request } from 'undici';
import type { UpstreamTransport } from '../upstream';

export const READINESS_ENDPOINT = '/readiness';

export interface ReadinessOptions {
  readonly baseUrl: string;
  readonly apiVersion: string;
  /** The server-held key; without it (pass-through) any HTTP answer counts as reachable. */
  readonly apiKey: string | undefined;
  readonly timeoutMs: number;
  readonly cacheMs: number;
  /** Builds the probe's path the way every upstream call is built. */
  readonly transport: Pick<UpstreamTransport, 'pathOf'>;
}

export interface Readiness {
  readonly ready: boolean;
  /** ok, or why not: credential refused, unavailable (5xx), timeout, unreachable. */
  readonly upstream: 'ok' | 'credential refused' | 'unavailable' | 'timeout' | 'unreachable';
  /** The upstream's answer status, when one came. */
  readonly status: number | null;
}

function judge(status: number, keyHeld: boolean): Readiness {
  if (status >= 500) return { ready: false, upstream: 'unavailable', status };
  // With the gateway's own key, a refusal means every request would fail; a 429 is a busy but
  // healthy upstream. In pass-through mode the probe sends no key, so 401/403 is the expected answer.
  if (keyHeld && (status === 401 || status === 403))
    return { ready: false, upstream: 'credential refused', status };
  return { ready: true, upstream: 'ok', status };
}

/** Probes the upstream; concurrent and recent probes share one call. */
export function createReadinessProbe(options: ReadinessOptions): () => Promise<Readiness> {
  const base = new URL(options.baseUrl);
  const path = options.transport.pathOf({
    route: 'listTunnels',
    method: 'GET',
    segments: ['tunnels'],
    query: { limit: 1 },
  });
  let last: { at: number; settled: boolean; result: Promise<Readiness> } | undefined;

  async function probe(): Promise<Readiness> {
    const headers: Record<string, string> = {
      'ngrok-version': options.apiVersion,
      accept: 'application/json',
    };
    if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
    try {
      const response = await request(new URL(path, base.origin), {
        method: 'GET',
        headers,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      await response.body.dump();
      return judge(response.statusCode, options.apiKey !== undefined);
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      return { ready: false, upstream: timedOut ? 'timeout' : 'unreachable', status: null };
    }
  }

  return () => {
    const now = performance.now();
    if (last === undefined || (last.settled && now - last.at >= options.cacheMs)) {
      const entry = { at: now, settled: false, result: probe() };
      // The age of a result counts from when it arrived, not from when it was asked for.
      void entry.result.then(() => {
        entry.at = performance.now();
        entry.settled = true;
      });
      last = entry;
    }
    return last.result;
  };
}

/** Yoga's readiness plugin at /readiness: 200 when ready, 503 when not, with a JSON body saying why. */
export function useUpstreamReadiness(check: () => Promise<Readiness>): Plugin {
  return useReadinessCheck({
    endpoint: READINESS_ENDPOINT,
    check: async ({ fetchAPI }) => {
      const result = await check();
      return new fetchAPI.Response(
        JSON.stringify({ status: result.ready ? 'ready' : 'not ready', upstream: result }),
        {
          status: result.ready ? 200 : 503,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        },
      );
    },
  });
}
