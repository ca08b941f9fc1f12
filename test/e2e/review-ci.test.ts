/**
 * The CI review of a cluster change (issue #14) on the real engine: examples/ci/review.sh, the
 * script the GitHub and GitLab examples call, brings the lab up on an emulator it starts itself
 * (`review.sh base`, as CI does on the target branch), then reviews an image roll on two racks of 32
 * nodes with one node added, once with a node deleted as well (`review.sh preview`, as CI does on
 * the pull request). One `up`, previews after it.
 */
import { readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { labProgram } from "./support/lab-program";
import { PulumiWorkspace } from "./support/pulumi-workspace";
import { onlyOnEmulator, realNode } from "./support/target";

const repoRoot = resolve(import.meta.dirname, "../..");
const reviewScript = join(repoRoot, "examples/ci/review.sh");
const oldImage = "rhels9.4-x86_64-netboot-compute";
const newImage = "rhels9.5-x86_64-netboot-compute";

let workspace: PulumiWorkspace | undefined;
let programCopy: string | undefined;

afterAll(async () => {
  await workspace?.dispose();
  if (programCopy) await rm(programCopy, { recursive: true, force: true });
});

const REAL_NODE_SKIP = onlyOnEmulator(
  "review.sh brings the lab up with a Deployment of 64 nodes, which a real management node would try to boot",
);

describe.skipIf(realNode !== undefined)(
  `examples/ci/review.sh on the lab${realNode ? ` (${REAL_NODE_SKIP})` : ""}`,
  () => {
    it("reviews an image roll on 64 nodes with a node added and one deleted, counted in nodes", async () => {
      const started = Date.now();
      const sandbox = inject("e2eSandbox");
      programCopy = await labProgram(sandbox);
      const ws = await PulumiWorkspace.create({ programDir: programCopy, sandboxDir: sandbox });
      workspace = ws;
      await ws.setConfig("bmcPassword", "lab-bmc-secret", { secret: true });
      await ws.setConfig("racks", "2");
      await ws.setConfig("nodesPerRack", "32");
      await ws.setConfig("vms", "1");
      await ws.setConfig("pollSeconds", "1");
      const script = (mode: string, env: Record<string, string> = {}) =>
        ws.exec("bash", [reviewScript, mode], {
          allowFailure: true,
          // No XCAT_URL and no backend: the script starts the emulator and keeps its data and the
          // Pulumi state in .xcat-review/ for the next call, as in a CI job on the emulator.
          env: {
            XCAT_URL: "",
            PULUMI_BACKEND_URL: "",
            STACK: ws.stackName,
            XCAT_EMULATOR_BOOT_SECONDS: "1",
            ...env,
          },
        });

      const base = await script("base");
      expect(base.exitCode, `${base.stdout}\n${base.stderr}`).toBe(0);
      // The canary node first (Deployment's default canary: 1), then the rest in batches.
      expect(base.stdout).toMatch(/r01n01: .*booted 1/);
      expect(base.stdout).toMatch(/r02n\[02-32\]: .*booted 31/);

      // The pull request: the compute image rolled to rhels9.5, login02 added, the VM vm01 retired.
      await ws.setConfig("computeOs", "rhels9.5");
      await ws.setConfig("loginNodes", "2");
      await ws.setConfig("vms", "0");
      const withDelete = await script("preview", { FAIL_ON: "delete" });
      const lines = withDelete.stdout.trimEnd().split("\n");
      expect(lines, withDelete.stderr).toEqual([
        "! 1 node deleted: vm01",
        `! 1 Osimage deleted: ${oldImage}`,
        "! 1 VirtualMachine deleted: vm01",
        "! 64 nodes deployed by a Deployment: r[01-02]n[01-32]",
        "- 1 node vm01 in group vms",
        `- 1 Osimage ${oldImage}`,
        "- 1 VirtualMachine vm01",
        `~ osimage: ${oldImage} → ${newImage} on compute-image (1 Deployment)`,
        `    deploys ${newImage} (image changed): r[01-02]n[01-32] (64 nodes)`,
        `~ provmethod: ${oldImage} → ${newImage} on compute (1 Group)`,
        // Read from the emulator: each node holds the image its Deployment's nodeset wrote.
        "    reaches none of its 64 members: each sets this attribute itself or from an earlier group",
        "+ 1 node login02 in group service",
        "    login02: ip 10.0.0.21, mac 52:54:00:00:00:12, bmc 10.1.0.12",
        `+ 1 Osimage ${newImage}`,
        // Name services (issue #29): the emulated management node serves DNS (site.nameservers is its address) and DHCP.
        "= hosts, DNS, DHCP entries: login02 added",
        "= DNS, DHCP entries: vm01 removed",
        "= /etc/hosts lines stay for vm01: xCAT's REST API has no makehosts -d (run it on the management node)",
        "2 to create, 0 to adopt, 2 to update, 0 to replace, 3 to delete, 78 unchanged",
      ]);
      expect(lines.length).toBeLessThanOrEqual(19);
      // --fail-on delete: exit 3 (EXIT_DANGER) because vm01 is deleted, after writing the summary.
      expect(withDelete.exitCode, withDelete.stderr).toBe(3);
      expect(withDelete.stderr).toMatch(/planned delete \(--fail-on\)/);

      // The same pull request without the VM's delete: the old image's delete still counts, and
      // nothing else it fails on is planned.
      await ws.setConfig("vms", "1");
      const roll = await script("preview", { FAIL_ON: "replace,group,adopt,power" });
      expect(roll.exitCode, roll.stderr).toBe(0);
      expect(roll.stdout.trimEnd().split("\n")).toEqual([
        `! 1 Osimage deleted: ${oldImage}`,
        "! 64 nodes deployed by a Deployment: r[01-02]n[01-32]",
        `- 1 Osimage ${oldImage}`,
        `~ osimage: ${oldImage} → ${newImage} on compute-image (1 Deployment)`,
        `    deploys ${newImage} (image changed): r[01-02]n[01-32] (64 nodes)`,
        `~ provmethod: ${oldImage} → ${newImage} on compute (1 Group)`,
        "    reaches none of its 64 members: each sets this attribute itself or from an earlier group",
        "+ 1 node login02 in group service",
        "    login02: ip 10.0.0.21, mac 52:54:00:00:00:12, bmc 10.1.0.12",
        `+ 1 Osimage ${newImage}`,
        "= hosts, DNS, DHCP entries: login02 added",
        "2 to create, 0 to adopt, 2 to update, 0 to replace, 1 to delete, 80 unchanged",
      ]);
      const reviewDir = join(ws.programDir, ".xcat-review");
      expect(await readFile(join(reviewDir, "review.txt"), "utf8")).toBe(roll.stdout);
      const markdown = await readFile(join(reviewDir, "review.md"), "utf8");
      expect(markdown).toContain(":warning: **64** nodes deployed by a Deployment: `r[01-02]n[01-32]`");
      expect(markdown).toContain("| create xcat:Node | in group service | `login02` | 1 |");
      expect(markdown).toMatch(
        /<details><summary>[^<]+<\/summary>[\s\S]*~ xcat:Deployment compute-image: osimage/,
      );
      console.log(
        `review-ci: up and two reviewed previews in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    });
  },
);
