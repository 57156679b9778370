// What an account holds of its HTTPS edges and backends beyond the routes' backend modules (those
// are state/store.ts's, which writes change): each edge's and route's own fields as seeded, and each
// backend's fields by id.
import { newestFirst } from '../state/paging';
import type { EdgeSeed, UpstreamBackend } from '../types';

export class EdgeDetails {
  /** Newest first, as GET /edges/https lists them. */
  readonly edges: readonly EdgeSeed[];
  private readonly edgeById: ReadonlyMap<string, EdgeSeed>;
  private readonly backendById: ReadonlyMap<string, UpstreamBackend>;

  /** Holds the seed's items as they are (the caller copies them). */
  constructor(
    edges: readonly EdgeSeed[],
    backends: readonly UpstreamBackend[],
    /** Edges shut down for this account: its edge reads answer ERR_NGROK_7008. */
    readonly retired = false,
  ) {
    this.edges = [...edges].sort(newestFirst);
    this.edgeById = new Map(this.edges.map((edge) => [edge.id, edge]));
    this.backendById = new Map(backends.map((backend) => [backend.id, backend]));
  }

  edge(id: string): EdgeSeed | undefined {
    return this.edgeById.get(id);
  }

  /** The seeded fields of a backend; undefined when none were seeded (its kind's defaults apply). */
  backend(id: string): UpstreamBackend | undefined {
    return this.backendById.get(id);
  }

  get backends(): UpstreamBackend[] {
    return [...this.backendById.values()];
  }
}
