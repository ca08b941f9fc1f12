/**
 * `pulumi import` in a TypeScript program, through the real engine (issue #36, support matrix N6).
 * The dynamic classes cannot be imported by the engine (it sends no provider code with an import,
 * Pulumi issue #16175); the native classes, `pulumi-xcat/native` (the Node.js SDK generated from
 * the native provider's schema, served by pulumi-resource-xcat), can. One stack on a fresh
 * emulator, in order: a program with both APIs goes up; objects made by hand (a node with a BMC
 * password, a group, a network, a second node) are imported by id, one alone and three with
 * `--file`; the code the engine prints compiles against the packed package and, added to the
 * program, gives a clean preview and an `up` that sends no write; a wrong id fails naming the
 * resource and the id.
 *
 * The code is printed by the Node.js language host's GenerateProgram: the one built here
 * (v3.68.0) has none, and tools/policy-plugin-host answers it as Pulumi's own v3.259.0 host does.
 */
import { execFile } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const run = promisify(execFile);
const BMC_PASSWORD = "handmade-bmc-7341";

let emulator: RunningEmulator;
let workspace: PulumiWorkspace;

/** Requests that change something on the emulator (a token is no change). */
function writes(): number {
  return Object.entries(emulator.stats().byRoute)
    .filter(([route]) => /^(PUT|POST|DELETE) /.test(route) && route !== "POST /tokens")
    .reduce((sum, [, count]) => sum + count, 0);
}

/** Adds a file `pulumi import` wrote to the program, loaded from index.ts as pasted code would run. */
function addToProgram(file: string, code: string): void {
  writeFileSync(join(workspace.programDir, `${file}.ts`), code);
  const index = join(workspace.programDir, "index.ts");
  writeFileSync(index, `${readFileSync(index, "utf8")}import "./${file}";\n`);
}

beforeAll(async () => {
  emulator = await startEmulator();
  const admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
  await admin.nodes.create("hand01", {
    groups: "compute,all",
    mgt: "ipmi",
    ip: "10.0.0.77",
    bmcpassword: BMC_PASSWORD,
  });
  await admin.nodes.create("hand02", { groups: "compute,all", mgt: "ipmi", ip: "10.0.0.78" });
  await admin.groups.update("handgrp", { mgt: "ipmi", netboot: "xnba" });
  await admin.networks.create("net9", { net: "10.9.0.0", mask: "255.255.0.0", gateway: "10.9.0.1" });
  await admin.close();
  const sandbox = inject("e2eSandbox");
  workspace = await PulumiWorkspace.create({
    programDir: resolve(import.meta.dirname, "programs/typescript-import"),
    sandboxDir: sandbox,
  });
  // The packed package as the project's own dependency, so that the plugins.providers path in
  // Pulumi.yaml (node_modules/pulumi-xcat/plugin, relative to the project) finds the plugin.
  symlinkSync(join(sandbox, "node_modules"), join(workspace.programDir, "node_modules"), "dir");
  await workspace.setConfigs(
    { "xcat:url": emulator.url, "xcat:username": "root" },
    { "xcat:password": EMULATOR_DEFAULT_PASSWORD },
  );
}, 600_000);

afterAll(async () => {
  await workspace?.dispose();
  await emulator?.close();
});

