// The list calls one operation has in flight, across every kind: a loader of references waits for
// them, so a reference to an item a list is still reading costs no call, and the references of one
// response (to agents, say, from two pages of endpoints) make one batch instead of one per page.

export class Listings {
  private readonly inFlight = new Set<Promise<unknown>>();

  /** Counts `work` as in flight until it settles; returns it. */
  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    return work.finally(() => this.inFlight.delete(work));
  }

  /** Resolves once no list is in flight (lists that start meanwhile are waited for too). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * DataLoader's batchScheduleFn: the batch goes out once no list is in flight and the resolvers
   * those lists fed have run (one macrotask after they settle), so their references join it.
   */
  readonly schedule = (dispatch: () => void): void => {
    const run = async () => {
      do {
        await this.settled();
        await new Promise<void>((resolve) => setImmediate(resolve));
      } while (this.inFlight.size > 0);
      dispatch();
    };
    void run();
  };
}
