// What one operation may ask: document size in tokens, selection depth, aliases, directives and
// static cost, checked at parse and validation time before anything runs. The cost is
// graphql-armor's (objects 2, scalars 1, x1.5 per level, lists x their `first`) plus LOOKUP_COST for
// each object the operation may look up upstream (upstream-lookups.ts): joins count, though armor
// sees plain objects.
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  type OperationDefinitionNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { LimitsConfig } from '../config';
import { upstreamLookups } from './upstream-lookups';

/** What one upstream lookup adds to the cost: a joined reference weighs more than the object it is. */
export const LOOKUP_COST = 5;

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

/** armor's cost of each operation, plus its lookups, refused over `maxCost` with armor's own message. */
function costRule(maxCost: number): ValidationRule {
  return (context) => {
    let base = 0;
    // Unlimited here: it only measures (onAccept), the limit is applied to the sum below.
    const armor = costLimitRule({
      maxCost: Number.POSITIVE_INFINITY,
      ignoreIntrospection: true,
      onAccept: [(_context, details: { n: number }) => (base = details.n)],
    })(context);
    const measure = armor.OperationDefinition.enter as (operation: OperationDefinitionNode) => void;
    return {
      OperationDefinition(operation) {
        base = 0;
        measure.call(armor, operation);
        const cost = base + LOOKUP_COST * upstreamLookups(context, operation);
        if (cost > maxCost)
          report(context, new GraphQLError(`Query Cost limit of ${maxCost} exceeded, found ${cost}.`));
      },
    };
  };
}

/** The validation rules of the limits; introspection is counted like any field, so it cannot be abused. */
export function limitRules(config: LimitsConfig): ValidationRule[] {
  const rules: ValidationRule[] = [
    maxDepthRule({ n: config.maxDepth, ignoreIntrospection: false, flattenFragments: true, ...onLimit }),
    maxAliasesRule({ n: config.maxAliases, ...onLimit }),
    maxDirectivesRule({ n: config.maxDirectives, ...onLimit }),
    costRule(config.maxCost),
  ];
  if (!config.introspection) rules.push(NoSchemaIntrospectionCustomRule);
  return rules as ValidationRule[];
}

/** Parse with graphql-js's own token cap, then validate with the limit rules. */
export function useQueryLimits(config: LimitsConfig): Plugin {
  const rules = limitRules(config);
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => parseFn(source, { ...options, maxTokens: config.maxTokens }));
    },
    onValidate({ addValidationRule }) {
      for (const rule of rules) addValidationRule(rule);
    },
  };
}
