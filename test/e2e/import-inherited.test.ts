/**
 * Import of a cluster whose groups carry postscripts and whose nodes were deployed (issue #36
 * item 5), through the real engine. lsdef shows every node's scripts with the xcatdefaults ones in
 * front (`syslog,remoteshell,syncfiles,…`, xcat-behavior.md §5.2) and its group's after them, and
 * after `nodeset osimage=` the image's os/arch/profile on the node (destiny.pm:294-319) and a
 * boot state. The program written declares none of those on a node: the defaults stay xCAT's, the
 * scripts the group's, os/arch/profile follow provmethod. The first `up` writes nothing and
 * `preview --refresh --expect-no-changes` passes; a node copied in the program to a new name
 * (the block of an imported node, renamed) gets its scripts once, not the defaults twice, and
 * converges in one `up`.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { run as importCluster } from "../../src/cli/import/run";
import { XcatClient } from "../../src/client";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const XCAT_PASSWORD = "inherited-e2e";
/** A fresh management node's xcatdefaults row (src/contract/fresh-management-node.ts). */
const DEFAULTS = "syslog,remoteshell,syncfiles";
const IMAGE = "rocky9.4-x86_64-netboot-compute";

function writes(emulator: RunningEmulator): Record<string, number> {
  return Object.fromEntries(
    Object.entries(emulator.stats().byRoute).filter(
      ([route]) => /^(POST|PUT|DELETE|PATCH) /.test(route) && route !== "POST /tokens",
    ),
  );
}

