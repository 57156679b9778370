// Imports every schema file for its side effects, then builds the schema. Nothing imports this
// file back, which keeps circular references between type files safe.
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder';
import './scalars';
import './refs';
import './errors';
import './tunnels';
import './nodes';
import './backend-modules';

builder.queryType({ description: 'Reads: tunnels and HTTPS edge route backend modules.' });
builder.mutationType({ description: 'Writes: the backend module of an HTTPS edge route.' });

export const schema = lexicographicSortSchema(builder.toSchema());
