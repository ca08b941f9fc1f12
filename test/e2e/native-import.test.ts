/**
 * `pulumi import` on the native provider, through the real engine with a YAML program: objects
 * made by hand (a node, a network, a site attribute, a table row) are imported by id, the engine
 * writes the program code for them (the YAML language host's GenerateProgram), and with that
 * code the next preview has no changes. Importing writes nothing to xCAT. Dynamic resources cannot
 * be imported this way (pulumi-notes.md 1.6): this is the native provider's reason to exist.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

let emulator: RunningEmulator;
let workspace: PulumiWorkspace;

function writes(): number {
  return Object.entries(emulator.stats().byRoute)
    .filter(([route]) => /^(PUT|POST|DELETE) /.test(route) && route !== "POST /tokens")
    .reduce((sum, [, count]) => sum + count, 0);
}

beforeAll(async () => {
  emulator = await startEmulator();
  const admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
  await admin.nodes.create("handmade01", { groups: "compute,all", mgt: "ipmi", ip: "10.0.0.77" });
  await admin.networks.create("net9", { net: "10.9.0.0", mask: "255.255.0.0", gateway: "10.9.0.1" });
  await admin.globalconf.setAttrs({ domain: "hand.example.org" });
  await admin.tables.setRows(
    "routes",
    { routename: "storage" },
    { net: "10.2.0.0", mask: "255.255.0.0", gateway: "10.0.0.254" },
  );
  await admin.close();
  const sandbox = inject("e2eSandbox");
  workspace = await PulumiWorkspace.create({
    programDir: resolve(import.meta.dirname, "programs/native-import"),
    sandboxDir: sandbox,
    env: { PATH: `${join(sandbox, "node_modules", ".bin")}:${process.env.PATH ?? ""}` },
  });
  await workspace.setConfig("xcat:url", emulator.url);
  await workspace.setConfig("xcat:username", "root");
  await workspace.setConfig("xcat:password", EMULATOR_DEFAULT_PASSWORD, { secret: true });
});

afterAll(async () => {
  await workspace?.dispose();
  await emulator?.close();
});

describe("pulumi import on the native provider", () => {
  it("imports hand-made objects by id, and with the generated code the next preview has no changes", async () => {
    const importFile = join(workspace.programDir, "import.json");
    writeFileSync(
      importFile,
      JSON.stringify({
        resources: [
          { type: "xcat:index:Node", name: "handmade01", id: "handmade01" },
          { type: "xcat:index:Network", name: "net9", id: "net9" },
          { type: "xcat:index:GlobalConfAttribute", name: "domain-setting", id: "domain" },
          { type: "xcat:index:TableRow", name: "route-storage", id: "routes:routename=storage" },
        ],
      }),
    );
    const generated = join(workspace.programDir, "generated.yaml");
    const before = writes();
    await workspace.run(["import", "--file", importFile, "--yes", "--out", generated]);
    expect(writes()).toBe(before);
    expect(await workspace.lastChanges()).toEqual({ import: 4, create: 1 });

    const code = readFileSync(generated, "utf8");
    expect(code).toMatch(/handmade01:\n\s+type: xcat:(index:)?Node/);
    const project = join(workspace.programDir, "Pulumi.yaml");
    writeFileSync(project, readFileSync(project, "utf8").replace("resources: {}\n", code));

    const preview = await workspace.preview();
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    expect(preview.changeSummary.same).toBe(5);
  }, 120_000);
});
