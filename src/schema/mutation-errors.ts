// Expected outcomes of mutations, shown as data in the result unions. Only these classes are
// caught by the errors plugin; anything else stays a (masked) GraphQL error.
import { InvalidInputError, NotFoundError } from '../errors';
import { builder } from './builder';

export const ErrorInterface = builder.interfaceRef<NotFoundError | InvalidInputError>('Error').implement({
  description: 'An expected failure of a mutation.',
  fields: (t) => ({
    message: t.exposeString('message', { description: 'What went wrong, for people.' }),
    code: t.exposeString('code', {
      description: 'Stable machine-readable code, e.g. NOT_FOUND, INVALID_INPUT.',
    }),
  }),
});

builder.objectType(NotFoundError, {
  name: 'NotFoundError',
  description: 'The endpoint, edge, route or backend module does not exist.',
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof NotFoundError,
  fields: (t) => ({
    id: t.id({
      nullable: true,
      description: 'The id that was not found, when one is known.',
      resolve: (error) => error.id ?? null,
    }),
  }),
});

builder.objectType(InvalidInputError, {
  name: 'InvalidInputError',
  description: 'An input was refused, by the gateway or by the ngrok API.',
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof InvalidInputError,
  fields: (t) => ({
    field: t.string({
      nullable: true,
      description: 'The input field at fault (edgeId, routeId, backendId, enabled), when one is known.',
      resolve: (error) => error.field ?? null,
    }),
  }),
});

export const MUTATION_ERRORS = [NotFoundError, InvalidInputError];
