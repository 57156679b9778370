// What the HTTP attack tests share: one account with a route and its backend, the headers of a
// JSON POST, and the check that the gateway still serves after a refusal.
import { expect } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { oneRouteAccount } from '../support/fixtures';
import { KEY, type Stack } from '../support/stack';

export const tunnels = makeTunnels(3, { seed: 5 });
export const account = oneRouteAccount(tunnels);
export const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/graphql-response+json, application/json',
  authorization: `Bearer ${KEY}`,
};

export type Body = { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };

/** The gateway still answers an ordinary query. */
export async function stillServes(h: Stack): Promise<void> {
  const { body } = await h.gql('{ tunnels(first: 1) { nodes { id } } }');
  expect(body).toEqual({ data: { tunnels: { nodes: [{ id: tunnels[0]?.id }] } } });
}
