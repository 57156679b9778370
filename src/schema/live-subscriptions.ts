// What the two live subscriptions (tunnelEvents, endpointEvents) share: the includeCurrent argument,
// the stream from the context, and the error that may end it, thrown as the stream's last result.
import type { ObjectRef } from '@pothos/core';
import { type Context, enterEvent } from '../context';
import { GatewayError } from '../errors';
import type { LiveEvent } from '../live/kinds';
import type { StreamItem } from '../live/stream';
import { builder } from './builder';
import { upstreamCalls } from './upstream-calls';

/** The schema's own Pothos types (context, scalars), as the builder was made with. */
type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

export interface LiveSubscription<E extends LiveEvent> {
  readonly type: ObjectRef<Types, E>;
  readonly description: string;
  /** What includeCurrent sends first. */
  readonly includeCurrent: string;
  readonly stream: (ctx: Context, includeCurrent: boolean) => AsyncIterable<StreamItem>;
}

export function liveSubscription<E extends LiveEvent>(name: string, spec: LiveSubscription<E>): void {
  builder.subscriptionField(name, (t) =>
    t.field({
      type: spec.type,
      description: spec.description,
      ...upstreamCalls({ kind: 'stream' }),
      args: {
        includeCurrent: t.arg.boolean({
          required: false,
          defaultValue: false,
          description: spec.includeCurrent,
        }),
      },
      subscribe: (_root, args, ctx) => spec.stream(ctx, args.includeCurrent ?? false),
      // The stream's last item may be the error that ends it (a refused credential).
      resolve: (item: StreamItem, _args, ctx) => {
        if (item instanceof GatewayError) throw item;
        // Its joins are resolved with this event's own lookups, shared by the account's subscribers.
        enterEvent(ctx, item);
        // An event of this subscription's kind: its stream carries no other (Pothos cannot see that).
        return item as never;
      },
    }),
  );
}
