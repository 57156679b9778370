// Ref: a reference to another ngrok resource as the upstream sends it (id and uri); its `node`
// field is declared in nodes.ts, which sees the node types.
import type { Ref } from '../../upstream';
import { builder } from '../builder';

export const RefType = builder.objectRef<Ref>('Ref').implement({
  description: 'A reference to another ngrok resource.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The identifier of the resource.' }),
    uri: t.exposeString('uri', { description: 'The ngrok API URI of the resource.' }),
  }),
});
