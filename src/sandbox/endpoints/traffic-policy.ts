// A minimal but real validity check of a Traffic Policy document, as the API does on endpoint
// writes: YAML or JSON (JSON is YAML), a mapping of known phases to lists of rules, each rule a
// mapping with optional `name` and `expressions` (strings) and a non-empty list of `actions`, each
// with a string `type` and an optional `config` mapping. Action types and CEL expressions are not
// checked, nor whether a phase suits the endpoint's protocol.
import { parse } from 'yaml';

const PHASES = ['on_http_request', 'on_http_response', 'on_tcp_connect'] as const;
const RULE_KEYS = ['name', 'expressions', 'actions'];
const ACTION_KEYS = ['type', 'config'];

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function actionProblem(action: unknown, at: string): string | undefined {
  if (!isMapping(action)) return `${at} must be a mapping with a type`;
  const unknown = Object.keys(action).find((key) => !ACTION_KEYS.includes(key));
  if (unknown !== undefined)
    return `${at} has an unknown key ${unknown} (allowed: ${ACTION_KEYS.join(', ')})`;
  if (typeof action.type !== 'string' || action.type.trim() === '')
    return `${at}.type must be a non-empty string`;
  if (action.config !== undefined && !isMapping(action.config)) return `${at}.config must be a mapping`;
  return undefined;
}

function ruleProblem(rule: unknown, at: string): string | undefined {
  if (!isMapping(rule)) return `${at} must be a mapping with actions`;
  const unknown = Object.keys(rule).find((key) => !RULE_KEYS.includes(key));
  if (unknown !== undefined) return `${at} has an unknown key ${unknown} (allowed: ${RULE_KEYS.join(', ')})`;
  if (rule.name !== undefined && typeof rule.name !== 'string') return `${at}.name must be a string`;
  const { expressions, actions } = rule;
  if (expressions !== undefined) {
    if (!Array.isArray(expressions) || expressions.some((item) => typeof item !== 'string')) {
      return `${at}.expressions must be a list of strings`;
    }
  }
  if (!Array.isArray(actions) || actions.length === 0) return `${at}.actions must be a non-empty list`;
  for (const [index, action] of actions.entries()) {
    const problem = actionProblem(action, `${at}.actions[${index}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** What is wrong with a Traffic Policy document, or undefined when it is valid. */
export function trafficPolicyProblem(text: string): string | undefined {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    // The parser's first line names the problem and its line and column; the rest is a code frame.
    const first = error instanceof Error ? (error.message.split('\n')[0] ?? '').replace(/:\s*$/, '') : '';
    return `it is neither JSON nor YAML (${first.trim() || 'unparsable'})`;
  }
  if (!isMapping(document)) return `it must be a mapping of phases (${PHASES.join(', ')})`;
  const phases = Object.keys(document);
  if (phases.length === 0) return `it names no phase (${PHASES.join(', ')})`;
  for (const phase of phases) {
    if (!(PHASES as readonly string[]).includes(phase)) {
      return `unknown phase ${phase} (known phases: ${PHASES.join(', ')})`;
    }
    const rules = document[phase];
    if (!Array.isArray(rules)) return `${phase} must be a list of rules`;
    for (const [index, rule] of rules.entries()) {
      const problem = ruleProblem(rule, `${phase}[${index}]`);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}
