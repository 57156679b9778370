// What tests and benchmarks assert on: calls per route and key, and peak simultaneous requests.
// A request's key is its bearer token as sent, even when auth later rejects it.
import type { RouteName } from '../types';

const ANY = '\u0000any';

export class Metrics {
  private readonly counts = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();
  private readonly peaks = new Map<string, number>();

  countCall(route: RouteName, key: string | undefined): void {
    for (const slot of [`${route}|${ANY}`, ...(key === undefined ? [] : [`${route}|${key}`])]) {
      this.counts.set(slot, (this.counts.get(slot) ?? 0) + 1);
    }
  }

  calls(route: RouteName | undefined, key: string | undefined, routes: readonly RouteName[]): number {
    const names = route === undefined ? routes : [route];
    return names.reduce((sum, name) => sum + (this.counts.get(`${name}|${key ?? ANY}`) ?? 0), 0);
  }

  /** Marks a request in flight; the returned function (idempotent) marks it finished. */
  enter(key: string | undefined): () => void {
    const slots = [ANY, ...(key === undefined ? [] : [key])];
    for (const slot of slots) {
      const current = (this.inFlight.get(slot) ?? 0) + 1;
      this.inFlight.set(slot, current);
      if (current > (this.peaks.get(slot) ?? 0)) this.peaks.set(slot, current);
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      for (const slot of slots) this.inFlight.set(slot, (this.inFlight.get(slot) ?? 1) - 1);
    };
  }

  peak(key: string | undefined): number {
    return this.peaks.get(key ?? ANY) ?? 0;
  }

  /** Zeroes the counts; peaks restart from what is in flight right now. */
  reset(): void {
    this.counts.clear();
    this.peaks.clear();
    for (const [slot, current] of this.inFlight) if (current > 0) this.peaks.set(slot, current);
  }
}
