/**
 * The subcommands of `pulumi-xcat`, one row each. A subcommand's module exports
 * `run(argv): Promise<number>` (the exit code) and prints its own `--help`.
 */

/** What a subcommand module offers. */
export interface CliCommandModule {
  run(argv: readonly string[]): Promise<number>;
}

export interface CliCommand {
  readonly name: string;
  /** One line for `pulumi-xcat --help`. */
  readonly summary: string;
  readonly load: () => Promise<CliCommandModule>;
}

export const commands: readonly CliCommand[] = [
  {
    name: "import",
    summary: "write a Pulumi program from a live xCAT (adopts every object as it is)",
    load: () => import("./import/run.js"),
  },
  {
    name: "review",
    summary: "summarize `pulumi preview --json` by what changes, nodes as noderanges",
    load: () => import("./review/review-command.js"),
  },
  {
    name: "drift",
    summary: "report what was changed by hand and what no resource manages (a refresh preview)",
    load: () => import("./drift/drift-command.js"),
  },
  {
    name: "view",
    summary: "draw the stack's management node as racks in the browser, live, or as a picture (--snapshot)",
    load: () => import("./view/view-command.js"),
  },
  {
    name: "pins",
    summary: "pin the cluster values a reviewed plan changes, and check them again before the apply",
    load: () => import("./pins/pins-command.js"),
  },
];
