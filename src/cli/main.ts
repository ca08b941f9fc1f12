#!/usr/bin/env node
/**
 * pulumi-xcat: the command-line tools shipped with the package. Each subcommand lives in its own
 * folder under src/cli and is loaded only when it is asked for, so `pulumi-xcat review` does not
 * pay for loading the client, and `--help` answers at once.
 *
 * This layer sits above the client and the provider: it may use both; neither imports it.
 */
import { unsupportedNodeSentence } from "../supported-node";
import { type CliCommand, commands } from "./commands";

function usage(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return [
    "Usage: pulumi-xcat <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run `pulumi-xcat <command> --help` for a command's options.",
    "",
  ].join("\n");
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  const command: CliCommand | undefined = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    process.stderr.write(`pulumi-xcat: unknown command '${name}'.\n\n${usage()}`);
    return 2;
  }
  const tooOld = unsupportedNodeSentence("pulumi-xcat");
  if (tooOld !== undefined) {
    process.stderr.write(`${tooOld}\n`);
    return 1;
  }
  const module = await command.load();
  return module.run(rest);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`pulumi-xcat: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
