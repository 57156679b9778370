// Limits lowered or introspection turned off by configuration: ordinary queries are held to them,
// before any upstream call.
import { describe, expect, it } from 'vitest';
import { KEY, startStack } from '../support/stack';
import { account, type Body, JSON_HEADERS } from './attack-fixtures';

const { seed } = account;

describe('configured limits', () => {
  it('lowered limits apply to ordinary queries, before any upstream call', async () => {
    const h = await startStack({
      accounts: { [KEY]: seed },
      env: {
        MAX_DEPTH: '3',
        MAX_ALIASES: '1',
        MAX_TOKENS: '20',
        MAX_UPSTREAM_CALLS_PER_OPERATION: '1',
        MAX_BATCH: '0',
      },
    });
    try {
      const cases: [string, string][] = [
        [
          '{ tunnels { edges { node { tunnelSession { id } } } } }',
          'Query depth limit of 3 exceeded, found 5.',
        ],
        [
          '{ a: tunnels { nodes { id } } b: tunnels { nodes { id } } }',
          'Aliases limit of 1 exceeded, found 2.',
        ],
        [
          `{ tunnels { nodes { id ${'region '.repeat(20)}} } }`,
          'Syntax Error: Document contains more that 20 tokens. Parsing aborted.',
        ],
        [
          '{ tunnels { nodes { id } } endpoints { nodes { id } } }',
          'This operation would make up to 2 upstream calls; at most 1 are allowed. Ask for fewer items or joins, or split it.',
        ],
      ];
      for (const [query, message] of cases) {
        const { status, body } = await h.gql(query);
        expect(status).toBe(400);
        expect(body.errors?.map((e) => e.message)).toContain(message);
      }
      const batch = await h.raw({
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify([{ query: '{ __typename }' }]),
      });
      expect(batch.status).toBe(400);
      expect((JSON.parse(batch.text) as Body).errors?.[0]?.message).toBe('Batching is not supported.');
      expect(h.sandbox.calls()).toBe(0);
    } finally {
      await h.close();
    }
  });

  it('INTROSPECTION=false refuses __schema and __type; __typename still works', async () => {
    const h = await startStack({ accounts: { [KEY]: seed }, env: { INTROSPECTION: 'false' } });
    try {
      for (const field of ['__schema { queryType { name } }', '__type(name: "Tunnel") { name }']) {
        const { status, body } = await h.gql(`{ ${field} }`, {}, { key: null });
        expect(status).toBe(400);
        expect(body.errors?.[0]?.message).toMatch(/^GraphQL introspection has been disabled/);
      }
      const { body } = await h.gql('{ __typename }');
      expect(body).toEqual({ data: { __typename: 'Query' } });
    } finally {
      await h.close();
    }
  });
});
