/**
 * `pulumi-xcat drift [--stack name] [--format text|markdown|json]`, run in a Pulumi project's
 * directory: what was changed on the management nodes outside the program, and what exists there
 * that no resource manages.
 *
 * It runs `pulumi refresh --preview-only` on the stack (the same stack selection, config,
 * backend and passphrase as `pulumi` itself; the state is not changed) and reads the engine's
 * events, then lists each management node the stack's resources are on (management-nodes.ts): the
 * stack's own (its config), each explicit `pulumi:providers:xcat` (its arguments), in five
 * requests each on xCAT, one on Confluent. Requests: what a refresh costs (the provider's reads,
 * batched) plus those and a token each.
 *
 * Exit codes: 0 no drift; 3 drift or unmanaged objects found (the summary is printed first);
 * 2 bad arguments, no stack, the refresh or the listing failed.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hasDrift, summarizeDrift } from "./drift-summary";
import { type ListedManagementNodes, listManagementNodes } from "./management-nodes";
import { parseRefreshEvents } from "./refresh-events";
import { renderDriftJson, renderDriftMarkdown, renderDriftText } from "./render-drift";
import { managedObjects } from "./unmanaged";

/** The exit code when drift or unmanaged objects are found. */
export const EXIT_DRIFT = 3;

const HELP = `Usage: pulumi-xcat drift [--stack name] [--format text|markdown|json] [--markdown file]

Run in a Pulumi project's directory. Refreshes the stack as a preview (\`pulumi refresh
--preview-only\`: the state is not changed) and reports, by noderange and attribute:
  - managed attributes changed by hand (ip on r01n[03,07]), objects deleted by hand,
  - nodes whose power or deployment no longer match their PowerState or Deployment,
  - nodes, groups, OS images, networks and policy rows on each management node of the stack
    (its config xcat:*, and each explicit pulumi:providers:xcat) that no resource on it
    manages (xcatconfig's policy rows and groups that are only names left out; nodes only on
    Confluent), with a coverage line per management node (612 of 618 nodes under code).

  --stack     the stack (default: the selected one, as for pulumi)
  --format    text (default), markdown (an issue or a note) or json
  --markdown  FILE: also write the markdown summary there (one refresh for a log and an issue)

Uses what \`pulumi\` uses: the backend (PULUMI_BACKEND_URL or pulumi login), the passphrase or
secrets provider, the stack config (xcat:url, …) and the XCAT_* variables.

Exit codes: 0 no drift, ${EXIT_DRIFT} drift or unmanaged objects found, 2 bad arguments or a failure.
`;

interface DriftArgs {
  readonly stack?: string;
  readonly format: "text" | "markdown" | "json";
  readonly markdownFile?: string;
}

function parseArgs(argv: readonly string[]): DriftArgs | string {
  let stack: string | undefined;
  let format: DriftArgs["format"] = "text";
  let markdownFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag, inline] = arg.startsWith("--") ? arg.split("=", 2) : [arg, undefined];
    const value = () => inline ?? argv[++i] ?? "";
    if (flag === "--stack" || flag === "-s") {
      stack = value();
      if (stack === "") return "--stack needs a stack name";
    } else if (flag === "--format") {
      const given = value();
      if (given !== "text" && given !== "markdown" && given !== "json")
        return `--format must be text, markdown or json, not '${given}'`;
      format = given;
    } else if (flag === "--markdown") {
      markdownFile = value();
      if (markdownFile === "") return "--markdown needs a file name";
    } else {
      return `unknown argument '${arg}'`;
    }
  }
  return {
    ...(stack !== undefined ? { stack } : {}),
    format,
    ...(markdownFile !== undefined ? { markdownFile } : {}),
  };
}

