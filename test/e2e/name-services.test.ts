/**
 * Issue #29's bar for name services, through the real engine on the emulator: 5 new nodes with ip
 * and mac get hosts, DNS and DHCP entries for exactly those 5; the preview says so; deleting 2
 * removes their DNS and DHCP entries (their /etc/hosts lines stay, as on a real xCAT, whose REST
 * API has no makehosts -d: xcatws.cgi master:153-163), and review lists both; with DHCP turned off
 * for the stack, no makedhcp is sent. The program is examples/scale (every node has ip and mac).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarizePlan } from "../../src/cli/review/plan-summary";
import { XcatClient } from "../../src/client";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { siteServicesOf } from "../../src/provider/node-name-services";
import { outputOf, REST_PASSWORD, scaleWorkspace } from "./reliability/support";
import type { PulumiWorkspace } from "./support/pulumi-workspace";

const ALL = ["ns001", "ns002", "ns003", "ns004", "ns005"];

describe("name services follow the program (examples/scale, 5 nodes)", () => {
  let emulator: RunningEmulator;
  let workspace: PulumiWorkspace;
  const entries = (table: "_emu_etchosts" | "_emu_dns" | "_emu_dhcp") =>
    emulator.state
      .getRows(table)
      .map((row) => String(table === "_emu_dhcp" ? row.node : row.name))
      .filter((name) => name.startsWith("ns"))
      .sort();
  const makedhcps = () => emulator.stats().byRoute["POST /nodes/{noderange}/dhcp"] ?? 0;

  beforeAll(async () => {
    emulator = await startEmulator({ password: REST_PASSWORD });
    workspace = await scaleWorkspace(emulator, { nodeCount: 5, config: { prefix: "ns" } });
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
  });

  it("preview says which commands up sends; up makes entries for exactly the 5 nodes", async () => {
    const preview = outputOf(await workspace.run(["preview"]));
    for (const node of ALL)
      expect(preview).toContain(`xcat:Node ${node}: up sends name services: makehosts, makedns, makedhcp`);
    expect(entries("_emu_etchosts")).toEqual([]);

    await workspace.up();
    expect(entries("_emu_etchosts")).toEqual(ALL);
    expect(entries("_emu_dns")).toEqual(ALL);
    expect(entries("_emu_dhcp")).toEqual(ALL);
    // The reservation holds the address the name resolves to (examples/scale: ns003 is 10.20.0.4).
    expect(emulator.state.getRows("_emu_dhcp").find((row) => row.node === "ns003")?.ip).toBe("10.20.0.4");
  });

  it("review lists the removal of 2 nodes' entries; up removes their DNS and DHCP entries", async () => {
    await workspace.setConfig("nodeCount", "3");
    const raw = await workspace.run(["preview", "--json"]);
    const client = new XcatClient({ url: emulator.url, username: "root", password: REST_PASSWORD });
    const site = await siteServicesOf(client);
    await client.close();
    expect(summarizePlan(JSON.parse(raw.stdout), undefined, site).nameServices).toEqual([
      "DNS, DHCP entries: ns[004-005] removed",
      "/etc/hosts lines stay for ns[004-005]: xCAT's REST API has no makehosts -d (run it on the management node)",
    ]);

    await workspace.up();
    expect(entries("_emu_dns")).toEqual(ALL.slice(0, 3));
    expect(entries("_emu_dhcp")).toEqual(ALL.slice(0, 3));
    expect(entries("_emu_etchosts")).toEqual(ALL);
  });

  it("with DHCP off for the stack, nodes created again get hosts and DNS entries and no makedhcp is sent", async () => {
    await workspace.run([
      "config",
      "set-all",
      "--plaintext",
      "nodeCount=5",
      "--plaintext",
      "xcat:nameServices=hosts,dns",
    ]);
    const before = makedhcps();
    // up's own check prints the line preview prints (one command fewer than preview, then up).
    const up = outputOf(await workspace.run(["up", "--yes", "--skip-preview"]));
    expect(up).toContain("xcat:Node ns004: up sends name services: makehosts, makedns\n");
    expect(makedhcps()).toBe(before);
    expect(entries("_emu_dns")).toEqual(ALL);
    expect(entries("_emu_dhcp")).toEqual(ALL.slice(0, 3));
  });
});
