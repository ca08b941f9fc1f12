/**
 * All eight resource types through the real engine, with pulumi-xcat installed from its npm pack
 * tarball: up → preview (no changes) → a hand edit through REST → preview --refresh --diff shows
 * exactly that attribute → up restores it → destroy leaves none of the program's objects.
 */
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const BMC_PASSWORD = "bmc-pw-8c1e5a";
const XCAT_PASSWORD = "rest-pw-3f9d27";

describe("all resource types on the real engine", () => {
  let emulator: RunningEmulator;
  let admin: XcatClient;
  let workspace: PulumiWorkspace;
  let tokenSeen: string | undefined;

  beforeAll(async () => {
    emulator = await startEmulator({ password: XCAT_PASSWORD });
    admin = new XcatClient({ url: emulator.url, username: "root", password: XCAT_PASSWORD });
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "../../examples/all-resources"),
      sandboxDir: inject("e2eSandbox"),
    });
    await workspace.setConfig("xcat:url", emulator.url);
    await workspace.setConfig("xcat:username", "root");
    await workspace.setConfig("xcat:password", XCAT_PASSWORD, { secret: true });
    await workspace.setConfig("bmcPassword", BMC_PASSWORD, { secret: true });
  });

  afterAll(async () => {
    await workspace?.dispose();
    await admin?.close();
    await emulator?.close();
  });

  it("up creates every resource", async () => {
    const changes = await workspace.up();
    expect(changes).toEqual({ create: 11 }); // the stack and 10 resources
    const outputs = await workspace.outputs();
    expect(outputs.names).toEqual({
      network: "mgmt",
      domain: "domain",
      image: "rhels9-x86_64-netboot-compute",
      group: "compute",
      node: "cn001",
      vm: "vm01",
      policy: "6.5",
      route: "routes:routename=privnet",
    });
    expect(outputs.nodeMgtInherited).toBe("ipmi"); // from the group
    expect(outputs.vmDisks).toEqual(["vda"]);
    expect(await admin.nodes.get("cn001")).toMatchObject({ ip: "10.0.0.1", bmcpassword: BMC_PASSWORD });
    expect((await admin.globalconf.getAttrs(["domain"])).domain).toBe("e2e.example.org");
  });

  it("preview afterwards reports no changes and sends one request: the token that proves the connection", async () => {
    const before = emulator.stats().total;
    const preview = await workspace.preview();
    expect(preview.changeSummary).toEqual({ same: 11 });
    expect(emulator.stats().total - before).toBe(1);
  });

  it("a wrong password fails preview once, saying where it is set; xcat:checkConnection false previews offline", async () => {
    await workspace.setConfig("xcat:password", "not-the-password", { secret: true });
    try {
      const failed = await workspace.run(["preview"], { allowFailure: true });
      const output = `${failed.stdout}\n${failed.stderr}`;
      expect(failed.exitCode).not.toBe(0);
      expect(output).toContain(`the xCAT service at ${emulator.url.replace(/\/xcatws\/?$/, "")}`);
      // One resource fails, the first checked; the engine shows its error in its own few places.
      expect(output).toContain("refused the account and password");
      expect(output).toMatch(/^\s*1 errored$/m);
      expect(output).not.toContain("not checked, as the connection");
      expect(output).toContain("xcat:username/xcat:password");
      expect(output).not.toContain("not-the-password");

      await workspace.setConfig("xcat:checkConnection", "false");
      const before = emulator.stats().total;
      expect((await workspace.preview()).changeSummary).toEqual({ same: 11 });
      expect(emulator.stats().total).toBe(before);
    } finally {
      await workspace.setConfig("xcat:checkConnection", "true");
      await workspace.setConfig("xcat:password", XCAT_PASSWORD, { secret: true });
    }
  });

  it("a hand edit shows in preview --refresh --diff as exactly that attribute, and up restores it", async () => {
    await admin.nodes.update("cn001", { ip: "10.0.0.99" });
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
    expect((await admin.nodes.get("cn001")).ip).toBe("10.0.0.1");
    expect((await workspace.preview()).changeSummary).toEqual({ same: 11 });
  });

  it("the state holds no plaintext password or token", async () => {
    tokenSeen = emulator.state.getRows("token").map((row) => row.tokenid)[0];
    const state = await workspace.stateFileText();
    expect(state).not.toContain(BMC_PASSWORD);
    expect(state).not.toContain(XCAT_PASSWORD);
    expect(tokenSeen).toBeDefined();
    expect(state).not.toContain(String(tokenSeen));
    const exported = (await workspace.exportState()).text;
    expect(exported).not.toContain(BMC_PASSWORD);
    expect(exported).not.toContain(XCAT_PASSWORD);
  });

  it("destroy leaves none of the program's objects", async () => {
    const site = await admin.globalconf.getAttrs(["domain"]);
    expect(await workspace.destroy()).toEqual({ delete: 11 });
    expect(await admin.nodes.list()).toEqual([]);
    expect(await admin.networks.list()).toEqual([]);
    expect(await admin.osimages.list()).toEqual([]);
    expect(await admin.policy.list()).not.toContain("6.5");
    expect(await admin.tables.getRows("routes", { routename: "privnet" })).toEqual([]);
    expect(await admin.tables.getRows("nodegroup", { groupname: "compute" })).toEqual([]);
    expect((await admin.globalconf.getAttrs(["domain"])).domain).not.toBe(site.domain);
  });
});
