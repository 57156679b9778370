/**
 * @generated SignedSource<<65d92a30850989cc28d0def4ac8cf446>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import { ConcreteRequest } from 'relay-runtime';
export type BackendModuleRouteQuery$variables = {
  edgeId: string;
  routeId: string;
};
export type BackendModuleRouteQuery$data = {
  readonly httpsEdgeRouteBackend: {
    readonly backend: {
      readonly id: string;
    } | null | undefined;
    readonly edgeId: string;
    readonly enabled: boolean;
    readonly routeId: string;
  } | null | undefined;
};
export type BackendModuleRouteQuery = {
  response: BackendModuleRouteQuery$data;
  variables: BackendModuleRouteQuery$variables;
};

const node: ConcreteRequest = (function(){
var v0 = [
  {
    "defaultValue": null,
    "kind": "LocalArgument",
    "name": "edgeId"
  },
  {
    "defaultValue": null,
    "kind": "LocalArgument",
    "name": "routeId"
  }
],
v1 = [
  {
    "alias": null,
    "args": [
      {
        "kind": "Variable",
        "name": "edgeId",
        "variableName": "edgeId"
      },
      {
        "kind": "Variable",
        "name": "routeId",
        "variableName": "routeId"
      }
    ],
    "concreteType": "BackendModule",
    "kind": "LinkedField",
    "name": "httpsEdgeRouteBackend",
    "plural": false,
    "selections": [
      {
        "alias": null,
        "args": null,
        "kind": "ScalarField",
        "name": "edgeId",
        "storageKey": null
      },
      {
        "alias": null,
        "args": null,
        "kind": "ScalarField",
        "name": "routeId",
        "storageKey": null
      },
      {
        "alias": null,
        "args": null,
        "kind": "ScalarField",
        "name": "enabled",
        "storageKey": null
      },
      {
        "alias": null,
        "args": null,
        "concreteType": "Ref",
        "kind": "LinkedField",
        "name": "backend",
        "plural": false,
        "selections": [
          {
            "alias": null,
            "args": null,
            "kind": "ScalarField",
            "name": "id",
            "storageKey": null
          }
        ],
        "storageKey": null
      }
    ],
    "storageKey": null
  }
];
return {
  "fragment": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Fragment",
    "metadata": null,
    "name": "BackendModuleRouteQuery",
    "selections": (v1/*:: as any*/),
    "type": "Query",
    "abstractKey": null
  },
  "kind": "Request",
  "operation": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Operation",
    "name": "BackendModuleRouteQuery",
    "selections": (v1/*:: as any*/)
  },
  "params": {
    "cacheID": "5801abfc4c1932c37a3054f3236109c0",
    "id": null,
    "metadata": {},
    "name": "BackendModuleRouteQuery",
    "operationKind": "query",
    "text": "query BackendModuleRouteQuery(\n  $edgeId: ID!\n  $routeId: ID!\n) {\n  httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) {\n    edgeId\n    routeId\n    enabled\n    backend {\n      id\n    }\n  }\n}\n"
  }
};
})();

(node as any).hash = "3f865bd7ed4f9d97a8327b0689f5db22";

export default node;
