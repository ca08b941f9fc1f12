/**
 * Provisioning through the real engine (issue #13): 64 nodes deployed in batches with a failing
 * and a hanging node, the re-run retrying only those, no writes on a second up, a node powered
 * off by hand shown by refresh and restored by up, an image change, destroy with onDelete
 * offline, a zero timeout refused by check and a node that is not a node.
 */

import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";
import { onlyOnEmulator, realNode } from "./support/target";

const DEADLINE_MINUTES = "0.5";

function writes(emulator: RunningEmulator): number {
  return (
    Object.entries(emulator.stats().byRoute)
      // POST /tokens changes nothing on the cluster: it is preview's connection check (#16 item 4).
      .filter(([route]) => /^(PUT|POST|DELETE) /.test(route) && route !== "POST /tokens")
      .reduce((sum, [, count]) => sum + count, 0)
  );
}

const REAL_NODE_SKIP = onlyOnEmulator(
  "it boots 64 nodes and fails and hangs two on purpose; a real management node would contact their BMCs",
);

describe.skipIf(realNode !== undefined)(
  `Deployment and PowerState on the real engine${realNode ? ` (${REAL_NODE_SKIP})` : ""}`,
  () => {
    let emulator: RunningEmulator;
    let admin: XcatClient;
    let workspace: PulumiWorkspace;

    beforeAll(async () => {
      emulator = await startEmulator({ bootSeconds: 1, failNodes: ["c010"], hangNodes: ["c020"] });
      admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
      // As an admin defines nodes for a network boot: an address and a MAC each, and their
      // /etc/hosts entries (makehosts), so that nodeset's makedhcp gives each a fixed address.
      for (let i = 1; i <= 64; i++) {
        const n = String(i).padStart(3, "0");
        const mac = `52:54:00:00:10:${i.toString(16).padStart(2, "0")}`;
        await admin.nodes.create(`c${n}`, {
          groups: "compute,all",
          mgt: "ipmi",
          netboot: "xnba",
          ip: `10.0.10.${i}`,
          mac,
        });
      }
      await admin.nodes.makeHosts("c[001-064]");
      workspace = await PulumiWorkspace.create({
        programDir: resolve(import.meta.dirname, "../../examples/provisioning"),
        sandboxDir: inject("e2eSandbox"),
      });
      // The deadline is the whole deployment's and runs on the wall clock, as it does for users:
      // 30 s ends the hanging node's wait while leaving the 62 that boot (1 s each on the emulator)
      // time to be seen on a busy machine (6 s missed the last batch at load 25-31).
      await workspace.setConfigs(
        {
          "xcat:url": emulator.url,
          "xcat:username": "root",
          pollSeconds: "0.2",
          timeoutMinutes: DEADLINE_MINUTES,
        },
        { "xcat:password": EMULATOR_DEFAULT_PASSWORD },
      );
    });

    afterAll(async () => {
      await workspace?.dispose();
      await admin?.close();
      await emulator?.close();
    });

    it("a zero timeout is refused by check, naming the resource and field, before anything is sent", async () => {
      await workspace.setConfig("timeoutMinutes", "0");
      const before = writes(emulator);
      const result = await workspace.run(["preview"], { allowFailure: true });
      expect(result.exitCode).not.toBe(0);
      expect(`${result.stdout}${result.stderr}`).toMatch(/timeoutMinutes must be a number greater than 0/);
      expect(writes(emulator)).toBe(before);
      await workspace.setConfig("timeoutMinutes", DEADLINE_MINUTES);
    });

    it("a node that is not a node fails the deployment naming it, and nothing is deployed", async () => {
      await workspace.setConfig("nodes", "c001,ghost");
      const result = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
      expect(result.exitCode).not.toBe(0);
      expect(`${result.stdout}${result.stderr}`).toMatch(/xcat:Deployment: nodes: .*ghost/);
      expect(emulator.state.getObject("node", "c001")?.provmethod).toBeUndefined();
      await workspace.removeConfig("nodes");
    });

    it("deploys 64 nodes in batches, showing progress; a failing and a hanging node fail the resource by name", async () => {
      const result = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
      const output = `${result.stdout}${result.stderr}`;
      expect(result.exitCode).not.toBe(0);
      expect(output).toMatch(/2 of 64 node\(s\) did not boot/);
      expect(output).toMatch(/c010: failed since/);
      expect(output).toMatch(
        new RegExp(`c020: timed out after ${DEADLINE_MINUTES} min in status installing`),
      );
      // Progress lines per batch while it runs: the canary node first, then batches of 16.
      expect(output).toMatch(/xcat:Deployment c001: booted 1/);
      expect(output).toMatch(/xcat:Deployment c\[050-064\]: \S+ sent to 15 node\(s\)/);
      expect(output).toMatch(/xcat:Deployment c\[050-064\]: booted 15/);
      expect(output).toMatch(/xcat:Deployment c\[002-017\]: booted 15, failed 1/);
      const state = await workspace.exportState();
      const deployment = state.resources.find((r) => r.type.endsWith("xcat:Deployment")) as
        | { outputs?: { nodeStates?: Record<string, { deployed: boolean }> } }
        | undefined;
      const states = deployment?.outputs?.nodeStates ?? {};
      expect(Object.values(states).filter((s) => s.deployed)).toHaveLength(62);
      expect((await admin.nodes.getAttrs("c001", ["status"])).status).toBe("booted");
    });

    it("the next up retries only the failed nodes; a second up sends nothing", async () => {
      emulator.state.setBootOutcome("c010", "boot");
      emulator.state.setBootOutcome("c020", "boot");
      const c001Log = emulator.state.getHardware("c001").eventlog.length;
      await workspace.up();
      expect(await workspace.outputs()).toMatchObject({ deployed: 64, powered: 64 });
      expect(emulator.state.getHardware("c001").eventlog.length).toBe(c001Log);
      expect((await admin.nodes.getAttrs("c020", ["status"])).status).toBe("booted");

      const before = writes(emulator);
      expect(await workspace.up()).toEqual({ same: 5 });
      expect(writes(emulator)).toBe(before);
    });

    it("a node powered off by hand shows in refresh and up powers it back on, without re-installing", async () => {
      await admin.nodes.setPower("c005", "off");
      const preview = await workspace.run(["preview", "--refresh", "--diff"]);
      expect(preview.stdout).toMatch(/c005\s*:\s*"on"\s*=>\s*"off"|"c005"\s*:\s*"off"/);
      expect(emulator.state.getHardware("c005").power).toBe("off");
      await workspace.up(["--refresh"]);
      expect(emulator.state.getHardware("c005").power).toBe("on");
      expect(emulator.state.getObject("node", "c005")?.provmethod).toBe("rhels9.4-x86_64-install-compute-a");
    });

    it("an image change re-deploys every node (an update); destroy with onDelete offline takes them offline", async () => {
      await workspace.setConfigs({ image: "b", timeoutMinutes: "1" });
      // The up's own preview, then the update: one engine run.
      const { preview, changes } = await workspace.upAfterJsonPreview();
      expect(preview.changeSummary).toMatchObject({ update: 1 });
      expect(changes).toMatchObject({ update: 1 });
      expect(emulator.state.getObject("node", "c064")?.provmethod).toBe("rhels9.4-x86_64-install-compute-b");

      await workspace.setConfig("onDelete", "offline");
      await workspace.up();
      await workspace.destroy();
      expect(emulator.state.getHardware("c033").power).toBe("off");
      expect(emulator.state.getObject("node", "c033")?.currstate).toBe("offline");
    });
  },
);
