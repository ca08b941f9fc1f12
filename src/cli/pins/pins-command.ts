/**
 * `pulumi-xcat pins save|check`: what review.sh runs around a reviewed plan (review-pins.ts says
 * why). `save` reads every node attribute the plan changes from the management node the node's
 * resource writes to (the stack's own, an explicit provider's, a `connection`'s) and writes them
 * with the plan's checksum; `check` reads them again before `pulumi up --plan` and refuses when
 * one moved, naming node, management node and attribute. Both only read: on xCAT one
 * `GET /tables/<tables>/rows` per management node, however many nodes (node-values.ts).
 *
 * Exit codes: 0 saved / every pin holds; 2 bad arguments, unreadable files or the management node
 * could not be read; 4 a pin moved, or the pins are not of this plan (review.sh's "run the review
 * again").
 */
import { readFile, writeFile } from "node:fs/promises";
import { compareStrings } from "../../contract/noderange";
import type { ProviderSettings } from "../../provider/config";
import { handEditTargets } from "../review/hand-edits";
import { changedPaths, valueAt } from "../review/plan-summary";
import { describeManagementNode, nameOfUrn, STACK_MANAGEMENT_NODE } from "../stack-resources";
import {
  describeGone,
  describeMoved,
  describePin,
  makePins,
  movedPins,
  nodesOf,
  PINS_VERSION,
  type Pin,
  type PinnedManagementNode,
  type PinsFile,
  type PinTarget,
  pinsByManagementNode,
  pinTargets,
  planChecksum,
} from "./review-pins";

/** The exit code of a pin that moved: the same as review.sh's other plan refusals. */
export const EXIT_MOVED = 4;

const HELP = `Usage: pulumi-xcat pins save <preview.json> --plan <plan.json> --out <pins.json>
       pulumi-xcat pins check <pins.json> --plan <plan.json>
       pulumi-xcat pins targets <pins.json> --plan <plan.json>

save     reads, from the management node of each node's resource (the stack's, an explicit
         provider's, a connection's), the values it holds now for every node attribute the plan
         changes, and writes them with the plan's checksum (secrets as digests)
         and the resources the plan puts back after a hand edit (seen by \`pulumi preview --refresh\`)
check    reads them again and exits ${EXIT_MOVED}, naming node and attribute, when one moved since the
         review (or the pins are of another plan); run it just before \`pulumi up --plan\`
targets  prints the URNs to refresh (\`pulumi refresh --target\`) before the apply, one a line:
         the resources the reviewed plan puts back after a hand edit

Run it where \`pulumi preview\` ran (the stack config xcat:*, else XCAT_* variables; explicit
providers' and connections' accounts are read from the stack's state, as \`pulumi stack export
--show-secrets\` shows them).
`;

/** Reads the stack's state once, when a pin of a provider or a connection needs its credentials. */
function stateOf(stack: string | undefined): () => Promise<unknown> {
  let exported: Promise<unknown> | undefined;
  return () => {
    if (stack === undefined) return Promise.reject(new Error("the preview names no stack"));
    exported ??= import("../provider-settings.js").then(({ exportStack }) => exportStack(stack));
    return exported;
  };
}

/**
 * The settings of the management node a pin key names: the stack's own from its config (then
 * `XCAT_*`), an explicit provider's from its arguments in the state, a connection from the state
 * of the resource that holds it (provider-settings.ts; the same reads as drift and review).
 */
async function settingsOf(
  key: string,
  node: Pick<PinnedManagementNode, "route" | "resource"> | undefined,
  connection: Readonly<Record<string, unknown>>,
  stack: string | undefined,
  state: () => Promise<unknown>,
): Promise<ProviderSettings> {
  if (key === STACK_MANAGEMENT_NODE || node === undefined || node.route.via === "stack") {
    const { settingsForStackConfig } = await import("../review/cluster-reads.js");
    return settingsForStackConfig(connection, stack);
  }
  const { connectionSettings, explicitProviderSettings } = await import("../provider-settings.js");
  if (node.route.via === "provider") {
    const found = explicitProviderSettings(await state()).get(node.route.urn);
    if (found === undefined) throw new Error(`the state holds no provider ${nameOfUrn(node.route.urn)}`);
    return found;
  }
  const found = node.resource === undefined ? undefined : connectionSettings(await state(), node.resource);
  if (found === undefined) throw new Error(`the state holds no connection to ${node.route.url}`);
  return found;
}

/** A management node as messages name it, with the url and backend its settings give. */
function nameOf(target: PinTarget, settings: ProviderSettings): string {
  return describeManagementNode({
    key: "",
    route: target.route,
    ...(settings.connection ? { url: settings.connection.url } : {}),
    backend: settings.connection?.backend ?? "xcat",
  });
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
  const state = stateOf(stack);
  const pins: Pin[] = [];
  const managementNodes: Record<string, PinnedManagementNode> = {};
  // The stack's own first, then the others by key, so the file reads the same for the same plan.
  const targets = [...pinTargets(preview)].sort(([a], [b]) => compareStrings(a, b));
  for (const [key, target] of targets) {
    const settings = await settingsOf(key, target, connection, stack, state);
    const { readNodeValues } = await import("./node-values.js");
    const values = await readNodeValues(settings, target.nodes);
    pins.push(...makePins(target.nodes, values.value, key));
    if (key !== STACK_MANAGEMENT_NODE) {
      managementNodes[key] = {
        route: target.route,
        name: nameOf(target, settings),
        ...(target.resource !== undefined ? { resource: target.resource } : {}),
      };
    }
  }
  const written: PinsFile = {
    version: PINS_VERSION,
    planSha256: planChecksum(await readFile(plan)),
    stack,
    connection,
    pins,
    managementNodes,
    refreshTargets,
  };
  await writeFile(out, `${JSON.stringify(written, null, 2)}\n`);
  for (const pin of pins) process.stdout.write(`${describePin(pin, managementNodes)}\n`);
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
  const state = stateOf(pinsFile.stack);
  const lines: string[] = [];
  // Each management node is read for its own pins: a node is pinned where its resource writes.
  for (const [key, pins] of pinsByManagementNode(pinsFile.pins)) {
    const node = pinsFile.managementNodes[key];
    const settings = await settingsOf(key, node, pinsFile.connection, pinsFile.stack, state);
    const { readNodeValues } = await import("./node-values.js");
    const read = await readNodeValues(settings, nodesOf(pins));
    for (const entry of movedPins(pins, read.value)) {
      lines.push(
        read.defined(entry.pin.node)
          ? describeMoved(entry, pinsFile.managementNodes)
          : describeGone(entry.pin, pinsFile.managementNodes),
      );
    }
  }
  if (lines.length === 0) {
    process.stdout.write(`The values the review pinned still hold (${pinsFile.pins.length}).\n`);
    return 0;
  }
  process.stderr.write(
    `Changed on the management node since the review (the plan would overwrite ${lines.length === 1 ? "it" : "them"} unseen):\n`,
  );
  for (const line of lines) process.stderr.write(`  ${line}\n`);
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
