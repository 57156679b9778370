// The curls of a README and what it prints beside them. In a ```sh block each `curl` command is
// followed by its answer: `# <status> <body>` and, for more of the body, `#   <line>` lines; `…`
// stands for any text. `VAR=value npm start` in the block says how the gateway runs; other
// assignments (`H=(...)`) are kept for the curls after them. `run` runs one with the real curl.
import { spawn } from 'node:child_process';

export interface ReadmeCurl {
  /** Line of the `curl` in its file (1-based), for messages. */
  readonly line: number;
  /** The command as printed, continuation lines included. */
  readonly command: string;
  /** Shell lines before it in its block that it may use (variable assignments). */
  readonly setup: readonly string[];
  /** The variables of the block's `npm start` line (empty: plain `npm start`). */
  readonly env: Readonly<Record<string, string>>;
  /** What it prints beside it, or undefined when nothing is printed (a defect of the README). */
  readonly expected: { status: number; body: string[] } | undefined;
}

const START = /^((?:[A-Z_]+=\S+ )*)npm start\b/;
const ANSWER = /^# (\d{3})(?: (.*))?$/;
const MORE = /^# {3}(.*)$/;

/** Every curl of every ```sh block of a markdown text. */
export function readmeCurls(markdown: string): ReadmeCurl[] {
  const lines = markdown.split('\n');
  const found: ReadmeCurl[] = [];
  let inBlock = false;
  let env: Record<string, string> = {};
  let setup: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (!inBlock) {
      if (line === '```sh') [inBlock, env, setup] = [true, {}, []];
      continue;
    }
    if (line === '```') {
      inBlock = false;
      continue;
    }
    const start = START.exec(line);
    if (start) {
      env = Object.fromEntries(
        (start[1] ?? '')
          .trim()
          .split(' ')
          .filter((a) => a !== '')
          .map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]),
      );
      continue;
    }
    if (line.startsWith('curl ')) {
      const at = i;
      const command = [line];
      while (lines[i]?.endsWith('\\')) command.push(lines[++i] ?? '');
      const answer = ANSWER.exec(lines[i + 1] ?? '');
      let expected: ReadmeCurl['expected'];
      if (answer) {
        i += 1;
        const body = answer[2] === undefined ? [] : [answer[2]];
        for (let more = MORE.exec(lines[i + 1] ?? ''); more; more = MORE.exec(lines[i + 1] ?? '')) {
          body.push(more[1] ?? '');
          i += 1;
        }
        expected = { status: Number(answer[1]), body };
      }
      found.push({ line: at + 1, command: command.join('\n'), setup: [...setup], env, expected });
      continue;
    }
    if (/^[A-Za-z_]\w*=/.test(line)) setup.push(line);
  }
  return found;
}

/** A printed line as a pattern of a whole line: `…` is any text on that line. */
const linePattern = (printed: string) =>
  `^${printed
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^\\n]*?')}$`;

/** Whether `body` holds every printed line, whole and in order; no printed line: an empty body. */
export function bodyMatches(body: string, printed: readonly string[]): boolean {
  if (printed.length === 0) return body === '';
  return new RegExp(printed.map(linePattern).join('[\\s\\S]*?'), 'm').test(body);
}

export interface CurlAnswer {
  status: number | undefined;
  body: string;
  /** The raw output, for a failure message. */
  output: string;
}

/**
 * Runs a curl with bash, `-i` added so that the status comes first, and returns once its answer
 * matches `expected` (a stream is then stopped) or it exited, or after `timeoutMs`.
 */
export function runCurl(
  script: string,
  cwd: string,
  expected: { status: number; body: string[] },
  timeoutMs = 30_000,
): Promise<CurlAnswer> {
  const child = spawn('bash', ['-c', script.replace(/^curl /m, 'curl -i ')], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const answer = (): CurlAnswer => {
    const end = output.indexOf('\r\n\r\n');
    const status = /^HTTP\/[\d.]+ (\d{3})/.exec(output)?.[1];
    return {
      status: status === undefined ? undefined : Number(status),
      body: end === -1 ? '' : output.slice(end + 4),
      output,
    };
  };
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      child.kill();
      resolve(answer());
    };
    const timer = setTimeout(done, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      output += String(chunk);
      const now = answer();
      if (now.status === expected.status && expected.body.length > 0 && bodyMatches(now.body, expected.body))
        done();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += String(chunk);
    });
    child.once('close', done);
  });
}
