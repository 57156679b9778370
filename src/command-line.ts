// What every command-line entry (npm run sandbox, npm run bench) does with its arguments first.

/**
 * The arguments as `parse` reads them, or undefined when the run ends here: --help printed the usage
 * on stdout; unusable arguments printed why and the usage on stderr and set exit code 2.
 */
export function commandLine<T>(
  parse: (argv: string[]) => T | 'help',
  usage: string,
  argv: string[] = process.argv.slice(2),
): T | undefined {
  let parsed: T | 'help';
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    process.exitCode = 2;
    return undefined;
  }
  if (parsed === 'help') {
    process.stdout.write(usage);
    return undefined;
  }
  return parsed;
}