describe("pulumi-xcat import of inherited scripts and deployed nodes", () => {
  let emulator: RunningEmulator;
  let admin: XcatClient;
  let out: string;
  let workspace: PulumiWorkspace;
  let program: string;

  beforeAll(async () => {
    emulator = await startEmulator({ password: XCAT_PASSWORD });
    admin = new XcatClient({ url: emulator.url, username: "root", password: XCAT_PASSWORD });
    await admin.osimages.create(IMAGE, {
      imagetype: "linux",
      provmethod: "netboot",
      profile: "compute",
      osvers: "rocky9.4",
      osarch: "x86_64",
      osname: "Linux",
    });
    await admin.groups.update("compute", {
      mgt: "ipmi",
      netboot: "xnba",
      postscripts: "confignetwork,setupntp",
    });
    await admin.groups.update("login", { mgt: "ipmi", postscripts: "confignetwork" });
    for (let n = 1; n <= 4; n++) {
      await admin.nodes.create(`cn0${n}`, {
        groups: "compute,all",
        ip: `10.0.0.${n}`,
        mac: `52:54:00:00:00:0${n}`,
      });
    }
    // The login node's own scripts replace its group's (a node's own row wins).
    await admin.nodes.create("login01", { groups: "login,all", ip: "10.0.9.1", postscripts: "loginsetup" });
    // What a Deployment sends: nodeset points the nodes at the image.
    await admin.nodes.setBootstate("cn01,cn02,cn03,cn04", { osimage: IMAGE });
    const cn01 = await admin.nodes.get("cn01");
    expect(cn01).toMatchObject({
      postscripts: `${DEFAULTS},confignetwork,setupntp`,
      provmethod: IMAGE,
      os: "rocky9.4",
      arch: "x86_64",
      profile: "compute",
    });
    expect((await admin.nodes.get("login01")).postscripts).toBe(`${DEFAULTS},loginsetup`);

    out = await mkdtemp(join(tmpdir(), "pulumi-xcat-import-inherited-"));
    process.env.XCAT_PASSWORD = XCAT_PASSWORD;
    try {
      expect(await importCluster(["--url", emulator.url, "--username", "root", "--out", out])).toBe(0);
    } finally {
      delete process.env.XCAT_PASSWORD;
    }
    program = await readFile(join(out, "index.ts"), "utf8");
    workspace = await PulumiWorkspace.create({ programDir: out, sandboxDir: inject("e2eSandbox") });
    await workspace.setConfig("xcat:url", emulator.url);
    await workspace.setConfig("xcat:username", "root");
    await workspace.setConfig("xcat:password", XCAT_PASSWORD, { secret: true });
  });

  afterAll(async () => {
    await workspace?.dispose();
    await admin?.close();
    await emulator?.close();
    if (out) await rm(out, { recursive: true, force: true });
  });

  it("writes no node's inherited or default scripts, and no value nodeset derived from the image", () => {
    expect(program).not.toContain("syslog");
    expect(program).not.toContain("otherpkgs");
    // The group's scripts live on the group, once; the login node's own on it alone.
    expect(program.match(/confignetwork,setupntp/g)).toHaveLength(1);
    expect(program).toMatch(/new xcat\.Node\(\s*"login01",[^;]*postscripts: "loginsetup"/s);
    expect(program).toContain("provmethod: rocky94X8664NetbootCompute.name");
    // The image keeps its profile, osvers and osarch; the nodes name the image and no more.
    const starts = ["// Regular runs", "// Nodes that follow"].map((text) => program.indexOf(text));
    const nodes = program.slice(Math.min(...starts.filter((at) => at >= 0)));
    expect(nodes).toContain("new xcat.Node");
    expect(nodes).not.toMatch(/\b(os|arch|profile|currstate|status): "/);
  });

  it("the first up writes nothing and preview --refresh --expect-no-changes passes", async () => {
    const before = writes(emulator);
    const snapshot = emulator.state.snapshot();
    const changes = await workspace.up();
    expect(Object.keys(changes)).toEqual(["create"]);
    expect(writes(emulator)).toEqual(before);
    expect(emulator.state.snapshot()).toBe(snapshot);
    const preview = await workspace.preview(["--refresh", "--expect-no-changes"]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
  });

  it("a node copied to a new name gets its scripts once and converges in one up", async () => {
    // The login01 block, as written, renamed: what an admin does to add a second login node.
    const block = /new xcat\.Node\(\s*"login01",[\s\S]*?\);\n/.exec(program)?.[0];
    expect(block).toBeDefined();
    const copy = (block ?? "").replace('"login01"', '"login02"').replace("10.0.9.1", "10.0.9.2");
    await writeFile(join(workspace.programDir, "index.ts"), `${program}${copy}`);
    const changes = await workspace.up();
    expect(changes).toMatchObject({ create: 1 });
    expect((await admin.nodes.get("login02")).postscripts).toBe(`${DEFAULTS},loginsetup`);
    const preview = await workspace.preview(["--refresh", "--expect-no-changes"]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
  });

  it("the snippet `pulumi import` prints for a node holds its own values only, and previews clean with --refresh", async () => {
    const sandbox = inject("e2eSandbox");
    const native = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "programs/native-import"),
      sandboxDir: sandbox,
      // The packed package's bins first on PATH: the engine finds pulumi-resource-xcat there.
      env: { PATH: `${join(sandbox, "node_modules", ".bin")}:${process.env.PATH ?? ""}` },
    });
    try {
      await native.run([
        "config",
        "set-all",
        ...["--plaintext", `xcat:url=${emulator.url}`, "--plaintext", "xcat:username=root"],
        ...["--secret", `xcat:password=${XCAT_PASSWORD}`],
      ]);
      const generated = join(native.programDir, "generated.yaml");
      const before = writes(emulator);
      await native.run(["import", "xcat:index:Node", "cn02", "cn02", "--yes", "--out", generated]);
      expect(writes(emulator)).toEqual(before);
      const code = await readFile(generated, "utf8");
      expect(code).toContain("provmethod: rocky9.4-x86_64-netboot-compute");
      expect(code).toContain("ip: 10.0.0.2");
      // Not the defaults, not the group's scripts or mgt, not what nodeset derived, not its state.
      expect(code).not.toMatch(
        /^\s+(postscripts|postbootscripts|mgt|netboot|os|arch|profile|currstate|status):/m,
      );
      const project = join(native.programDir, "Pulumi.yaml");
      await writeFile(project, (await readFile(project, "utf8")).replace("resources: {}\n", code));
      const preview = await native.preview(["--refresh", "--expect-no-changes"]);
      expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    } finally {
      await native.dispose();
    }
  });
});
