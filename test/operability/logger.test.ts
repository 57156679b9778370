// The logger itself: secrets redacted wherever a caller puts them, and pretty output only in
// development on a terminal (or when asked), JSON otherwise.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, usePretty } from '../../src/log';

describe('the logger', () => {
  it('redacts authorization headers, keys, tokens and variables wherever a caller puts them', () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const logger = createLogger(
      { log: { level: 'info', format: 'json' }, server: { nodeEnv: 'production' } },
      stream,
    );
    logger.info(
      {
        headers: { authorization: 'Bearer secret-1', cookie: 'secret-2', accept: 'application/json' },
        apiKey: 'secret-3',
        config: { ngrokApiKey: 'secret-4', gatewayTokens: ['secret-5'] },
        sections: { upstream: { apiKey: 'secret-6' }, access: { gatewayTokens: ['secret-7'] } },
        nested: { token: 'secret-6' },
        variables: { id: 'secret-7' },
      },
      'with secrets',
    );
    const line = JSON.parse(chunks.join(''));
    expect(line).toMatchObject({
      headers: { authorization: '[redacted]', cookie: '[redacted]', accept: 'application/json' },
      apiKey: '[redacted]',
      config: { ngrokApiKey: '[redacted]', gatewayTokens: '[redacted]' },
      nested: { token: '[redacted]' },
      variables: '[redacted]',
      msg: 'with secrets',
    });
    expect(chunks.join('')).not.toMatch(/secret-\d/);
  });

  it('is pretty only in development on a terminal (or when asked), JSON otherwise', () => {
    expect(
      usePretty({ log: { level: 'info', format: 'auto' }, server: { nodeEnv: 'development' } }, true),
    ).toBe(true);
    expect(
      usePretty({ log: { level: 'info', format: 'auto' }, server: { nodeEnv: 'development' } }, false),
    ).toBe(false);
    expect(
      usePretty({ log: { level: 'info', format: 'auto' }, server: { nodeEnv: 'production' } }, true),
    ).toBe(false);
    expect(usePretty({ log: { level: 'info', format: 'auto' }, server: { nodeEnv: 'test' } }, true)).toBe(
      false,
    );
    expect(
      usePretty({ log: { level: 'info', format: 'json' }, server: { nodeEnv: 'development' } }, true),
    ).toBe(false);
    expect(
      usePretty({ log: { level: 'info', format: 'pretty' }, server: { nodeEnv: 'production' } }, false),
    ).toBe(true);
  });
});
