// Sustained churn of large tunnels for the slow-subscriber tests: every tick a new tunnel with 16 KB
// of metadata comes online and, past `base` tunnels, the oldest goes offline, so each poll sees
// about `base` changes of 16 KB each. `distinct`: each tunnel's metadata its own (a patch that
// moves tunnels by one then replaces every metadata).
import { makeTunnels, type Sandbox } from '../../src/sandbox';

/** The size of each tunnel's metadata. */
export const METADATA_BYTES = 16 * 1024;

const START = Date.UTC(2025, 0, 1);

export interface Churn {
  /** Tunnels brought online so far. */
  readonly added: () => number;
  stop(): void;
}

export function largeChurn(
  sandbox: Sandbox,
  key: string,
  { base = 20, everyMs = 20, distinct = false }: { base?: number; everyMs?: number; distinct?: boolean } = {},
): Churn {
  const online: string[] = [];
  let n = 0;
  const metadata = 'm'.repeat(METADATA_BYTES);
  const timer = setInterval(() => {
    n += 1;
    // One second apart: ids sort by start time, the newest lists first.
    const [tunnel] = makeTunnels(1, { seed: n, kind: 'agent', start: new Date(START + n * 1000) });
    if (!tunnel) return;
    sandbox.addTunnel(key, {
      ...tunnel,
      metadata: distinct ? `${n}:${metadata}`.slice(0, METADATA_BYTES) : metadata,
    });
    online.push(tunnel.id);
    if (online.length > base) sandbox.removeTunnel(key, online.shift() ?? '');
  }, everyMs);
  return { added: () => n, stop: () => clearInterval(timer) };
}
