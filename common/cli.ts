/** Command lines of the kit's scripts: node:util `parseArgs`, with `--help` printing the usage and a bad flag printing it with the error (exit 2). */
import { type ParseArgsConfig, parseArgs } from "node:util";

const help = { help: { type: "boolean", short: "h" } } as const;

/** The options of a command line, as parseArgs takes them. */
type Options = NonNullable<ParseArgsConfig["options"]>;
/** The parseArgs configuration of a command line with these options. */
type CommandLine<O extends Options> = {
  args: string[];
  options: O & typeof help;
  allowPositionals: boolean;
  strict: true;
};

/**
 * Parses the command line (`process.argv` unless `args` is given) with the given options plus
 * `--help`; exits after printing the usage for `--help` or a bad command line. Positional arguments
 * are an error unless `positionals` is set.
 */
export function parseCommandLine<const O extends Options>(
  usage: string,
  options: O,
  { args = process.argv.slice(2), positionals = false } = {},
): ReturnType<typeof parseArgs<CommandLine<O>>> {
  try {
    const parsed = parseArgs<CommandLine<O>>({
      args,
      options: { ...options, ...help },
      allowPositionals: positionals,
      strict: true,
    });
    if ((parsed.values as { help?: boolean }).help) {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    return parsed;
  } catch (error) {
    // parseArgs' own errors (unknown flag, missing value) carry an ERR_PARSE_ARGS_* code.
    if (!String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS")) throw error;
    process.stderr.write(`${(error as Error).message}\n\n${usage}\n`);
    process.exit(2);
  }
}
