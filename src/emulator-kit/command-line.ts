/**
 * Reading an emulator's command line: `--flag value` and `--flag=value`, numbers checked, comma
 * lists; anything wrong is a UsageError whose message names the flag, which the command prints
 * above its usage text.
 */

/** A command line the emulator cannot run with; the message says why, naming the flag. */
export class UsageError extends Error {}

/** One option as the command line holds it, with readers for its value. */
export interface CommandLineOption {
  /** The flag without an inline value: `--port` for both `--port 80` and `--port=80`. */
  readonly flag: string;
  /** The argument as given. */
  readonly arg: string;
  /** The option's value: inline after `=`, else the next argument (which must not be a flag). */
  value(): string;
  /** The value as a number that passes `check`. */
  number(check: (n: number) => boolean): number;
  /** The value as a comma-separated list, empty elements dropped. */
  list(): string[];
  /** The error for a flag the command does not know. */
  unknown(): UsageError;
}

/**
 * Walks `argv`, handing each option to `onOption` (which reads its value, if it takes one).
 * Stops at `--help` or `-h`: then the result's `help` is true and the rest is not read.
 */
export function readCommandLine(
  argv: readonly string[],
  onOption: (option: CommandLineOption) => void,
): { help: boolean } {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    if (flag === "--help" || flag === "-h") return { help: true };
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || (inline === undefined && v.startsWith("--")))
        throw new UsageError(`${flag} needs a value`);
      return v;
    };
    onOption({
      flag,
      arg,
      value,
      number(check) {
        const text = value();
        const n = Number(text);
        if (text === "" || !Number.isFinite(n) || !check(n))
          throw new UsageError(`invalid value for ${flag}: ${text}`);
        return n;
      },
      list: () =>
        value()
          .split(",")
          .filter((element) => element !== ""),
      unknown: () => new UsageError(`unknown option: ${arg}`),
    });
  }
  return { help: false };
}

/** The options every emulator takes, with the same flags and meaning. */
export interface CommonEmulatorOptions {
  port?: number;
  host?: string;
  dataFile?: string;
  user?: string;
  password?: string;
  bootSeconds?: number;
  failNodes?: readonly string[];
  hangNodes?: readonly string[];
}

/**
 * Reads `option` into `options` when it is one every emulator takes (`--port`, `--host`,
 * `--data`, `--user`, `--password`, `--boot-seconds`, `--fail-nodes`, `--hang-nodes`);
 * false when it is not, for the emulator's own flags.
 */
export function readCommonOption(option: CommandLineOption, options: CommonEmulatorOptions): boolean {
  switch (option.flag) {
    case "--port":
      options.port = option.number((n) => Number.isInteger(n) && n >= 0 && n <= 65535);
      return true;
    case "--host":
      options.host = option.value();
      return true;
    case "--data":
      options.dataFile = option.value();
      return true;
    case "--user":
      options.user = option.value();
      return true;
    case "--password":
      options.password = option.value();
      return true;
    case "--boot-seconds":
      options.bootSeconds = option.number((n) => n >= 0);
      return true;
    case "--fail-nodes":
      options.failNodes = option.list();
      return true;
    case "--hang-nodes":
      options.hangNodes = option.list();
      return true;
    default:
      return false;
  }
}
