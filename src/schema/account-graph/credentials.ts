// Tunnel credentials: the Credential node, `credentials`, `credential(id)`, and the agents using each
// (Credential.tunnelSessions, the sessions list filtered upstream by credential). Its token is never
// read from the upstream, so it is in no answer.
import { CREDENTIAL, type Credential, TUNNEL_SESSION } from '../../resources';
import { equals } from '../../upstream';
import { builder } from '../builder';
import { cursorOf } from '../relay/cursors';
import { forwardPage } from '../relay/forward-connection';
import { isNodeOf } from '../relay/node-ids';
import { upstreamCalls } from '../upstream-calls';
import { listedNodeRef, listedQueries } from './listed-nodes';
import { TunnelSessionConnection, TunnelSessionNode } from './tunnel-sessions';

const CredentialNode = listedNodeRef<Credential>(CREDENTIAL);

CredentialNode.implement({
  description:
    'A tunnel credential (cr_), the authtoken agents authenticate with. Its token is shown by the\nupstream only when it is created, and never here.',
  isTypeOf: isNodeOf(CREDENTIAL),
  fields: (t) => ({
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    metadata: t.exposeString('metadata', { nullable: true, description: 'User metadata.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    acl: t.exposeStringList('acl', {
      description:
        'Bind rules limiting what its agents may start, e.g. bind:*.example.com; empty when unrestricted.',
    }),
    ownerId: t.exposeID('ownerId', {
      nullable: true,
      description: 'The id of the user or bot user that owns it, when set.',
    }),
  }),
});

listedQueries(CredentialNode, {
  resource: CREDENTIAL,
  list: 'credentials',
  listDescription: 'Tunnel credentials, newest first. Forward paging: first (1..100, default 20) and after.',
  oneDescription: 'Null when the account has no credential with this id.',
  connection: 'A page of tunnel credentials.',
  edge: 'One credential of a page, with its cursor.',
});

builder.objectField(CredentialNode, 'tunnelSessions', (t) =>
  t.connection(
    {
      type: TunnelSessionNode,
      description:
        'Its agents online now, newest first (filtered upstream by credential: one call per page).\nForward paging: first (1..100, default 20) and after.',
      ...upstreamCalls({ kind: 'page' }),
      resolve: (parent, args, ctx) =>
        forwardPage('tunnelSessions', args, cursorOf(TUNNEL_SESSION), (first, beforeId) =>
          ctx.lookups.of(TUNNEL_SESSION).page(first, beforeId, equals('credential.id', parent.id)),
        ) as never,
    },
    TunnelSessionConnection,
  ),
);
