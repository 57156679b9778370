/**
 * @generated SignedSource<<de06ec710866e0fa1f246fb11836a9ca>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import { ReaderFragment } from 'relay-runtime';
export type TunnelProtocol = "HTTP" | "HTTPS" | "TCP" | "TLS" | "%future added value";
import { FragmentRefs } from "relay-runtime";
export type TunnelList_query$data = {
  readonly tunnels: {
    readonly edges: ReadonlyArray<{
      readonly node: {
        readonly id: string;
        readonly proto: TunnelProtocol | null | undefined;
        readonly publicUrl: string | null | undefined;
        readonly region: string;
        readonly startedAt: string;
      };
    }>;
  };
  readonly " $fragmentType": "TunnelList_query";
};
export type TunnelList_query$key = {
  readonly " $data"?: TunnelList_query$data;
  readonly " $fragmentSpreads": FragmentRefs<"TunnelList_query">;
};

import TunnelListPaginationQuery_graphql from './TunnelListPaginationQuery.graphql';

const node: ReaderFragment = (function(){
var v0 = [
  "tunnels"
];
return {
  "argumentDefinitions": [
    {
      "defaultValue": 20,
      "kind": "LocalArgument",
      "name": "count"
    },
    {
      "defaultValue": null,
      "kind": "LocalArgument",
      "name": "cursor"
    }
  ],
  "kind": "Fragment",
  "metadata": {
    "connection": [
      {
        "count": "count",
        "cursor": "cursor",
        "direction": "forward",
        "path": (v0/*:: as any*/)
      }
    ],
    "refetch": {
      "connection": {
        "forward": {
          "count": "count",
          "cursor": "cursor"
        },
        "backward": null,
        "path": (v0/*:: as any*/)
      },
      "fragmentPathInResult": [],
      "operation": TunnelListPaginationQuery_graphql
    }
  },
  "name": "TunnelList_query",
  "selections": [
    {
      "alias": "tunnels",
      "args": null,
      "concreteType": "TunnelConnection",
      "kind": "LinkedField",
      "name": "__TunnelList_tunnels_connection",
      "plural": false,
      "selections": [
        {
          "alias": null,
          "args": null,
          "concreteType": "TunnelEdge",
          "kind": "LinkedField",
          "name": "edges",
          "plural": true,
          "selections": [
            {
              "alias": null,
              "args": null,
              "concreteType": "Tunnel",
              "kind": "LinkedField",
              "name": "node",
              "plural": false,
              "selections": [
                {
                  "alias": null,
                  "args": null,
                  "kind": "ScalarField",
                  "name": "id",
                  "storageKey": null
                },
                {
                  "alias": null,
                  "args": null,
                  "kind": "ScalarField",
                  "name": "publicUrl",
                  "storageKey": null
                },
                {
                  "alias": null,
                  "args": null,
                  "kind": "ScalarField",
                  "name": "proto",
                  "storageKey": null
                },
                {
                  "alias": null,
                  "args": null,
                  "kind": "ScalarField",
                  "name": "region",
                  "storageKey": null
                },
                {
                  "alias": null,
                  "args": null,
                  "kind": "ScalarField",
                  "name": "startedAt",
                  "storageKey": null
                },
                {
                  "alias": null,
                  "args": null,
                  "kind": "ScalarField",
                  "name": "__typename",
                  "storageKey": null
                }
              ],
              "storageKey": null
            },
            {
              "alias": null,
              "args": null,
              "kind": "ScalarField",
              "name": "cursor",
              "storageKey": null
            }
          ],
          "storageKey": null
        },
        {
          "alias": null,
          "args": null,
          "concreteType": "PageInfo",
          "kind": "LinkedField",
          "name": "pageInfo",
          "plural": false,
          "selections": [
            {
              "alias": null,
              "args": null,
              "kind": "ScalarField",
              "name": "endCursor",
              "storageKey": null
            },
            {
              "alias": null,
              "args": null,
              "kind": "ScalarField",
              "name": "hasNextPage",
              "storageKey": null
            }
          ],
          "storageKey": null
        }
      ],
      "storageKey": null
    }
  ],
  "type": "Query",
  "abstractKey": null
};
})();

(node as any).hash = "ace270f3eead91166d709f47b7916563";

export default node;