interface PulumiResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function pulumi(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<PulumiResult> {
  return new Promise((resolve) => {
    execFile(
      "pulumi",
      [...args],
      { encoding: "utf8", env, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        const missing = (error as NodeJS.ErrnoException | null)?.code === "ENOENT";
        resolve({
          code,
          stdout,
          stderr: missing ? "the `pulumi` command is not on PATH" : stderr,
        });
      },
    );
  });
}

const say = (text: string) => process.stderr.write(`pulumi-xcat drift: ${text}\n`);

/** The stack drift (or `command`) runs on: the one given, else the selected one; a sentence saying what to do when none. */
export async function resolveStack(
  given: string | undefined,
  command = "drift",
): Promise<string | { error: string }> {
  if (given !== undefined) return given;
  const shown = await pulumi(["stack", "--show-name", "--non-interactive"]);
  if (shown.code === 0 && shown.stdout.trim() !== "") return shown.stdout.trim();
  const why = shown.stderr.trim();
  if (/no Pulumi\.yaml|no Pulumi project/i.test(why)) {
    return {
      error:
        `${process.cwd()} is not in a Pulumi project (no Pulumi.yaml). Run ${command} in the project's ` +
        "directory, where you run `pulumi up`.",
    };
  }
  if (/no stack|stack select/i.test(why) || why === "") {
    return {
      error:
        "no stack is selected in this project. Select one with `pulumi stack select <name>` (`pulumi stack ls` " +
        "lists them), or pass `--stack <name>`.",
    };
  }
  return { error: `could not tell which stack is selected: ${why}` };
}

/**
 * The environment of the refresh: the event log is a flag the engine keeps for its automation API,
 * behind PULUMI_DEBUG_COMMANDS; PULUMI_SKIP_CONFIRMATIONS (common in CI) means `--yes`, which
 * the engine refuses together with `--preview-only`, and a preview confirms nothing anyway.
 */
function refreshEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { PULUMI_SKIP_CONFIRMATIONS: _yes, ...rest } = env;
  return { ...rest, PULUMI_DEBUG_COMMANDS: "true" };
}

/** Runs the refresh preview, reporting progress from its event log every 10 s (a long stack takes minutes). */
async function refreshPreview(stack: string, eventLog: string): Promise<PulumiResult> {
  const started = Date.now();
  const timer = setInterval(() => {
    readFile(eventLog, "utf8").then(
      (text) => {
        const read = text.split("resOutputsEvent").length - 1;
        say(`  ${read} resources read (${Math.round((Date.now() - started) / 1000)} s)`);
      },
      () => {},
    );
  }, 10_000);
  try {
    return await pulumi(
      ["refresh", "--preview-only", "--non-interactive", "--stack", stack, "--event-log", eventLog],
      refreshEnv(process.env),
    );
  } finally {
    clearInterval(timer);
  }
}

export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  const args = parseArgs(argv);
  if (typeof args === "string") {
    say(`${args}\n\n${HELP}`);
    return 2;
  }
  const stack = await resolveStack(args.stack);
  if (typeof stack !== "string") {
    say(stack.error);
    return 2;
  }

  const dir = await mkdtemp(join(tmpdir(), "pulumi-xcat-drift-"));
  let events: ReturnType<typeof parseRefreshEvents>;
  try {
    const eventLog = join(dir, "events.jsonl");
    say(`refreshing stack ${stack} as a preview (pulumi refresh --preview-only; the state is not changed)…`);
    const refreshed = await refreshPreview(stack, eventLog);
    events = parseRefreshEvents(await readFile(eventLog, "utf8").catch(() => ""));
    if (refreshed.code !== 0 || !events.succeeded) {
      const detail = [...events.errors, refreshed.stderr.trim()].filter(Boolean).join("\n");
      say(
        `the refresh of stack ${stack} failed, so drift cannot tell what changed:\n${detail}\n` +
          "Fix what it names (run `pulumi refresh --preview-only` to see it whole) and run drift again.",
      );
      return 2;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  say(`  ${events.steps.length} resources read; listing the management node…`);

  const managed = managedObjects(events.steps);
  let listed: ListedManagementNodes;
  try {
    listed = await listManagementNodes(stack, events, managed);
  } catch (error) {
    say(
      `listing a management node failed: ${(error as Error).message}\nThe refresh worked, so the ` +
        "stack's config, its providers' arguments or XCAT_* variables reach it from the provider; check they are set in this shell too.",
    );
    return 2;
  }
  const { unmanaged, notListed } = listed;

  const summary = summarizeDrift(events.steps, unmanaged, notListed);
  const render =
    args.format === "markdown"
      ? renderDriftMarkdown
      : args.format === "json"
        ? renderDriftJson
        : renderDriftText;
  process.stdout.write(render(summary));
  if (args.markdownFile !== undefined) await writeFile(args.markdownFile, renderDriftMarkdown(summary));
  return hasDrift(summary) ? EXIT_DRIFT : 0;
}
