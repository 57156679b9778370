// commandTunnelSession: restart, stop or update an online agent. A command is a write that is never
// retried once sent; a lost answer or a 5xx is an error with outcome UNKNOWN (the agent may have got
// it). Nothing is invented afterwards: the operation forgets the session it read, so a later read
// shows what the ngrok API says (a stopped agent leaves the list when the API says so).

import { InvalidInputError } from '../../errors';
import { isIdOf, quote } from '../../ids';
import { TUNNEL_SESSION } from '../../resources';
import type { AgentCommand } from '../../upstream';
import { builder } from '../builder';
import { MUTATION_ERRORS, refusalShown, withReason } from '../mutation-errors';
import { writeMutation } from '../write-mutations';

const AgentCommandEnum = builder.enumType('AgentCommand', {
  description: 'Which command to send to a running agent.',
  values: {
    RESTART: {
      value: 'restart',
      description:
        'The agent re-executes itself and reconnects with a new tunnel session id (not on Windows).',
    },
    STOP: { value: 'stop', description: 'The agent exits.' },
    UPDATE: {
      value: 'update',
      description: 'The agent updates itself within its major version; a RESTART is needed afterwards.',
    },
  } as const,
});

const CommandInput = builder.inputType('CommandTunnelSessionInput', {
  description: 'The agent and the command to send it.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The online tunnel session (ts_…).' }),
    command: t.field({ type: AgentCommandEnum, required: true, description: 'What the agent is to do.' }),
  }),
});

const CommandPayload = builder
  .objectRef<{ id: string; command: AgentCommand }>('CommandTunnelSessionPayload')
  .implement({
    description: 'The ngrok API accepted the command (204); the agent carries it out on its own time.',
    fields: (t) => ({
      id: t.exposeID('id', { description: 'The session the command was sent to.' }),
      command: t.expose('command', { type: AgentCommandEnum, description: 'The command sent.' }),
    }),
  });

writeMutation('commandTunnelSession', {
  type: CommandPayload,
  description:
    'Sends a command to the agent of an online tunnel session. Never retried: a command whose answer\nwas lost is reported as an error with outcome UNKNOWN, like every other write.',
  input: [CommandInput, 'The agent and the command.'],
  errors: [MUTATION_ERRORS, 'The command sent, or why not.'],
  resolve: async ({ id, command }, ctx) => {
    if (!isIdOf(id, 'tunnelSession'))
      throw new InvalidInputError(`id ${quote(id)} is not a tunnel session id (ts_…).`, 'id');
    // Sent or not, this operation no longer trusts what it read of the agent.
    ctx.lookups.of(TUNNEL_SESSION).changed(id);
    await refusalShown(ctx.client.commandTunnelSession(id, command), withReason);
    return { id, command };
  },
});
