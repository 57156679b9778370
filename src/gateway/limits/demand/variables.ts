// An operation's variables, coerced once by graphql-js's own rules before it is planned: a value
// they refuse is BAD_USER_INPUT (HTTP 400) with no upstream call, so no executor (graphql-jit
// coerces by looser rules of its own) ever runs on a value the plan was not made for.
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
} from 'graphql';

/** The variables do not fit the operation's definitions: graphql-js's errors, coded. */
export class VariableRefusal {
  constructor(readonly errors: readonly GraphQLError[]) {}
}

const coded = (error: GraphQLError): GraphQLError =>
  new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
  });

/** The coerced variables of the operation `operationName` (none when no such operation), or the refusal. */
export function coerceVariables(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  raw: Readonly<Record<string, unknown>> | null | undefined,
): Readonly<Record<string, unknown>> | VariableRefusal {
  const definitions = getOperationAST(document, operationName)?.variableDefinitions ?? [];
  if (definitions.length === 0) return {};
  const coerced = getVariableValues(schema, definitions, raw ?? {});
  return coerced.errors ? new VariableRefusal(coerced.errors.map(coded)) : coerced.coerced;
}
