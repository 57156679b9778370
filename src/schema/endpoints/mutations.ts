// The endpoint writes: createCloudEndpoint, updateEndpoint and deleteEndpoint. Each tells the
// operation's endpoint lookup what it did, so later reads in the operation see the write, and
// announces it to the account's endpointEvents subscribers at once.

import type { Context } from '../../context';
import { InvalidInputError } from '../../errors';
import { isIdOf, quote } from '../../ids';
import { ENDPOINT } from '../../resources';
import type { Endpoint, EndpointFields } from '../../upstream';
import { builder } from '../builder';
import { MUTATION_ERRORS, refusalShown, withReason } from '../mutation-errors';
import { writeMutation } from '../write-mutations';
import { EndpointNode } from './endpoints';

function checkedId(id: string): string {
  if (!isIdOf(id, 'endpoint'))
    throw new InvalidInputError(`id ${quote(id)} is not an endpoint id (ep_…).`, 'id');
  return id;
}

const CreateInput = builder.inputType('CreateCloudEndpointInput', {
  description: 'A new cloud endpoint.',
  fields: (t) => ({
    url: t.string({
      required: true,
      description: 'Its URL, e.g. https://app.example.com or https://api.internal.',
    }),
    trafficPolicy: t.string({ required: true, description: 'Traffic Policy document, YAML or JSON.' }),
    description: t.string({ description: 'Free text (at most 255 characters).' }),
    metadata: t.string({ description: 'User metadata (at most 4096 bytes).' }),
    bindings: t.stringList({ description: "Defaults to the upstream's default (public) when absent." }),
    poolingEnabled: t.boolean({ description: 'True lets several agents serve the URL together.' }),
  }),
});

const UpdateInput = builder.inputType('UpdateEndpointInput', {
  description:
    'Absent fields stay as they are. Null clears description and metadata; null for any other field is\nan InvalidInputError.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The cloud endpoint (ep_…).' }),
    url: t.string({ description: 'A new URL.' }),
    trafficPolicy: t.string({ description: 'A new Traffic Policy document.' }),
    description: t.string({ description: 'New free text; null clears it.' }),
    metadata: t.string({ description: 'New metadata; null clears it.' }),
    bindings: t.stringList({ description: 'New bindings.' }),
    poolingEnabled: t.boolean({ description: 'Pooling on or off.' }),
  }),
});

const DeleteInput = builder.inputType('DeleteEndpointInput', {
  description: 'The cloud endpoint to delete.',
  fields: (t) => ({ id: t.id({ required: true, description: 'The cloud endpoint (ep_…).' }) }),
});

const DeletePayload = builder.objectRef<{ id: string }>('DeleteEndpointPayload').implement({
  description: 'The endpoint that is gone.',
  fields: (t) => ({ id: t.exposeID('id', { description: 'The deleted endpoint.' }) }),
});

type Given<T> = T | null | undefined;

/** Only what was given; null clears the clearable strings and is refused for the rest. */
function updateFields(input: { [K in keyof EndpointFields]?: Given<EndpointFields[K]> }): EndpointFields {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (value !== null) fields[key] = value;
    else if (key === 'description' || key === 'metadata') fields[key] = '';
    else throw new InvalidInputError(`${key} cannot be null; leave it out to keep it as it is.`, key);
  }
  return fields as EndpointFields;
}

/** The endpoint as the write stored it: told to the operation's lookup and to the subscribers. */
async function stored(ctx: Context, type: 'created' | 'updated', endpoint: Endpoint): Promise<Endpoint> {
  ctx.lookups.of(ENDPOINT).saved(endpoint);
  await ctx.endpointWritten({ type, endpoint });
  return endpoint;
}

writeMutation('createCloudEndpoint', {
  type: EndpointNode,
  description: 'Creates a cloud endpoint (POST /endpoints).',
  input: [CreateInput, 'The new endpoint.'],
  errors: [[InvalidInputError], 'The new endpoint, or why not.'],
  payload: ['The endpoint as created.', 'endpoint', 'The endpoint as the ngrok API stored it.'],
  resolve: async (input, ctx) => {
    const endpoint = await refusalShown(
      ctx.client.createCloudEndpoint({
        url: input.url,
        trafficPolicy: input.trafficPolicy,
        ...(input.description != null ? { description: input.description } : {}),
        ...(input.metadata != null ? { metadata: input.metadata } : {}),
        ...(input.bindings != null ? { bindings: input.bindings } : {}),
        ...(input.poolingEnabled != null ? { poolingEnabled: input.poolingEnabled } : {}),
      }),
      withReason,
    );
    return stored(ctx, 'created', endpoint);
  },
});

writeMutation('updateEndpoint', {
  type: EndpointNode,
  description: 'Changes a cloud endpoint (PATCH): only the fields given.',
  input: [UpdateInput, 'The endpoint and its changes.'],
  errors: [MUTATION_ERRORS, 'The endpoint as it is now, or why not.'],
  payload: ['The endpoint as it is now.', 'endpoint', 'The endpoint as the ngrok API stored it.'],
  resolve: async (input, ctx) => {
    const { id: given, ...changes } = input;
    const id = checkedId(given);
    const fields = updateFields(changes);
    // A failed write may still have landed: this operation reads the endpoint again.
    ctx.lookups.of(ENDPOINT).changed(id);
    return stored(ctx, 'updated', await refusalShown(ctx.client.updateEndpoint(id, fields), withReason));
  },
});

writeMutation('deleteEndpoint', {
  type: DeletePayload,
  description: 'Deletes a cloud endpoint (DELETE).',
  input: [DeleteInput, 'The endpoint.'],
  errors: [MUTATION_ERRORS, 'The deleted id, or why not.'],
  resolve: async (input, ctx) => {
    const id = checkedId(input.id);
    await ctx.lookups
      .of(ENDPOINT)
      .deleting(id, () => refusalShown(ctx.client.deleteEndpoint(id), withReason));
    await ctx.endpointWritten({ type: 'deleted', id });
    return { id };
  },
});
