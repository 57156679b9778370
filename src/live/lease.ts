// "Who polls this credential": one poller per credential. In one process the lease is always
// granted; with Redis (later) a replica holds it and another takes over when the holder dies.

export interface PollLease {
  /** True when this process may poll the credential now. */
  acquire(digest: string): Promise<boolean>;
  release(digest: string): Promise<void>;
}

export class LocalLease implements PollLease {
  async acquire(): Promise<boolean> {
    return true;
  }

  async release(): Promise<void> {}
}
