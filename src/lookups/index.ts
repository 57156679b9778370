// The lookups of one operation (or one live event), one per kind, made from the resource table: a
// kind read by id through its filtered list gets a ListedLookup, one read by GET a FetchedLookup.
// Each owns the kind's DataLoader and what the operation's lists and writes showed of it. They
// share one set of lists in flight, so a reference waits for any list of the operation that may
// already hold it. They read from a source: the upstream client, or an observation.
import { type NodeKind, type Resource, resourceOfKind } from '../resources';
import { BackendModuleLookup } from './backend-module-lookup';
import { FetchedLookup } from './fetched-lookup';
import type { KindLookup } from './kind-lookup';
import { ListedLookup } from './listed-lookup';
import { Listings } from './listings';
import type { Source } from './source';

export type { LoadedBackendModule } from './backend-module-lookup';
export type { Slice } from './forward-pages';
export { type Observation, ObservationSource } from './observation-source';
export type { KindLookup, Source };

export class Lookups {
  private readonly listings = new Listings();
  private readonly kinds = new Map<Resource, KindLookup<{ readonly id: string }>>();
  /** Backend modules of edge routes, by route (not a node kind: they have no id). */
  readonly backendModules: BackendModuleLookup;

  constructor(private readonly source: Source) {
    this.backendModules = new BackendModuleLookup(source);
  }

  /** The operation's lookup of `resource`, made on first use. */
  of<T extends { readonly id: string }>(resource: Resource<T>): KindLookup<T> {
    let lookup = this.kinds.get(resource as Resource);
    if (lookup === undefined) {
      const Lookup = resource.byId === 'get-each' ? FetchedLookup : ListedLookup;
      lookup = new Lookup(this.source, resource as Resource, this.listings);
      this.kinds.set(resource as Resource, lookup);
    }
    return lookup as unknown as KindLookup<T>;
  }

  /** The lookup of a node kind (node, nodes, Ref.node by an id's prefix). */
  ofKind(kind: NodeKind): KindLookup<{ readonly id: string }> {
    return this.of(resourceOfKind(kind));
  }
}

/** One operation's (or one live event's) lookups of every kind, reading from `source`. */
export const lookupsOf = (source: Source): Lookups => new Lookups(source);
