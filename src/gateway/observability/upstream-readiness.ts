// /readiness: whether the ngrok API answers. One cheap call through the transport's pool and breaker
// (UpstreamTransport.checkReadiness), bounded by a short timeout, its result reused for READINESS_CACHE_MS (10 s by default): probes from every
// kubelet and load balancer cost at most one upstream call per period per replica. /health (alive)
// is yoga's own health check and never calls the upstream.
import { type Plugin, useReadinessCheck } from 'graphql-yoga';
import type { RedisConnection } from '../../shared-state';
import { READINESS_REQUEST, type UpstreamTransport } from '../../upstream';

const READINESS_ENDPOINT = '/readiness';

export interface ReadinessOptions {
  /** The server-held key; without it (pass-through) any HTTP answer counts as reachable. */
  readonly apiKey: string | undefined;
  readonly timeoutMs: number;
  readonly cacheMs: number;
  /** Sends the check over the same pool and circuit breaker as every upstream call. */
  readonly transport: Pick<UpstreamTransport, 'checkReadiness'>;
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
  let last: { at: number; settled: boolean; result: Promise<Readiness> } | undefined;

  async function probe(): Promise<Readiness> {
    const check = await options.transport.checkReadiness(
      READINESS_REQUEST,
      options.apiKey,
      options.timeoutMs,
    );
    if ('status' in check) return judge(check.status, options.apiKey !== undefined);
    const upstream = check.failure === 'circuit open' ? 'unavailable' : check.failure;
    return { ready: false, upstream, status: null };
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

/**
 * Yoga's readiness plugin at /readiness: 200 when ready, 503 when not, with a JSON body saying why.
 * With REDIS_URL the body also shows Redis's state; it never changes the status: without Redis the
 * gateway serves with per-process state, so taking it out of the load balancer would help nobody.
 */
export function useUpstreamReadiness(
  check: () => Promise<Readiness>,
  redis?: Pick<RedisConnection, 'describe'>,
): Plugin {
  const readiness = readinessCheck(check, redis);
  return {
    ...readiness,
    // Yoga's plugin also tests every request's URL against a URLPattern of its endpoint, which
    // matches only what `url.pathname === endpoint` does and costs every request microseconds:
    // the requests it can answer are handed to it; the rest never reach it.
    onRequest(payload) {
      if (payload.request.url.endsWith(READINESS_ENDPOINT) || payload.url.pathname === READINESS_ENDPOINT)
        return readiness.onRequest?.(payload);
    },
  };
}

function readinessCheck(check: () => Promise<Readiness>, redis?: Pick<RedisConnection, 'describe'>): Plugin {
  return useReadinessCheck({
    endpoint: READINESS_ENDPOINT,
    check: async ({ fetchAPI }) => {
      const result = await check();
      return new fetchAPI.Response(
        JSON.stringify({
          status: result.ready ? 'ready' : 'not ready',
          upstream: result,
          ...(redis ? { redis: redis.describe() } : {}),
        }),
        {
          status: result.ready ? 200 : 503,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        },
      );
    },
  });
}
