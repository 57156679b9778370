// The account of the live-queries run (`npm run bench -- --live-queries`): 500 agents (tunnel
// sessions), each with one agent tunnel, its agent endpoint and a reserved domain or TCP address
// (joinedAccount), and 1,500 cloud endpoints: 2,000 endpoints. And its churn: one change every
// `everyMs`, keeping every count where it started, so every walk of the poller has the same pages
// (a list of exactly 2,000 endpoints is 20 pages of 100; one more would be 21).
import { type AccountSeed, type CloudEndpoint, joinedAccount, newId, type Sandbox } from '../../sandbox';

const LIVE_AGENTS = 500;
const LIVE_CLOUD_ENDPOINTS = 1_500;

const rfc3339 = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The account: the same for every key that holds it (so its ids answer each key's queries). */
export function liveAccount(): AccountSeed & { endpoints: CloudEndpoint[] } {
  const joined = joinedAccount(LIVE_AGENTS, { seed: 38 });
  const newest = Date.parse(joined.tunnels?.[0]?.started_at ?? '2025-09-01T00:00:00Z');
  // Interleaved with the agents' tunnels in time, so a page of endpoints holds both types.
  const spanMs = newest - Date.parse(joined.tunnels?.at(-1)?.started_at ?? '2025-08-01T00:00:00Z');
  const stepMs = Math.max(1000, Math.floor(spanMs / LIVE_CLOUD_ENDPOINTS));
  const endpoints = Array.from({ length: LIVE_CLOUD_ENDPOINTS }, (_, i): CloudEndpoint => {
    const created = new Date(newest - 500 - i * stepMs);
    return {
      id: newId('ep', created),
      url: i % 4 === 3 ? `https://svc-${i}.internal` : `https://app-${i}.live.example.com`,
      created_at: rfc3339(created),
      updated_at: rfc3339(created),
      traffic_policy: '{"on_http_request":[]}',
      bindings: [i % 4 === 3 ? 'internal' : 'public'],
      ...(i % 3 === 0 ? { description: `service ${i}` } : {}),
    };
  });
  return { ...joined, endpoints };
}

/** A small deterministic generator (the churn is the same in every run). */
function picker(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % n;
  };
}

/**
 * From the account as it is now (an earlier run's churn may have changed it: started from the seed,
 * a second churn of the key would remove what is gone already and add anyway, and the lists grow),
 * every `everyMs`, in turn: a cloud endpoint anywhere in the list is touched (its updatedAt moves);
 * one is deleted and a new one created (it lists first); an agent's tunnel restarts (the tunnel and
 * its agent endpoint go, a new tunnel of the same agent comes, listing first); one of the ten newest
 * cloud endpoints is touched. Returns the stop.
 */
export function startLiveChurn(sandbox: Sandbox, key: string, everyMs: number): () => void {
  const pick = picker(38);
  const account = sandbox.account(key);
  const tunnels = structuredClone(account.tunnels ?? []);
  // Newest first, as listed.
  const cloud = (account.endpoints ?? []).map((e) => e.id).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  let tick = 0;
  const change = () => {
    switch (tick++ % 4) {
      case 0:
        sandbox.touchEndpoint(key, cloud[(tick * 7) % cloud.length] ?? '');
        return;
      case 1: {
        const at = pick(cloud.length);
        try {
          const added = sandbox.addEndpoint(key);
          sandbox.removeEndpoint(key, cloud[at] ?? '');
          cloud.splice(at, 1);
          cloud.unshift(added.id);
        } catch {
          // A generated URL already taken (vanishingly rare): this tick changes nothing.
        }
        return;
      }
      case 2: {
        const at = pick(tunnels.length);
        const victim = tunnels[at];
        if (victim === undefined) return;
        const now = new Date();
        const id = newId('tn', now);
        const restarted = {
          ...victim,
          id,
          started_at: rfc3339(now),
          ...(victim.endpoint ? { endpoint: { id: `ep_${id.slice(3)}`, uri: '' } } : {}),
        };
        sandbox.removeTunnel(key, victim.id);
        sandbox.addTunnel(key, restarted);
        tunnels[at] = restarted;
        return;
      }
      default:
        sandbox.touchEndpoint(key, cloud[pick(Math.min(10, cloud.length))] ?? '');
    }
  };
  const timer = setInterval(change, everyMs);
  return () => clearInterval(timer);
}
