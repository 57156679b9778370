// The most upstream calls one kind of object costs when `n` of them are asked for, arriving in at
// most `groups` separate batches (DataLoader dispatches one batch per tick in which keys arrive): an
// upper bound of what src/lookups/ really does, for each way of fetching a kind (schema/upstream-calls.ts).
import type { Fetching } from '../../../schema/upstream-calls';
import { MAX_PAGE_SIZE } from '../../../upstream';

export function fetchCalls(fetching: Fetching, n: number, groups: number): number {
  if (n <= 0) return 0;
  switch (fetching) {
    case 'get-each':
      return n;
    case 'list-by-ids':
      // One list per 100 ids of a batch: the batches' remainders cost at most one call each.
      return Math.min(n, Math.ceil(n / MAX_PAGE_SIZE) + Math.max(1, groups) - 1);
    case 'list-then-get':
      // A batch of one id is one GET; of two or more, one list, then a GET for each id it missed.
      return n + Math.min(Math.max(1, groups), Math.floor(n / 2));
  }
}