describe("pulumi import in a TypeScript program, through the native classes", () => {
  it("a program with the dynamic and the native classes goes up in one run, each through its provider", async () => {
    expect(await workspace.up()).toEqual({ create: 3 });
    const { resources } = await workspace.exportState();
    const types = resources.map((r) => r.type);
    expect(types).toContain("pulumi-nodejs:dynamic/xcat:Node");
    expect(types).toContain("xcat:index:Group");
    const admin = new XcatClient({
      url: emulator.url,
      username: "root",
      password: EMULATOR_DEFAULT_PASSWORD,
    });
    try {
      expect((await admin.nodes.get("dyn01")).ip).toBe("10.0.0.10");
      expect((await admin.groups.get("natgrp")).netboot).toBe("xnba");
    } finally {
      await admin.close();
    }
  });

  it("imports a node by id with no write, protected, its code naming pulumi-xcat/native and not its password", async () => {
    const before = writes();
    const out = join(workspace.workDir, "imported-node.ts");
    await workspace.run(["import", "xcat:index:Node", "hand01", "hand01", "--yes", "--out", out]);
    expect(writes()).toBe(before);
    const code = readFileSync(out, "utf8");
    expect(code).toContain('import * as xcat from "pulumi-xcat/native";');
    expect(code).toMatch(/new xcat\.Node\("hand01", \{/);
    expect(code).toContain("protect: true");
    expect(code).not.toContain(BMC_PASSWORD);
    addToProgram("imported-node", code);

    const { text, resources } = await workspace.exportState();
    expect(text).not.toContain(BMC_PASSWORD);
    const node = resources.find((r) => r.type === "xcat:index:Node") as
      | ({ protect?: boolean } & (typeof resources)[number])
      | undefined;
    expect(node?.id).toBe("hand01");
    expect(node?.protect).toBe(true);
  });

  it("imports a group, a network and a node with --file; the printed code compiles against the packed package", async () => {
    const file = join(workspace.workDir, "import.json");
    writeFileSync(
      file,
      JSON.stringify({
        resources: [
          { type: "xcat:index:Group", name: "handgrp", id: "handgrp" },
          { type: "xcat:index:Network", name: "net9", id: "net9" },
          { type: "xcat:index:Node", name: "hand02", id: "hand02" },
        ],
      }),
    );
    const before = writes();
    const out = join(workspace.workDir, "imported-file.ts");
    await workspace.run(["import", "--file", file, "--yes", "--out", out]);
    expect(writes()).toBe(before);
    expect(await workspace.lastChanges()).toEqual({ import: 3, same: 4 });
    const code = readFileSync(out, "utf8");
    for (const made of ['new xcat.Group("handgrp"', 'new xcat.Network("net9"', 'new xcat.Node("hand02"'])
      expect(code).toContain(made);
    addToProgram("imported-file", code);

    // Type-checked as a user's editor or ts-node would, with the package from npm pack.
    writeFileSync(
      join(workspace.programDir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "es2023",
          module: "nodenext",
          moduleResolution: "nodenext",
          skipLibCheck: true,
          noEmit: true,
        },
        files: ["index.ts"],
      }),
    );
    const tsc = join(inject("e2eSandbox"), "node_modules", "typescript", "bin", "tsc");
    await expect(
      run(process.execPath, [tsc, "-p", workspace.programDir], { cwd: workspace.programDir }),
    ).resolves.toBeDefined();
  });

  it("with the printed code in the program, preview --expect-no-changes passes and up sends no write", async () => {
    const preview = await workspace.preview(["--expect-no-changes"]);
    expect(preview.changeSummary).toEqual({ same: 7 });
    const before = writes();
    expect(await workspace.up()).toEqual({ same: 7 });
    expect(writes()).toBe(before);
    const { text } = await workspace.exportState();
    expect(text).not.toContain(BMC_PASSWORD);
  });

  it("a wrong id fails naming the resource and the id, and imports nothing", async () => {
    const result = await workspace.run(["import", "xcat:index:Node", "ghost01", "nosuchnode", "--yes"], {
      allowFailure: true,
    });
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout + result.stderr).toContain(
      `xcat:index:Node "ghost01": the server has no object with the id 'nosuchnode' to import or get`,
    );
    const { resources } = await workspace.exportState();
    // The engine keeps no fixed order between resources imported in one run.
    expect(
      resources
        .filter((r) => r.type === "xcat:index:Node")
        .map((r) => r.id)
        .sort(),
    ).toEqual(["hand01", "hand02"]);
  });
});
