// The pause after a 429 per credential digest: until when (epoch ms) nothing is sent for it, so a
// burst does not spend the next window's quota on calls that could only be refused again.
import { MINUTE_MS } from '../../time';

export interface PauseStore {
  /** Pauses until `untilMs` (epoch ms); a later pause already set wins. */
  pause(digest: string, untilMs: number): Promise<void>;
  /** Until when the credential is paused, or undefined when it is not (any more). */
  pausedUntil(digest: string): Promise<number | undefined>;
}

/** Longest pause kept: the upstream's rate window is 60 s. */
export const MAX_PAUSE_MS = MINUTE_MS;
