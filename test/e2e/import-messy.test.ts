/**
 * Import of a realistically messy cluster (issue #27: two racks of 12 nodes, regex group values,
 * site settings of the admin's own, typos, a duplicate IP and MAC), through the real engine: the
 * program keeps the admin's site values and leaves out unchanged defaults, names what looks wrong
 * by node without changing it, writes each rack as a loop with the odd nodes as overrides, keeps
 * every line within 120 columns, adopts everything without a write and previews clean.
 *
 * The same cluster imported with `--language yaml` (issue #38 item 5): each rack one NodeSet with
 * its nodes' own values in inventory/<rack>.csv, a Pulumi.yaml of at most 80 lines, the node
 * outside its rack's groups a Node, no password in any file; its first `up` through the native
 * provider sends no write either, and the next preview has no changes.
 */
import { existsSync, symlinkSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { run as importCluster } from "../../src/cli/import/run";
import { XcatClient } from "../../src/client";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { MESSY, seedMessyCluster } from "./support/messy-cluster";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const XCAT_PASSWORD = "messy-e2e";

function writes(emulator: RunningEmulator): Record<string, number> {
  return Object.fromEntries(
    Object.entries(emulator.stats().byRoute).filter(
      ([route]) => /^(POST|PUT|DELETE|PATCH) /.test(route) && route !== "POST /tokens",
    ),
  );
}

describe("pulumi-xcat import of a messy cluster", () => {
  let emulator: RunningEmulator;
  let out: string;
  let workspace: PulumiWorkspace;
  let program: string;
  let readme: string;
  let output = "";

  beforeAll(async () => {
    emulator = await startEmulator({ password: XCAT_PASSWORD });
    const admin = new XcatClient({ url: emulator.url, username: "root", password: XCAT_PASSWORD });
    await seedMessyCluster(admin);
    await admin.close();
    out = await mkdtemp(join(tmpdir(), "pulumi-xcat-import-messy-"));
    process.env.XCAT_PASSWORD = XCAT_PASSWORD;
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      output += String(chunk);
      return write(chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      expect(await importCluster(["--url", emulator.url, "--username", "root", "--out", out])).toBe(0);
    } finally {
      process.stderr.write = write;
      delete process.env.XCAT_PASSWORD;
    }
    program = await readFile(join(out, "index.ts"), "utf8");
    readme = await readFile(join(out, "README.md"), "utf8");
    workspace = await PulumiWorkspace.create({ programDir: out, sandboxDir: inject("e2eSandbox") });
    await workspace.setConfigs(
      { "xcat:url": emulator.url, "xcat:username": "root" },
      { "xcat:password": XCAT_PASSWORD },
    );
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
    if (out) await rm(out, { recursive: true, force: true });
  });

  it("keeps the admin's site values and leaves out the unchanged defaults, saying so", () => {
    for (const [key, value] of Object.entries(MESSY.site)) {
      expect(program).toContain(`{ name: "${key}", value: "${value}" }`);
    }
    expect(program).not.toContain('"db2installloc"');
    expect(program).not.toContain('"blademaxp"');
    expect(program).not.toContain("grouptype");
    expect(output).toMatch(/left out: \d+ site settings that hold the value xcatconfig gives/);
    expect(readme).toMatch(/- \d+ policy rows exactly as xcatconfig creates them/);
    expect(readme).toContain("--include-defaults");
  });

  it("lists the duplicate IP, the duplicate MAC, the undefined group and the malformed bmc by node", () => {
    const expected = [
      `duplicate ip ${MESSY.duplicateIp.value}: ${MESSY.duplicateIp.nodes.join(", ")}`,
      `duplicate mac ${MESSY.duplicateMac.value}: ${MESSY.duplicateMac.nodes.join(", ")}`,
      `group '${MESSY.undefinedGroup.group}' is named by ${MESSY.undefinedGroup.node} but defined nowhere (did you mean '${MESSY.undefinedGroup.closest}'?)`,
      `${MESSY.malformedBmc.node}: bmc=${MESSY.malformedBmc.value} looks like a mistyped IP address`,
      `${MESSY.mistypedNic.node}: installnic=${MESSY.mistypedNic.value} does not look like an interface name`,
    ];
    for (const text of expected) {
      expect(output).toContain(text);
      expect(readme).toContain(text);
    }
  });

  it("writes each rack as a loop, the odd nodes as overrides, no line over 120 columns", () => {
    expect(program).toContain("for (const run of computeRuns)");
    expect(program).toContain('{ prefix: "r01n", first: 1, last: 12, groups: ["compute","rack01","all"]');
    expect(program).toContain('{ prefix: "r02n", first: 1, last: 12, groups: ["compute","rack02","all"]');
    expect(program).toContain(
      `${MESSY.malformedBmc.node}: { attributes: { bmc: "${MESSY.malformedBmc.value}" } },`,
    );
    expect(program).toContain(
      `${MESSY.mistypedNic.node}: { attributes: { installnic: "${MESSY.mistypedNic.value}" } },`,
    );
    expect(program).not.toMatch(/new xcat\.Node\("r0/); // no node written one by one
    expect(program.split("\n").filter((line) => line.length > 120)).toEqual([]);
  });

  it("pins @pulumi/pulumi to the range the package supports", async () => {
    const generated = JSON.parse(await readFile(join(out, "package.json"), "utf8"));
    const own = JSON.parse(await readFile(join(import.meta.dirname, "../../package.json"), "utf8"));
    expect(generated.dependencies["@pulumi/pulumi"]).toBe(own.peerDependencies["@pulumi/pulumi"]);
  });

  it("the first up sends no write and the next preview has no changes", async () => {
    const snapshot = emulator.state.snapshot();
    const before = writes(emulator);
    const changes = await workspace.up();
    expect(Object.keys(changes)).toEqual(["create"]);
    expect(writes(emulator)).toEqual(before);
    expect(emulator.state.snapshot()).toBe(snapshot);
    const preview = await workspace.preview(["--expect-no-changes"]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
  });
});

/** PATH without any folder holding a pulumi-resource-xcat: the YAML program finds its plugin by path. */
const pathWithoutPlugin = () =>
  (process.env.PATH ?? "")
    .split(":")
    .filter((dir) => dir !== "" && !existsSync(join(dir, "pulumi-resource-xcat")))
    .join(":");

describe("pulumi-xcat import --language yaml of the messy cluster: a NodeSet per rack", () => {
  let emulator: RunningEmulator;
  let out: string;
  let program: string;
  const inventory: Record<string, string> = {};

  beforeAll(async () => {
    emulator = await startEmulator({ password: XCAT_PASSWORD });
    const admin = new XcatClient({ url: emulator.url, username: "root", password: XCAT_PASSWORD });
    await seedMessyCluster(admin);
    await admin.close();
    out = await mkdtemp(join(inject("e2eSandbox"), "import-messy-yaml-"));
    const saved = { ...process.env };
    Object.assign(process.env, { XCAT_URL: emulator.url, XCAT_USERNAME: "root", XCAT_PASSWORD });
    try {
      expect(await importCluster(["--out", out, "--language", "yaml"])).toBe(0);
    } finally {
      process.env = saved;
    }
    program = await readFile(join(out, "Pulumi.yaml"), "utf8");
    for (const file of await readdir(join(out, "inventory")))
      inventory[file] = await readFile(join(out, "inventory", file), "utf8");
  });

  afterAll(async () => {
    await emulator?.close();
  });

  it("writes one NodeSet per rack, the nodes' own values in its CSV, in at most 80 lines", () => {
    expect(program.split("\n").length - 1).toBeLessThanOrEqual(80);
    expect(program.split("\n").filter((line) => line.length > 120)).toEqual([]);
    expect(program).toContain(
      '  rack01-nodes:\n    type: xcat:index:NodeSet\n    properties: { groups: [compute, rack01, all], csv: { "fn::readFile": ./inventory/rack01.csv }',
    );
    expect(Object.keys(inventory).sort()).toEqual(["rack01.csv", "rack02.csv"]);
    // Only the values of the node's own: ip and bmc come from the rack group's regex, except where
    // the node set its own (the duplicate ip, the malformed bmc).
    expect(inventory["rack01.csv"]?.split("\n").slice(0, 2)).toEqual([
      "node,bmc,ip,mac",
      "r01n01,,,52:54:00:01:00:01",
    ]);
    expect(inventory["rack01.csv"]).toContain(`${MESSY.duplicateIp.nodes[1]},,${MESSY.duplicateIp.value},`);
    expect(inventory["rack01.csv"]).toContain(`${MESSY.malformedBmc.node},${MESSY.malformedBmc.value},,`);
    expect(inventory["rack02.csv"]).toContain(`${MESSY.mistypedNic.node},${MESSY.mistypedNic.value},`);
    // The node in the undefined group `rack1` shares no rack's groups: a Node of its own.
    expect(inventory["rack02.csv"]).not.toContain(MESSY.undefinedGroup.node);
    expect(program).toContain(`  ${MESSY.undefinedGroup.node}:\n    type: xcat:index:Node\n`);
    for (const text of [program, ...Object.values(inventory)]) expect(text).not.toContain(XCAT_PASSWORD);
  });

  it("the YAML program's first up sends no write and the next preview has no changes", async () => {
    const sandbox = inject("e2eSandbox");
    const workspace = await PulumiWorkspace.create({
      programDir: out,
      sandboxDir: sandbox,
      env: { PATH: pathWithoutPlugin() },
    });
    try {
      symlinkSync(join(sandbox, "node_modules"), join(workspace.programDir, "node_modules"), "dir");
      await workspace.setConfigs(
        { "xcat:url": emulator.url, "xcat:username": "root" },
        { "xcat:password": XCAT_PASSWORD },
      );
      const snapshot = emulator.state.snapshot();
      const before = writes(emulator);
      const changes = await workspace.up();
      expect(Object.keys(changes)).toEqual(["create"]);
      expect(writes(emulator)).toEqual(before);
      expect(emulator.state.snapshot()).toBe(snapshot);
      const preview = await workspace.preview(["--expect-no-changes"]);
      expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
      expect(writes(emulator)).toEqual(before);
    } finally {
      await workspace.dispose();
    }
  });
});
