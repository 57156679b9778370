// The backend module of an HTTPS edge route: its type, the query that reads it and the mutations
// that replace and delete it. Writes tell the operation's lookup, so later reads in it see them.
import { badInput, InvalidInputError, type RefusedInputError } from '../../errors';
import { ID_KINDS, type IdKind, isBackendId, isIdOf, quote } from '../../ids';
import type { LoadedBackendModule } from '../../lookups';
import { BACKEND_MODULE, BACKENDS } from '../../resources';
import type { BackendModuleInput, RouteKey } from '../../upstream';
import { builder } from '../builder';
import { MUTATION_ERRORS, refusalShown } from '../mutation-errors';
import { refTo } from '../relay/refs';
import { upstreamCalls } from '../upstream-calls';
import { writeMutation } from '../write-mutations';

export const BackendModuleType = builder.objectRef<LoadedBackendModule>(BACKEND_MODULE.typeName);

BackendModuleType.implement({
  description: 'The backend attached to a route of an HTTPS edge.',
  fields: (t) => ({
    edgeId: t.exposeID('edgeId', { description: 'The HTTPS edge (edghts_…).' }),
    routeId: t.exposeID('routeId', { description: 'The route of that edge (edghtsrt_…).' }),
    enabled: t.exposeBoolean('enabled', { description: 'True when the module is applied to traffic.' }),
    backend: t.field({
      ...refTo(BACKENDS, (module) => module.backend),
      description: 'Null when the route has no backend.',
    }),
  }),
});

const ROUTE_ID_KINDS: Record<keyof RouteKey, IdKind> = { edgeId: 'httpsEdge', routeId: 'httpsEdgeRoute' };

/** The input field of ReplaceHttpsEdgeRouteBackendInput that carries each part of the domain input. */
const FIELD_OF_INPUT: Record<keyof BackendModuleInput, string> = {
  backendId: 'backendId',
  enabled: 'enabled',
};

/** The upstream's refusal of a write, in this schema's terms. */
function inSchemaTerms(refusal: RefusedInputError): InvalidInputError {
  const field = FIELD_OF_INPUT[refusal.input as keyof BackendModuleInput] as string | undefined;
  return new InvalidInputError(
    field ? `The ngrok API refused ${field}.` : 'The ngrok API refused the input.',
    field,
  );
}

/** The first route id that is malformed, with the message to show; undefined when both are fine. */
function invalidRouteField(route: RouteKey): { field: keyof RouteKey; message: string } | undefined {
  for (const field of ['edgeId', 'routeId'] as const) {
    if (!isIdOf(route[field], ROUTE_ID_KINDS[field])) {
      return {
        field,
        message: `${field} ${quote(route[field])} is not an id of the form ${ID_KINDS[ROUTE_ID_KINDS[field]]}_….`,
      };
    }
  }
  return undefined;
}

function checkedRoute(route: RouteKey): RouteKey {
  const invalid = invalidRouteField(route);
  if (invalid) throw new InvalidInputError(invalid.message, invalid.field);
  return route;
}

builder.queryField('httpsEdgeRouteBackend', (t) =>
  t.field({
    type: BackendModuleType,
    nullable: true,
    description: 'Null when the route has no backend module.',
    ...upstreamCalls({ kind: 'get' }),
    args: {
      edgeId: t.arg.id({ required: true, description: 'The HTTPS edge (edghts_…).' }),
      routeId: t.arg.id({ required: true, description: 'The route (edghtsrt_…).' }),
    },
    resolve: (_root, route, ctx) => {
      const invalid = invalidRouteField(route);
      if (invalid) throw badInput(invalid.message);
      return ctx.lookups.backendModules.load(route);
    },
  }),
);

const ReplaceInput = builder.inputType('ReplaceHttpsEdgeRouteBackendInput', {
  description: 'Which route gets which backend.',
  fields: (t) => ({
    edgeId: t.id({ required: true, description: 'The HTTPS edge (edghts_…).' }),
    routeId: t.id({ required: true, description: 'The route (edghtsrt_…).' }),
    backendId: t.id({
      required: true,
      description: 'The backend to attach (bkdtg_…, bkdfo_…, bkdwd_…, bkdhr_…, bkdsc_…).',
    }),
    enabled: t.boolean({
      defaultValue: true,
      description: 'False attaches the module disabled. Default true.',
    }),
  }),
});

const DeleteInput = builder.inputType('DeleteHttpsEdgeRouteBackendInput', {
  description: 'The route whose backend module to delete.',
  fields: (t) => ({
    edgeId: t.id({ required: true, description: 'The HTTPS edge (edghts_…).' }),
    routeId: t.id({ required: true, description: 'The route (edghtsrt_…).' }),
  }),
});

const DeletePayload = builder.objectRef<RouteKey>('DeleteHttpsEdgeRouteBackendPayload').implement({
  description: 'The route whose backend module is gone.',
  fields: (t) => ({
    edgeId: t.exposeID('edgeId', { description: 'The HTTPS edge.' }),
    routeId: t.exposeID('routeId', { description: 'The route, now without a backend module.' }),
  }),
});

writeMutation('replaceHttpsEdgeRouteBackend', {
  type: BackendModuleType,
  description: 'Attaches a backend to a route (PUT), replacing any module it had.',
  input: [ReplaceInput, 'The route and the backend.'],
  errors: [MUTATION_ERRORS, 'The new module, or why not.'],
  payload: [
    'The backend module as it is now.',
    'backendModule',
    'The backend module as the ngrok API stored it.',
  ],
  resolve: async (input, ctx): Promise<LoadedBackendModule> => {
    const route = checkedRoute(input);
    if (!isBackendId(input.backendId)) {
      throw new InvalidInputError(`backendId ${quote(input.backendId)} is not a backend id.`, 'backendId');
    }
    // A failed write may still have landed: this operation reads the route again.
    ctx.lookups.backendModules.changed(route);
    const stored = await refusalShown(
      ctx.client.replaceBackendModule(route, {
        backendId: input.backendId,
        enabled: input.enabled ?? undefined,
      }),
      inSchemaTerms,
    );
    const module = { edgeId: route.edgeId, routeId: route.routeId, ...stored };
    if (module.backend) ctx.lookups.backendModules.saved(module);
    else ctx.lookups.backendModules.deleted(route);
    return module;
  },
});

writeMutation('deleteHttpsEdgeRouteBackend', {
  type: DeletePayload,
  description: 'Detaches the backend module from a route (DELETE).',
  input: [DeleteInput, 'The route.'],
  errors: [MUTATION_ERRORS, 'The route, or why not.'],
  resolve: async (input, ctx) => {
    const route = checkedRoute(input);
    await ctx.lookups.backendModules.deleting(route, () => ctx.client.deleteBackendModule(route));
    return { edgeId: route.edgeId, routeId: route.routeId };
  },
});
