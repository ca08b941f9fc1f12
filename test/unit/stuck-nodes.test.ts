/**
 * Why a node that has not moved may be stuck (src/provider/stuck-nodes.ts), from what the
 * management node reports: power, status, MAC, ip and whether nodeset runs makedhcp.
 */
import { describe, expect, it } from "vitest";
import { type StuckNodeFacts, stuckCauses, stuckLine } from "../../src/provider/stuck-nodes";

const base: StuckNodeFacts = {
  node: "r01n01",
  status: "powering-on",
  statusTime: "11-26-2026 17:00:00",
  power: "on",
  mac: "02:00:00:00:00:01",
  ip: "10.9.0.1",
  dhcpByXcat: true,
};

describe("why a node may be stuck", () => {
  it("powered on with a MAC and an ip but no installer: the name's resolution, with the commands that tell", () => {
    const causes = stuckCauses(base);
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatch(
      /^no installer reported after power-on: .*an ip in xCAT \(10\.9\.0\.1\) does not make it resolve/,
    );
    expect(causes[0]).toContain("getent hosts r01n01");
    expect(causes[0]).toContain("makedhcp -q r01n01");
  });

  it("power never changed, no MAC, no ip: each named, power first", () => {
    const causes = stuckCauses({ ...base, power: "off", mac: "", ip: "" });
    expect(causes[0]).toMatch(/^rpower stat says off/);
    expect(causes[1]).toMatch(/no MAC \(mac\.mac\)/);
    expect(causes[2]).toMatch(/no ip in xCAT/);
  });

  it("site.dhcpsetup n: the site's DHCP server, not xCAT's reservation", () => {
    const causes = stuckCauses({ ...base, dhcpByXcat: false });
    expect(causes).toEqual([expect.stringMatching(/^site\.dhcpsetup is n/)]);
  });

  it("an installer that reported and went quiet: its console, no name-service guess", () => {
    const causes = stuckCauses({ ...base, status: "installing" });
    expect(causes).toEqual([expect.stringMatching(/installer reported installing .*rcons r01n01/)]);
  });

  it("the line names the node, its status, since when and for how long", () => {
    expect(stuckLine(base, 10)).toMatch(
      /^r01n01: still powering-on since 11-26-2026 17:00:00 \(10 min without a change\); may be stuck: /,
    );
    expect(stuckLine({ ...base, dhcpByXcat: true, mac: "", ip: "" }, 1)).toBeDefined();
  });
});
