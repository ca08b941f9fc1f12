/**
 * `pulumi-xcat pins save|check`: what review.sh runs around a reviewed plan (review-pins.ts says
 * why). `save` reads, from the stack's management node, every node attribute the plan changes and
 * writes them with the plan's checksum; `check` reads them again before `pulumi up --plan` and
 * refuses when one moved, naming node and attribute. Both only read: one
 * `GET /tables/<tables>/rows` each, however many nodes.
 *
 * Exit codes: 0 saved / every pin holds; 2 bad arguments, unreadable files or the management node
 * could not be read; 4 a pin moved, or the pins are not of this plan (review.sh's "run the review
 * again").
 */
import { readFile, writeFile } from "node:fs/promises";
import type { XcatClient } from "../../client";
import { handEditTargets } from "../review/hand-edits";
import { changedPaths, valueAt } from "../review/plan-summary";
import {
  describeGone,
  describeMoved,
  describePin,
  makePins,
  movedPins,
  PINS_VERSION,
  type Pin,
  type PinsFile,
  pinTargets,
  planChecksum,
} from "./review-pins";

/** The exit code of a pin that moved: the same as review.sh's other plan refusals. */
export const EXIT_MOVED = 4;

const HELP = `Usage: pulumi-xcat pins save <preview.json> --plan <plan.json> --out <pins.json>
       pulumi-xcat pins check <pins.json> --plan <plan.json>
       pulumi-xcat pins targets <pins.json> --plan <plan.json>

save     reads, from the stack's management node, the values xCAT holds now for every node
         attribute the plan changes, and writes them with the plan's checksum (secrets as digests)
         and the resources the plan puts back after a hand edit (seen by \`pulumi preview --refresh\`)
check    reads them again and exits ${EXIT_MOVED}, naming node and attribute, when one moved since the
         review (or the pins are of another plan); run it just before \`pulumi up --plan\`
targets  prints the URNs to refresh (\`pulumi refresh --target\`) before the apply, one a line:
         the resources the reviewed plan puts back after a hand edit

Run it where \`pulumi preview\` ran (the stack config xcat:*, else XCAT_* variables).
`;

async function readValues(
  client: XcatClient,
  pins: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<{ value: (node: string, attribute: string) => string; defined: (node: string) => boolean }> {
  const { readClusterFacts } = await import("../review/cluster-reads.js");
  const attributes = [...new Set([...pins.values()].flatMap((set) => [...set]))];
  const facts = await readClusterFacts(client, attributes);
  return {
    value: (node, attribute) => facts.value(node, attribute).value,
    defined: (node) => facts.isNode(node),
  };
}

async function withClient<T>(
  connection: Readonly<Record<string, unknown>>,
  stack: string | undefined,
  use: (client: XcatClient) => Promise<T>,
): Promise<T> {
  const { clientForStackConfig } = await import("../review/cluster-reads.js");
  const client = await clientForStackConfig(connection, stack);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

function targetsOf(pins: readonly Pin[]): Map<string, Set<string>> {
  const targets = new Map<string, Set<string>>();
  for (const pin of pins) targets.set(pin.node, (targets.get(pin.node) ?? new Set()).add(pin.attribute));
  return targets;
}

function parseArgs(argv: readonly string[]): { positional: string[]; flags: Map<string, string> } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg.startsWith("--")) {
      const [flag = "", inline] = arg.split("=", 2);
      flags.set(flag, inline ?? argv[++i] ?? "");
    } else positional.push(arg);
  }
  return { positional, flags };
}

