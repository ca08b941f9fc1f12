/**
 * All eight resource types through the real engine, with pulumi-xcat installed from its npm pack
 * tarball: up → preview (no changes) → a hand edit through REST → preview --refresh --diff shows
 * exactly that attribute → up restores it → destroy leaves none of the program's objects.
 * On a real management node (XCAT_E2E_URL, docs/real-xcat-e2e.md) the program's objects carry a
 * prefix of their own and the VirtualMachine is left out: a real mkvm contacts the hypervisor.
 */
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PulumiWorkspace } from "./support/pulumi-workspace";
import { type E2eTarget, startTarget } from "./support/target";

const BMC_PASSWORD = "bmc-pw-8c1e5a";
/** A secret under an ordinary attribute name (bmcusername). */
const BMC_USER = "bmc-user-3f9d27";
const XCAT_PASSWORD = "rest-pw-3f9d27";

describe("all resource types on the real engine", () => {
  let target: E2eTarget;
  let workspace: PulumiWorkspace;
  /** On a real node: no VirtualMachine, and a policy priority no one else uses. */
  let real = false;
  let p = "";
  let priority = "6.5";
  let resources = 11; // the stack and 10 resources

  beforeAll(async () => {
    target = await startTarget({ password: XCAT_PASSWORD });
    real = target.emulator === undefined;
    p = target.prefix;
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "../../examples/all-resources"),
      sandboxDir: inject("e2eSandbox"),
    });
    await target.configure(workspace);
    await workspace.setConfigs({}, { bmcPassword: BMC_PASSWORD, bmcUser: BMC_USER });
    if (real) {
      priority = `6.5${Math.floor(Math.random() * 9000 + 1000)}`;
      resources = 10;
      await workspace.setConfigs({ prefix: p, vm: "false", policyPriority: priority });
    }
  });

  afterAll(async () => {
    // On a real node, a failed test must not leave the program's objects behind (a no-op after
    // the destroy test ran).
    if (real) await workspace?.run(["destroy", "--yes", "--skip-preview"], { allowFailure: true });
    await workspace?.dispose();
    await target?.close();
  });

  it("up creates every resource", async () => {
    const changes = await workspace.up();
    expect(changes).toEqual({ create: resources });
    const outputs = await workspace.outputs();
    expect(outputs.names).toEqual({
      network: `${p}mgmt`,
      domain: `${p}domain`,
      image: `${p}rhels9-x86_64-netboot-compute`,
      group: `${p}compute`,
      node: `${p}cn001`,
      ...(real ? {} : { vm: "vm01" }),
      policy: priority,
      route: `routes:routename=${p}privnet`,
    });
    expect(outputs.nodeMgtInherited).toBe("ipmi"); // from the group
    if (!real) expect(outputs.vmDisks).toEqual(["vda"]);
    expect(await target.admin.nodes.get(`${p}cn001`)).toMatchObject({
      ip: "10.0.0.1",
      bmcusername: BMC_USER,
      bmcpassword: BMC_PASSWORD,
    });
    expect((await target.admin.globalconf.getAttrs([`${p}domain`]))[`${p}domain`]).toBe("e2e.example.org");
  });

  it("preview afterwards reports no changes and sends one request: the token that proves the connection", async () => {
    const before = target.emulator?.stats().total;
    const preview = await workspace.preview();
    expect(preview.changeSummary).toEqual({ same: resources });
    // A real node's requests cannot be counted from here; the emulator counts them.
    if (target.emulator) expect(target.emulator.stats().total - (before ?? 0)).toBe(1);
  });

  it("a wrong password fails preview once, saying where it is set; xcat:checkConnection false previews offline", async () => {
    await workspace.setConfig("xcat:password", "not-the-password", { secret: true });
    try {
      const failed = await workspace.run(["preview"], { allowFailure: true });
      const output = `${failed.stdout}\n${failed.stderr}`;
      expect(failed.exitCode).not.toBe(0);
      expect(output).toContain(`the xCAT service at ${target.url.replace(/\/xcatws\/?$/, "")}`);
      // One resource fails, the first checked; the engine shows its error in its own few places.
      expect(output).toContain("refused the account and password");
      expect(output).toMatch(/^\s*1 errored$/m);
      expect(output).not.toContain("not checked, as the connection");
      expect(output).toContain("xcat:username/xcat:password");
      expect(output).not.toContain("not-the-password");

      await workspace.setConfig("xcat:checkConnection", "false");
      const before = target.emulator?.stats().total;
      expect((await workspace.preview()).changeSummary).toEqual({ same: resources });
      if (target.emulator) expect(target.emulator.stats().total).toBe(before);
    } finally {
      await workspace.setConfigs({ "xcat:checkConnection": "true" }, { "xcat:password": target.password });
    }
  });

  it("a hand edit shows in preview --refresh --diff as exactly that attribute, and up restores it", async () => {
    await target.admin.nodes.update(`${p}cn001`, { ip: "10.0.0.99" });
    const preview = await workspace.run(["preview", "--refresh", "--diff"]);
    // The refresh part lists what drifted; the update part what up will do: only ip, back.
    const updatePart = preview.stdout.slice(preview.stdout.indexOf("(update)"));
    const planned = updatePart.split("\n").filter((line) => line.includes("=>"));
    expect(planned.map((line) => line.replace(/\s+/g, " ").trim())).toEqual([
      '~ ip : "10.0.0.99" => "10.0.0.1"',
    ]);
    expect(preview.stdout.match(/\(update\)/g)).toHaveLength(1);
    expect(preview.stdout).toMatch(/1 to update/);

    expect(await workspace.up(["--refresh"])).toMatchObject({ update: 1 });
    expect((await target.admin.nodes.get(`${p}cn001`)).ip).toBe("10.0.0.1");
    expect((await workspace.preview()).changeSummary).toEqual({ same: resources });
  });

  it("the state holds no plaintext password or token", async () => {
    // Every token the server issued to the account, the provider's among them (xCAT's token table).
    const tokens = ((await target.admin.tables.getAllRows("token")).token ?? []).map((row) =>
      String(row.tokenid),
    );
    const state = await workspace.stateFileText();
    expect(state).not.toContain(BMC_PASSWORD);
    expect(state).not.toContain(BMC_USER);
    expect(state).not.toContain(target.password);
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(state).not.toContain(token);
    const exported = await workspace.exportWithCli();
    expect(exported).not.toContain(BMC_PASSWORD);
    expect(exported).not.toContain(BMC_USER);
    expect(exported).not.toContain(target.password);
  });

  it("destroy leaves none of the program's objects", async () => {
    const { admin } = target;
    const mine = (names: readonly string[]) => names.filter((name) => name.startsWith(p));
    expect(await workspace.destroy()).toEqual({ delete: resources });
    expect(mine(await admin.nodes.list())).toEqual([]);
    expect(mine(await admin.networks.list())).toEqual([]);
    expect(mine(await admin.osimages.list())).toEqual([]);
    expect(await admin.policy.list()).not.toContain(priority);
    expect(await admin.tables.getRows("routes", { routename: `${p}privnet` })).toEqual([]);
    expect(await admin.tables.getRows("nodegroup", { groupname: `${p}compute` })).toEqual([]);
    expect((await admin.globalconf.getAttrs([`${p}domain`]))[`${p}domain`] ?? "").not.toBe("e2e.example.org");
  });
});
