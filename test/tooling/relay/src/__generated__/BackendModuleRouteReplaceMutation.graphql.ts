/**
 * @generated SignedSource<<b1376b84f77c9c8a84e435a9539f6370>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import { ConcreteRequest } from 'relay-runtime';
export type ReplaceHttpsEdgeRouteBackendInput = {
  backendId: string;
  edgeId: string;
  enabled?: boolean | null | undefined;
  routeId: string;
};
export type BackendModuleRouteReplaceMutation$variables = {
  input: ReplaceHttpsEdgeRouteBackendInput;
};
export type BackendModuleRouteReplaceMutation$data = {
  readonly replaceHttpsEdgeRouteBackend: {
    readonly __typename: "ReplaceHttpsEdgeRouteBackendPayload";
    readonly backendModule: {
      readonly backend: {
        readonly id: string;
      } | null | undefined;
      readonly edgeId: string;
      readonly enabled: boolean;
      readonly routeId: string;
    };
  } | {
    // This will never be '%other', but we need some
    // value in case none of the concrete values match.
    readonly __typename: "%other";
  };
};
export type BackendModuleRouteReplaceMutation = {
  response: BackendModuleRouteReplaceMutation$data;
  variables: BackendModuleRouteReplaceMutation$variables;
};

const node: ConcreteRequest = (function(){
var v0 = [
  {
    "defaultValue": null,
    "kind": "LocalArgument",
    "name": "input"
  }
],
v1 = [
  {
    "kind": "Variable",
    "name": "input",
    "variableName": "input"
  }
],
v2 = {
  "alias": null,
  "args": null,
  "kind": "ScalarField",
  "name": "__typename",
  "storageKey": null
},
v3 = [
  {
    "alias": null,
    "args": null,
    "kind": "ScalarField",
    "name": "id",
    "storageKey": null
  }
],
v4 = {
  "kind": "InlineFragment",
  "selections": [
    {
      "alias": null,
      "args": null,
      "concreteType": "BackendModule",
      "kind": "LinkedField",
      "name": "backendModule",
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
          "selections": (v3/*:: as any*/),
          "storageKey": null
        }
      ],
      "storageKey": null
    }
  ],
  "type": "ReplaceHttpsEdgeRouteBackendPayload",
  "abstractKey": null
};
return {
  "fragment": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Fragment",
    "metadata": null,
    "name": "BackendModuleRouteReplaceMutation",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": null,
        "kind": "LinkedField",
        "name": "replaceHttpsEdgeRouteBackend",
        "plural": false,
        "selections": [
          (v2/*:: as any*/),
          (v4/*:: as any*/)
        ],
        "storageKey": null
      }
    ],
    "type": "Mutation",
    "abstractKey": null
  },
  "kind": "Request",
  "operation": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Operation",
    "name": "BackendModuleRouteReplaceMutation",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": null,
        "kind": "LinkedField",
        "name": "replaceHttpsEdgeRouteBackend",
        "plural": false,
        "selections": [
          (v2/*:: as any*/),
          (v4/*:: as any*/),
          {
            "kind": "InlineFragment",
            "selections": (v3/*:: as any*/),
            "type": "NotFoundError",
            "abstractKey": null
          }
        ],
        "storageKey": null
      }
    ]
  },
  "params": {
    "cacheID": "9b9fe6666b36e6ac0b898ad59829c77e",
    "id": null,
    "metadata": {},
    "name": "BackendModuleRouteReplaceMutation",
    "operationKind": "mutation",
    "text": "mutation BackendModuleRouteReplaceMutation(\n  $input: ReplaceHttpsEdgeRouteBackendInput!\n) {\n  replaceHttpsEdgeRouteBackend(input: $input) {\n    __typename\n    ... on ReplaceHttpsEdgeRouteBackendPayload {\n      backendModule {\n        edgeId\n        routeId\n        enabled\n        backend {\n          id\n        }\n      }\n    }\n    ... on NotFoundError {\n      id\n    }\n  }\n}\n"
  }
};
})();

(node as any).hash = "6b25f9e9fde48360a2975d75643dfc56";

export default node;
