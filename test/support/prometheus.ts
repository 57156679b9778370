// Reading a /metrics scrape (Prometheus text format) in tests: one sample by its exact labels.

/** The value of one sample, its labels given in any order; undefined when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    const wanted = Object.entries(labels);
    if (wanted.length === Object.keys(found).length && wanted.every(([k, v]) => found[k] === v)) {
      return Number(match[3]);
    }
  }
  return undefined;
}

/** The gateway's /metrics text (`graphqlUrl`: its /graphql URL). */
export async function scrape(graphqlUrl: string): Promise<string> {
  const response = await fetch(graphqlUrl.replace(/\/graphql$/, '/metrics'));
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  return response.text();
}
