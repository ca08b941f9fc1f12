/**
 * `pulumi-xcat review` at real size on the real engine (issue #27 item 1, issue #22 item 1): a
 * cluster made by hand on the emulator (2 racks, group rack03 that 5 nodes inherit xcatmaster,
 * servicenode and rack from, group compute giving provmethod rocky9.3, a hand-made legacy01 with
 * ip 10.66.9.9), taken under a program (test/e2e/programs/review-cluster), then a change reviewed
 * from `pulumi preview --json`: a Deployment over 10 nodes given as a noderange, group rack03
 * dropped, provmethod set on a node that inherited it, legacy01 taken over with another ip.
 * Review reads what the preview lacks from the emulator through the stack's config (its password
 * a Pulumi secret, found with `pulumi config get`), in one request besides the token.
 */
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const PASSWORD = "review-pw-5c1d";
const pad = (n: number) => String(n).padStart(2, "0");

describe("pulumi-xcat review of a hand-made cluster's change", () => {
  let emulator: RunningEmulator;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    emulator = await startEmulator({ password: PASSWORD });
    const admin = new XcatClient({ url: emulator.url, username: "root", password: PASSWORD });
    await admin.groups.update("compute", { provmethod: "rocky9.3" });
    await admin.groups.update("rack03", { xcatmaster: "10.0.0.1", servicenode: "sn01", rack: "03" });
    for (let i = 1; i <= 10; i++) {
      // Bootable, as the Deployment's preview wants (a netboot method and a MAC).
      await admin.nodes.create(`r02n${pad(i)}`, {
        groups: "compute,rack02,all",
        ip: `10.2.0.${i}`,
        netboot: "xnba",
        mac: `52:54:00:00:02:${pad(i)}`,
      });
    }
    for (let i = 1; i <= 5; i++) {
      await admin.nodes.create(`r03n${pad(i)}`, { groups: "rack03,compute,all", ip: `10.3.0.${i}` });
    }
    await admin.nodes.create("legacy01", { groups: "legacy,all", ip: "10.66.9.9" });
    // The image the change deploys exists, as on a real cluster: preview checks it (a read).
    await admin.osimages.create("rocky9.4-x86_64-netboot-compute", {
      imagetype: "linux",
      provmethod: "netboot",
      osvers: "rocky9.4",
      osarch: "x86_64",
      profile: "compute",
    });
    await admin.close();
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "programs/review-cluster"),
      sandboxDir: inject("e2eSandbox"),
    });
    await workspace.setConfigs(
      { "xcat:url": emulator.url, "xcat:username": "root", stage: "base" },
      { "xcat:password": PASSWORD },
    );
    await workspace.up();
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
  });

  it("counts the Deployment, the group delete, the inherited value and the takeover in nodes", async () => {
    await workspace.setConfig("stage", "change");
    const plain = await workspace.run(["preview"]);
    // Plain preview (no --diff) names the takeover and what it changes.
    expect(`${plain.stdout}\n${plain.stderr}`).toContain(
      "xcat:Node: takes over the existing node 'legacy01', changing ip: 10.66.9.9 → 10.66.0.6",
    );
    const json = await workspace.run(["preview", "--json"]);
    const file = join(workspace.programDir, "plan.json");
    await writeFile(file, json.stdout);
    // XCAT_PASSWORD left empty: the password comes from the stack's secret config.
    const env = { XCAT_URL: "", XCAT_USERNAME: "", XCAT_PASSWORD: "", XCAT_TOKEN: "" };
    const review = (...args: string[]) =>
      workspace.exec(
        "bash",
        [
          "-c",
          'PATH="$(npm prefix)/node_modules/.bin:$PATH" exec pulumi-xcat review "$@"',
          "review",
          file,
          ...args,
        ],
        {
          allowFailure: true,
          env,
        },
      );

    const before = emulator.stats();
    const text = await review();
    const after = emulator.stats();
    expect(text.exitCode, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines).toEqual([
      "! 1 Group deleted: rack03",
      "! 10 nodes deployed by a Deployment: r02n[01-10]",
      "! 5 nodes whose values change through group rack03: r03n[01-05]",
      "! 1 existing object taken over: legacy01",
      "- 1 Group rack03",
      "    rack: 03 (from group rack03) → (none): r03n[01-05] (5 nodes)",
      "    servicenode: sn01 (from group rack03) → (none): r03n[01-05] (5 nodes)",
      "    xcatmaster: 10.0.0.1 (from group rack03) → (none): r03n[01-05] (5 nodes)",
      "~ takes over 1 node legacy01: ip: 10.66.9.9 → 10.66.0.6",
      "~ provmethod: rocky9.3 (from group compute) → rocky9.4 on r02n01 (1 node)",
      "+ 1 Deployment rack02-image",
      "    deploys rocky9.4-x86_64-netboot-compute: r02n[01-10] (10 nodes)",
      // The takeover changes legacy01's ip: up sends its name services (the emulated management
      // node serves DNS and DHCP).
      "= hosts, DNS, DHCP entries: legacy01 added",
      "1 to create, 1 to adopt, 1 to update, 0 to replace, 1 to delete, 2 unchanged",
    ]);
    // One table read and one read of the site (which name services the management node runs, for
    // the legacy01 line) besides the token request; no write.
    const requests =
      after.total -
      before.total -
      ((after.byRoute["POST /tokens"] ?? 0) - (before.byRoute["POST /tokens"] ?? 0));
    expect(requests).toBe(2);

    for (const kind of ["group", "delete", "adopt"]) {
      const failed = await review("--fail-on", kind);
      expect(failed.exitCode, `--fail-on ${kind}: ${failed.stderr}`).toBe(3);
    }
    expect((await review("--fail-on", "replace,policy,site")).exitCode).toBe(0);
    const markdown = await review("--format", "markdown");
    expect(markdown.stdout).toContain(
      "| ↳ nodes | xcatmaster: 10.0.0.1 (from group rack03) → (none) | `r03n[01-05]` | 5 |",
    );
    const asJson = JSON.parse((await review("--format", "json")).stdout);
    expect(asJson.counts.adopt).toBe(1);
    expect(asJson.dangers.map((d: { kind: string }) => d.kind)).toEqual([
      "delete",
      "reimage",
      "group",
      "adopt",
    ]);
  });
});
