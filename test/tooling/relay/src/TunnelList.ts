// What a Relay app writes to list tunnels with infinite scroll: a fragment on Query paging
// `tunnels` with @connection, made refetchable so usePaginationFragment can load the next pages.
// test/tooling/relay.test.ts compiles it with the Relay compiler against schema/schema.graphql.

/** Stands in for `graphql` from react-relay: the compiler reads the tagged templates. */
const graphql = (strings: TemplateStringsArray): string => strings.join('');

export const tunnelListFragment = graphql`
  fragment TunnelList_query on Query
  @refetchable(queryName: "TunnelListPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 20 }, cursor: { type: "String" }) {
    tunnels(first: $count, after: $cursor) @connection(key: "TunnelList_tunnels") {
      edges {
        node {
          id
          publicUrl
          proto
          region
          startedAt
        }
      }
    }
  }
`;

export const tunnelListQuery = graphql`
  query TunnelListQuery {
    ...TunnelList_query
  }
`;
