/**
 * What the reliability tests share: the objects examples/scale declares, a comparison of the
 * emulator's data with them that names every difference, a workspace set up for that program,
 * and searches of everything the engine printed.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { resolve } from "node:path";
import { expect, inject } from "vitest";
import type { RunningEmulator } from "../../../src/emulator";
import { type PulumiCommandResult, PulumiWorkspace, type StateResource } from "../support/pulumi-workspace";

export const REST_PASSWORD = "rest-pw-71c4e0b9";
export const BMC_PASSWORD = "bmc-pw-2d8f61aa";
export const NODE_TYPE = "pulumi-nodejs:dynamic/xcat:Node";

/** The attributes examples/scale gives node number `i` (mirrors its index.ts). */
export function scaleNode(i: number, bmcPassword?: string): Record<string, string> {
  const host = `${Math.floor(i / 250)}.${(i % 250) + 1}`;
  const hex = (n: number) => n.toString(16).padStart(2, "0");
  return {
    groups: "scale,all",
    mgt: "ipmi",
    ip: `10.20.${host}`,
    bmc: `10.21.${host}`,
    mac: `52:54:00:14:${hex(i >> 8)}:${hex(i & 0xff)}`,
    ...(bmcPassword ? { bmcpassword: bmcPassword } : {}),
  };
}

/** Every node examples/scale declares, by name. */
export function expectedScaleNodes(
  count: number,
  options: { prefix?: string; bmcPassword?: string } = {},
): Record<string, Record<string, string>> {
  const nodes: Record<string, Record<string, string>> = {};
  for (let i = 1; i <= count; i++) {
    nodes[`${options.prefix ?? "sc"}${String(i).padStart(3, "0")}`] = scaleNode(i, options.bmcPassword);
  }
  return nodes;
}

// Every node inherits these from xCAT's `xcatdefaults` row; they are not the program's.
const INHERITED_DEFAULTS = ["postscripts", "postbootscripts"];

/** Node tables that hold one row per node; a second row for a node would be a duplicate. */
const NODE_TABLES = ["nodelist", "hosts", "nodehm", "ipmi", "mac"];

/**
 * The emulator's nodes as the program would declare them: names, and each node's attributes
 * without what it inherits from xCAT's defaults.
 */
export function emulatorNodes(emulator: RunningEmulator): Record<string, Record<string, string>> {
  const nodes: Record<string, Record<string, string>> = {};
  for (const name of emulator.state.listObjects("node")) {
    const attributes = { ...emulator.state.getObject("node", name) };
    for (const inherited of INHERITED_DEFAULTS) delete attributes[inherited];
    nodes[name] = attributes;
  }
  return nodes;
}

/** Rows of the node tables that name the same node more than once. */
export function duplicatedNodeRows(emulator: RunningEmulator): string[] {
  const duplicates: string[] = [];
  for (const table of NODE_TABLES) {
    const seen = new Map<string, number>();
    for (const row of emulator.state.getRows(table)) {
      const node = String(row.node ?? "");
      seen.set(node, (seen.get(node) ?? 0) + 1);
    }
    for (const [node, count] of seen) if (count > 1) duplicates.push(`${table}: ${node} x${count}`);
  }
  return duplicates;
}

/**
 * Asserts that the emulator holds exactly the program's nodes (none missing, none extra, no
 * duplicated rows) with exactly the program's attributes.
 */
export function expectEmulatorMatches(
  emulator: RunningEmulator,
  expected: Record<string, Record<string, string>>,
): void {
  const actual = emulatorNodes(emulator);
  const missing = Object.keys(expected).filter((name) => !(name in actual));
  const extra = Object.keys(actual).filter((name) => !(name in expected));
  expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  const differing = Object.keys(expected).filter(
    (name) => JSON.stringify(sortKeys(actual[name] ?? {})) !== JSON.stringify(sortKeys(expected[name] ?? {})),
  );
  // Show the first few differences in full rather than a 200-entry diff.
  expect(
    differing.slice(0, 3).map((name) => ({ name, actual: actual[name], expected: expected[name] })),
  ).toEqual([]);
  expect(duplicatedNodeRows(emulator)).toEqual([]);
}

/**
 * Asserts the stack's state holds each program node exactly once and no pending operations. The
 * state is read from the file backend (PulumiWorkspace.exportState, what `pulumi stack export`
 * prints) rather than by a `pulumi` process, ~0.6 s of CPU each (docs/e2e-time.md).
 */
export async function expectStateMatches(
  workspace: PulumiWorkspace,
  names: readonly string[],
): Promise<void> {
  const { text } = await workspace.exportState();
  const deployment = (JSON.parse(text) as { deployment?: Record<string, unknown> }).deployment ?? {};
  const resources = (deployment.resources as StateResource[] | undefined) ?? [];
  const ids = resources.filter((r) => r.type === NODE_TYPE).map((r) => r.id ?? "");
  expect([...ids].sort()).toEqual([...names].sort());
  expect(deployment.pending_operations ?? []).toEqual([]);
}

function sortKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** A workspace of examples/scale connected to the emulator with the test's REST password. */
export async function scaleWorkspace(
  emulator: { url: string },
  options: { nodeCount: number; bmcPassword?: string; config?: Record<string, string> },
): Promise<PulumiWorkspace> {
  const workspace = await PulumiWorkspace.create({
    programDir: resolve(import.meta.dirname, "../../../examples/scale"),
    sandboxDir: inject("e2eSandbox"),
  });
  // One `config set-all` instead of a command per key: each pulumi command costs about a second.
  const args = ["config", "set-all", "--plaintext", `xcat:url=${emulator.url}`];
  args.push("--plaintext", "xcat:username=root", "--secret", `xcat:password=${REST_PASSWORD}`);
  args.push("--plaintext", `nodeCount=${options.nodeCount}`);
  if (options.bmcPassword) args.push("--secret", `bmcPassword=${options.bmcPassword}`);
  for (const [key, value] of Object.entries(options.config ?? {}))
    args.push("--plaintext", `${key}=${value}`);
  await workspace.run(args);
  return workspace;
}

/** Everything a command printed. */
export function outputOf(result: PulumiCommandResult): string {
  return `${result.stdout}\n${result.stderr}`;
}

/**
 * The "Diagnostics:" section of a command's output: each message the program or the provider
 * printed, once (the engine also shows them inline while the resources change).
 */
export function diagnosticsOf(result: PulumiCommandResult): string {
  const start = result.stdout.indexOf("\nDiagnostics:\n");
  if (start < 0) return "";
  const rest = result.stdout.slice(start + 1);
  const end = rest.search(/\n(Outputs|Resources):\n/);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The lines of a workspace's transcript that contain `needle`, with the command that printed them. */
export function transcriptLinesContaining(workspace: PulumiWorkspace, needle: string): string[] {
  return workspace.transcript.flatMap((result) =>
    outputOf(result)
      .split("\n")
      .filter((line) => line.includes(needle))
      .map((line) => `pulumi ${result.args.slice(0, 2).join(" ")}: ${line.trim()}`),
  );
}

/** Live processes whose working directory is `dir` (a program's engine, language host, providers). */
export function processesIn(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === dir) {
        found.push(`${entry} ${readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").trim()}`);
      }
    } catch {
      // Ended, or not ours to read.
    }
  }
  return found;
}
