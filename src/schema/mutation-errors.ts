// Expected outcomes of mutations, shown as data in the result unions. Only these classes are
// caught by the errors plugin; anything else stays a (masked) GraphQL error.
import { InvalidInputError, type MutationFailure, NotFoundError, RefusedInputError } from '../errors';
import { builder } from './builder';

const ErrorInterface = builder.interfaceRef<MutationFailure>('Error').implement({
  description: 'An expected failure of a mutation.',
  fields: (t) => ({
    message: t.exposeString('message', { description: 'What went wrong, for people.' }),
    code: t.exposeString('code', {
      description: 'Stable machine-readable code, e.g. NOT_FOUND, INVALID_INPUT.',
    }),
  }),
});

/** What both failure types share: the interface, and being told apart by their class. */
const failureOf = (kind: typeof NotFoundError | typeof InvalidInputError, description: string) => ({
  description,
  interfaces: [ErrorInterface],
  isTypeOf: (value: unknown) => value instanceof kind,
});

builder.objectType(NotFoundError, {
  name: 'NotFoundError',
  ...failureOf(NotFoundError, 'The endpoint, agent, edge, route or backend module does not exist.'),
  fields: (t) => ({
    id: t.exposeID('id', { nullable: true, description: 'The id that was not found, when one is known.' }),
  }),
});

builder.objectType(InvalidInputError, {
  name: 'InvalidInputError',
  ...failureOf(InvalidInputError, 'An input was refused, by the gateway or by the ngrok API.'),
  fields: (t) => ({
    field: t.exposeString('field', {
      nullable: true,
      description:
        'The input field at fault (edgeId, routeId, backendId, enabled, command, …), when one is known.',
    }),
  }),
});

export const MUTATION_ERRORS = [NotFoundError, InvalidInputError];

/** A write whose refusal by the upstream (RefusedInputError) shows as `shown` makes it; other failures stay. */
export const refusalShown = <T>(
  write: Promise<T>,
  shown: (refusal: RefusedInputError) => InvalidInputError,
): Promise<T> =>
  write.catch((error: unknown) => {
    throw error instanceof RefusedInputError ? shown(error) : error;
  });

/** The upstream's refusal of a write, with its own reason: the one upstream text a client may see. */
export const withReason = (refusal: RefusedInputError): InvalidInputError =>
  new InvalidInputError(refusal.reason ?? 'The ngrok API refused the input.', refusal.input);
