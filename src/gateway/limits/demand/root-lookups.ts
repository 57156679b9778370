// The by-id fields at the root of a query (node, nodes, tunnel, endpoint, under any alias) run in
// the same tick, so their ids reach each kind's loader as one batch: they are counted together,
// distinct ids once, rather than field by field. (A mutation's root fields run one after another.)
import type { Fetching } from '../../../schema/upstream-calls';
import { fetchCalls } from './fetch-calls';

export class RootLookups {
  private readonly batches = new Map<string, { fetching: Fetching; ids: Set<string> }>();

  /** Ids of one kind, fetched one way (one loader), asked by one root field. */
  add(kind: string, fetching: Fetching, ids: Iterable<string>): void {
    const key = `${kind} ${fetching}`;
    const batch = this.batches.get(key) ?? { fetching, ids: new Set<string>() };
    for (const id of ids) batch.ids.add(id);
    this.batches.set(key, batch);
  }

  /** The calls of every batch: one dispatch each. */
  calls(): number {
    let calls = 0;
    for (const { fetching, ids } of this.batches.values()) calls += fetchCalls(fetching, ids.size, 1);
    return calls;
  }
}
