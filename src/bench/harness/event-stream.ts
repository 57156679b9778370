// One SSE subscription of the bench's live rows: a POST with the operation, read as text chunks
// (an event may be split across chunks; each row parses what it counts).

/** Opens a subscription to `url` with `body` as the operation; the reader yields decoded chunks. */
export async function openEventStream(
  url: string,
  key: string,
  body: string,
  signal: AbortSignal,
): Promise<ReadableStreamDefaultReader<string>> {
  const response = await fetch(url, {
    method: 'POST',
    signal,
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      authorization: `Bearer ${key}`,
    },
    body,
  });
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (!reader) throw new Error('no event stream');
  return reader;
}
