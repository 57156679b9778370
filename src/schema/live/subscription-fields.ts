// What the live subscriptions (tunnelEvents, endpointEvents, tunnelSessionEvents) share: their
// event type (kind, the item's id, the item, observedAt), the includeCurrent argument, the stream
// of their list from the context, the error that may end it (thrown as the stream's last result),
// their upstream calls for the demand planner, and the ONLINE/OFFLINE kinds of the lists whose
// items only come and go.
import type { EnumRef, ObjectRef } from '@pothos/core';
import type { GraphQLResolveInfo, OperationDefinitionNode } from 'graphql';
import type { Context } from '../../context';
import { GatewayError } from '../../errors';
import type { LiveEvent, LiveKind, StreamItem } from '../../live';
import { builder, type SchemaTypes as Types } from '../builder';
import { upstreamCalls } from '../upstream-calls';
import { ObservedEvents } from './observed-events';

/** A field of the event type: its name in the payload, and its description. */
type EventField<E> = readonly [name: keyof E & string, description: string];

/** An event type: what happened (`kind`), the item's id and the item, and when it was observed. */
interface LiveEventType<E extends LiveEvent> {
  readonly name: string;
  readonly description: string;
  readonly kind: readonly [type: EnumRef<Types, E['kind']>, description: string];
  readonly id: EventField<E>;
  readonly item: readonly [...EventField<E>, type: ObjectRef<Types, E[keyof E]>];
  readonly observedAt: string;
}

function liveEventType<E extends LiveEvent>(spec: LiveEventType<E>) {
  const [kindType, kindDescription] = spec.kind;
  const [id, idDescription] = spec.id;
  const [item, itemDescription, itemType] = spec.item;
  return builder.objectRef<E>(spec.name).implement({
    description: spec.description,
    fields: (t) => ({
      kind: t.field({
        type: kindType,
        description: kindDescription,
        resolve: (event) => event.kind as never,
      }),
      [id]: t.id({ description: idDescription, resolve: (event) => event[id] as string }),
      [item]: t.field({
        type: itemType,
        description: itemDescription,
        resolve: (event) => event[item] as never,
      }),
      observedAt: t.field({
        type: 'DateTime',
        description: spec.observedAt,
        resolve: (event) => event.observedAt,
      }),
    }),
  });
}

/** Operations by identity: yoga's parse cache hands every subscriber of one document the same one. */
const operationIds = new WeakMap<OperationDefinitionNode, number>();
let lastOperationId = 0;

/**
 * What a subscription asks of each event: its operation and variables. Subscribers asking the same
 * share their events' lookups (context.ts, eventContext), so each one's calls stay within its own plan.
 */
function selectionOf(info: GraphQLResolveInfo): string {
  let id = operationIds.get(info.operation);
  if (id === undefined) {
    lastOperationId += 1;
    id = lastOperationId;
    operationIds.set(info.operation, id);
  }
  return `${id} ${JSON.stringify(info.variableValues)}`;
}

interface LiveSubscription<E extends LiveEvent> {
  readonly event: LiveEventType<E>;
  readonly description: string;
  /** What includeCurrent sends first. */
  readonly includeCurrent: string;
  /** The list whose events it streams. */
  readonly list: LiveKind;
}

export function liveSubscription<E extends LiveEvent>(name: string, spec: LiveSubscription<E>): void {
  const type = liveEventType(spec.event);
  builder.subscriptionField(name, (t) =>
    t.field({
      type,
      description: spec.description,
      ...upstreamCalls({ kind: 'stream' }),
      args: {
        includeCurrent: t.arg.boolean({
          required: false,
          defaultValue: false,
          description: spec.includeCurrent,
        }),
      },
      // Each event is executed with its observation's lookups, shared by the account's subscribers.
      subscribe: (_root, args, ctx: Context, info) =>
        new ObservedEvents(
          ctx.liveEvents(spec.list, args.includeCurrent ?? false),
          ctx,
          spec.list,
          selectionOf(info),
        ),
      // The stream's last item may be the error that ends it (a refused credential).
      resolve: (item: StreamItem) => {
        if (item instanceof GatewayError) throw item;
        // An event of this subscription's kind: its stream carries no other (Pothos cannot see that).
        return item as never;
      },
    }),
  );
}

/**
 * The ONLINE/OFFLINE enum of a list whose items only come and go (tunnels, tunnel sessions):
 * `noun` is what one item is called in the descriptions ("tunnel", "session").
 */
export function presenceKindEnum(name: string, description: string, noun: string) {
  return builder.enumType(name, {
    description,
    values: {
      ONLINE: {
        value: 'ONLINE',
        description: `The ${noun} is online and was not in the previous observation (with includeCurrent: it is online now).`,
      },
      OFFLINE: {
        value: 'OFFLINE',
        description: `The ${noun} was in the previous observation and is no longer online.`,
      },
    } as const,
  });
}
