/**
 * `pulumi import` on the native provider, through the real engine with a YAML program: objects
 * made by hand (a node, a network, a site attribute, a table row) are imported by id, the engine
 * writes the program code for them (the YAML language host's GenerateProgram), and with that
 * code the next preview has no changes. Importing writes nothing to xCAT. Dynamic resources cannot
 * be imported this way (pulumi-notes.md 1.6): this is the native provider's reason to exist.
 *
 * The same hand-made cluster, read whole by `pulumi-xcat import --language yaml`, gives a YAML
 * program whose first `up` adopts everything without a write and whose next preview is clean.
 * That project finds the plugin as a user's would with the package installed beside it: through
 * `plugins.providers[].path` naming the package's `plugin/` folder, not PATH.
 */
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { run as importCluster } from "../../src/cli/import/run";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

let emulator: RunningEmulator;
let workspace: PulumiWorkspace;
const workspaces: PulumiWorkspace[] = [];
const BMC_PASSWORD = "handmade-bmc-4711";

/** PATH without any folder holding a pulumi-resource-xcat (the checkout's node_modules/.bin). */
const pathWithoutPlugin = () =>
  (process.env.PATH ?? "")
    .split(":")
    .filter((dir) => dir !== "" && !existsSync(join(dir, "pulumi-resource-xcat")))
    .join(":");

/** The packed package's bins first on PATH: the engine finds pulumi-resource-xcat there. */
const withPackedPlugin = () => ({
  PATH: `${join(inject("e2eSandbox"), "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
});

function writes(): number {
  return Object.entries(emulator.stats().byRoute)
    .filter(([route]) => /^(PUT|POST|DELETE) /.test(route) && route !== "POST /tokens")
    .reduce((sum, [, count]) => sum + count, 0);
}

beforeAll(async () => {
  emulator = await startEmulator();
  const admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
  await admin.nodes.create("handmade01", { groups: "compute,all", mgt: "ipmi", ip: "10.0.0.77" });
  await admin.nodes.create("handmade02", { groups: "compute,all", mgt: "ipmi", bmcpassword: BMC_PASSWORD });
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
    env: withPackedPlugin(),
  });
  workspaces.push(workspace);
  await workspace.setConfigs(
    { "xcat:url": emulator.url, "xcat:username": "root" },
    { "xcat:password": EMULATOR_DEFAULT_PASSWORD },
  );
});

afterAll(async () => {
  for (const ws of workspaces) await ws.dispose();
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
  });

  it("pulumi-xcat import --language yaml writes a program whose first up sends no write and whose next preview is clean", async () => {
    const sandbox = inject("e2eSandbox");
    const out = await mkdtemp(join(sandbox, "yaml-import-"));
    const saved = { ...process.env };
    Object.assign(process.env, {
      XCAT_URL: emulator.url,
      XCAT_USERNAME: "root",
      XCAT_PASSWORD: EMULATOR_DEFAULT_PASSWORD,
    });
    try {
      expect(await importCluster(["--out", out, "--language", "yaml", "--tables", "routes"])).toBe(0);
    } finally {
      process.env = saved;
    }
    const program = readFileSync(join(out, "Pulumi.yaml"), "utf8");
    expect(program).toContain("runtime: yaml");
    expect(program).toContain(
      "plugins:\n  providers:\n    - name: xcat\n      path: node_modules/pulumi-xcat/plugin\n",
    );
    expect(program).not.toContain(BMC_PASSWORD);

    const ws = await PulumiWorkspace.create({
      programDir: out,
      sandboxDir: sandbox,
      env: { PATH: pathWithoutPlugin() },
    });
    workspaces.push(ws);
    // The packed package as the project's own dependency, and the plugin found only through the
    // path (relative to the project's folder) that the generated Pulumi.yaml names.
    symlinkSync(join(sandbox, "node_modules"), join(ws.programDir, "node_modules"), "dir");
    await ws.run([
      "config",
      "set-all",
      ...["--plaintext", `xcat:url=${emulator.url}`, "--plaintext", "xcat:username=root"],
      ...["--secret", `xcat:password=${EMULATOR_DEFAULT_PASSWORD}`],
      ...["--secret", `handmade02-bmcpassword=${BMC_PASSWORD}`],
    ]);
    const before = writes();
    const changes = await ws.up();
    expect(writes()).toBe(before);
    expect(changes.create).toBeGreaterThanOrEqual(5);
    const preview = await ws.preview();
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    const { text } = await ws.exportState();
    expect(text).not.toContain(BMC_PASSWORD);
  });
});
