// A live subscription's stream as its executor takes it (gateway/limits/observation-joins.ts): the
// events, and the context each is executed with, derived from the operation's for the event's
// observation (context.ts, eventContext), so no event changes the context another one runs with.
import { type Context, eventContext } from '../../context';
import { GatewayError } from '../../errors';
import type { LiveKind, StreamItem } from '../../live';

export class ObservedEvents implements AsyncIterable<StreamItem> {
  constructor(
    private readonly events: AsyncIterable<StreamItem>,
    private readonly ctx: Context,
    private readonly list: LiveKind,
    /** What the subscription asks of each event (its operation and variables): who shares its lookups. */
    private readonly selection: string,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<StreamItem> {
    return this.events[Symbol.asyncIterator]();
  }

  /** The context `item` is executed with: its observation's, or the operation's for the error that ends the stream. */
  contextOf(item: StreamItem): Context {
    return item instanceof GatewayError ? this.ctx : eventContext(this.ctx, this.list, item, this.selection);
  }
}