async function save(file: string, plan: string, out: string): Promise<number> {
  const preview = JSON.parse(await readFile(file, "utf8")) as {
    config?: Record<string, unknown>;
    steps?: Array<{ urn?: unknown }>;
  };
  const refreshTargets = handEditTargets(preview, changedPaths, valueAt);
  const { stackOf } = await import("../review/cluster-reads.js");
  const connection = Object.fromEntries(
    Object.entries(preview.config ?? {}).filter(([key]) => key.startsWith("xcat:")),
  );
  const stack = stackOf(preview);
  const targets = pinTargets(preview);
  const pins =
    targets.size === 0
      ? []
      : await withClient(connection, stack, async (client) =>
          makePins(targets, (await readValues(client, targets)).value),
        );
  const written: PinsFile = {
    version: PINS_VERSION,
    planSha256: planChecksum(await readFile(plan)),
    stack,
    connection,
    pins,
    refreshTargets,
  };
  await writeFile(out, `${JSON.stringify(written, null, 2)}\n`);
  for (const pin of pins) process.stdout.write(`${describePin(pin)}\n`);
  return 0;
}

/** The pins file of `plan`, or the sentence that says why it is not (then exit {@link EXIT_MOVED}). */
async function pinsOf(file: string, plan: string): Promise<PinsFile | string> {
  const pinsFile = JSON.parse(await readFile(file, "utf8")) as PinsFile;
  if (pinsFile.version !== PINS_VERSION)
    return `${file} is of format ${pinsFile.version}, not ${PINS_VERSION}: review again.`;
  if (pinsFile.planSha256 !== planChecksum(await readFile(plan))) {
    return (
      `${file} pins the values of another review than ${plan} (its checksum differs): the plan and its pins ` +
      "must come from the same review.sh preview. Nothing was applied."
    );
  }
  return pinsFile;
}

async function targets(file: string, plan: string): Promise<number> {
  const pinsFile = await pinsOf(file, plan);
  if (typeof pinsFile === "string") {
    process.stderr.write(`${pinsFile}\n`);
    return EXIT_MOVED;
  }
  for (const urn of pinsFile.refreshTargets) process.stdout.write(`${urn}\n`);
  return 0;
}

async function check(file: string, plan: string): Promise<number> {
  const pinsFile = await pinsOf(file, plan);
  if (typeof pinsFile === "string") {
    process.stderr.write(`${pinsFile}\n`);
    return EXIT_MOVED;
  }
  if (pinsFile.pins.length === 0) return 0;
  const targets = targetsOf(pinsFile.pins);
  const read = await withClient(pinsFile.connection, pinsFile.stack, (client) => readValues(client, targets));
  const moved = movedPins(pinsFile.pins, read.value);
  if (moved.length === 0) {
    process.stdout.write(`The values the review pinned still hold (${pinsFile.pins.length}).\n`);
    return 0;
  }
  process.stderr.write(
    `Changed on the management node since the review (the plan would overwrite ${moved.length === 1 ? "it" : "them"} unseen):\n`,
  );
  for (const entry of moved) {
    const text = read.defined(entry.pin.node) ? describeMoved(entry) : describeGone(entry.pin);
    process.stderr.write(`  ${text}\n`);
  }
  process.stderr.write("Nothing was applied.\n");
  return EXIT_MOVED;
}

export async function run(argv: readonly string[]): Promise<number> {
  const [mode, ...rest] = argv;
  if (mode === "--help" || mode === "-h") {
    process.stdout.write(HELP);
    return 0;
  }
  const { positional, flags } = parseArgs(rest);
  const plan = flags.get("--plan");
  const [file] = positional;
  if ((mode !== "save" && mode !== "check" && mode !== "targets") || file === undefined || !plan) {
    process.stderr.write(`pulumi-xcat pins: bad arguments\n\n${HELP}`);
    return 2;
  }
  try {
    if (mode === "check") return await check(file, plan);
    if (mode === "targets") return await targets(file, plan);
    const out = flags.get("--out");
    if (!out) {
      process.stderr.write(`pulumi-xcat pins save: --out is required\n\n${HELP}`);
      return 2;
    }
    return await save(file, plan, out);
  } catch (error) {
    process.stderr.write(`pulumi-xcat pins ${mode}: ${(error as Error).message}\n`);
    return 2;
  }
}
