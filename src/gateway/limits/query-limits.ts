// How one operation may be written: document size in tokens, its expanded size (expanded-size.ts,
// measured before any other validation rule), selection depth, aliases and directives, checked at
// parse and validation time before anything runs. What it may cost (upstream
// calls, answer size) is judged after validation, with its variables: ./demand-control.ts, planned by ./demand/.
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { LimitsConfig } from '../../config';
import { expandedSize } from './expanded-size';

/** graphql-armor says "Syntax Error: …"; clients get the limit as the validation error it is. */
function report(context: ValidationContext | null, error: GraphQLError): void {
  context?.reportError(
    new GraphQLError(error.message.replace(/^Syntax Error: /, ''), {
      nodes: error.nodes,
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    }),
  );
}

const onLimit = { onReject: [report], propagateOnRejection: false, exposeLimits: true };

/** The validation rules of the limits; introspection is counted like any field, so it cannot be abused. */
function limitRules(config: LimitsConfig): ValidationRule[] {
  const rules: ValidationRule[] = [
    maxDepthRule({ n: config.maxDepth, ignoreIntrospection: false, flattenFragments: true, ...onLimit }),
    maxAliasesRule({ n: config.maxAliases, ...onLimit }),
    maxDirectivesRule({ n: config.maxDirectives, ...onLimit }),
  ];
  if (!config.introspection) rules.push(NoSchemaIntrospectionCustomRule);
  return rules as ValidationRule[];
}

const tooLarge = (size: number, most: number): GraphQLError =>
  new GraphQLError(
    `This operation expands to ${size > 1e9 ? 'over a billion' : size} fields through its fragments and abstract types; at most ${most} are allowed (MAX_EXPANDED_FIELDS). Spread fragments on the concrete types you need, or split the operation.`,
    { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', expandedFields: { limit: most } } },
  );

/** Parse with graphql-js's own token cap, measure the expanded size, then validate with the limit rules. */
export function useQueryLimits(config: LimitsConfig): Plugin {
  const rules = limitRules(config);
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => parseFn(source, { ...options, maxTokens: config.maxTokens }));
    },
    onValidate({ params, addValidationRule, setResult }) {
      // Before every rule: a document whose expansion is too large is not walked by any of them.
      const size = expandedSize(params.schema, params.documentAST);
      if (size > config.maxExpandedFields) return setResult([tooLarge(size, config.maxExpandedFields)]);
      for (const rule of rules) addValidationRule(rule);
    },
  };
}
