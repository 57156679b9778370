// What the tunnelSessionEvents tests share: every TunnelSession field as frontends select it, a
// stand-in session as the gateway shows it, and an agent command sent through the gateway.
import { expect } from 'vitest';
import { dataOf, postGraphQL } from '../support/stack';
import { KEY, type Stack } from './support';

type Json = Record<string, unknown>;

/** Every field of TunnelSession but the endpoints join. */
export const SESSION_FIELDS =
  'id agentVersion credential { id uri } ip metadata os region startedAt transport';

const text = (v: unknown) => (v === undefined || v === '' ? null : v);

/** A stand-in session (as GET /tunnel_sessions lists it) as the gateway shows it with SESSION_FIELDS. */
export function graphqlSession(u: Json): Json {
  const credential = u.credential as Json | undefined;
  return {
    id: u.id,
    agentVersion: text(u.agent_version),
    credential: credential === undefined ? null : { id: credential.id, uri: credential.uri },
    ip: text(u.ip),
    metadata: text(u.metadata),
    os: text(u.os),
    region: text(u.region),
    startedAt: u.started_at,
    transport: text(u.transport),
  };
}

/** The account's online sessions as the stand-in lists them now (newest first). */
export const sessionsOf = (stack: Stack, key = KEY): Json[] => stack.sandbox.listed(key, 'tunnel_sessions');

const COMMAND = `mutation($input: CommandTunnelSessionInput!) { commandTunnelSession(input: $input) {
  __typename ... on CommandTunnelSessionPayload { id command }
} }`;

/** Sends `command` to session `id` through the gateway at `url` and checks that the upstream took it. */
export async function command(url: string, id: string, agentCommand: 'STOP' | 'RESTART', key = KEY) {
  const { body } = await postGraphQL(url, COMMAND, { input: { id, command: agentCommand } }, { key });
  expect(dataOf(body, 'commandTunnelSession')).toEqual({
    __typename: 'CommandTunnelSessionPayload',
    id,
    command: agentCommand,
  });
}
