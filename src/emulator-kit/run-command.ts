/**
 * An emulator's command: parse the command line (a failure prints the message and the usage
 * text, exit 2), `--help` prints the usage, otherwise start the emulator, print what it says
 * about itself (the first line is always `<name> listening on <url>`), and run until SIGINT or
 * SIGTERM, then close it (which flushes and releases its data file) and exit 0. Any other failure
 * is printed with the command's name, exit 1.
 */
export interface EmulatorCommand<Parsed extends { readonly help: boolean }> {
  /** The command's name, at the start of every line it prints about itself. */
  readonly name: string;
  readonly usage: string;
  parse(argv: readonly string[]): Parsed;
  /** Starts the emulator; `lines` are printed on stdout once it listens. */
  start(parsed: Parsed): Promise<{ readonly lines: readonly string[]; close(): Promise<void> }>;
}

export function runEmulatorCommand<Parsed extends { readonly help: boolean }>(
  command: EmulatorCommand<Parsed>,
  argv: readonly string[] = process.argv.slice(2),
): void {
  const run = async () => {
    let parsed: Parsed;
    try {
      parsed = command.parse(argv);
    } catch (error) {
      // A flag's value that cannot be used (a UsageError, or a --cert file that cannot be read).
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`${command.name}: ${message}\n\n${command.usage}`);
      process.exit(2);
    }
    if (parsed.help) {
      process.stdout.write(command.usage);
      return;
    }
    const emulator = await command.start(parsed);
    process.stdout.write(`${emulator.lines.join("\n")}\n`);
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      void emulator.close().then(() => process.exit(0));
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  };
  run().catch((error: unknown) => {
    process.stderr.write(`${command.name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
