/** The decisions of name-services.ts: which of makehosts, makedns, makedhcp a node write sends. */
import { describe, expect, it } from "vitest";
import {
  ALL_NAME_SERVICES,
  describeSteps,
  effectiveChoice,
  nameServicesInputProblems,
  parseNameServices,
  servesDns,
  stepsForDelete,
  stepsForWrite,
} from "../../src/provider/name-services";

const MN = { nameservers: "10.0.0.1", master: "10.0.0.1" };

describe("name services", () => {
  it("parses the stack setting", () => {
    expect(parseNameServices(undefined)).toEqual(ALL_NAME_SERVICES);
    expect(parseNameServices("hosts, dns")).toEqual({ hosts: true, dns: true, dhcp: false });
    expect(parseNameServices("none")).toEqual({ hosts: false, dns: false, dhcp: false });
    expect(() => parseNameServices("hosts,dhpc")).toThrow(/'dhpc' is not a name service/);
  });

  it("runs DNS only where the management node serves it, DHCP not where site.dhcpsetup says n", () => {
    expect(servesDns(MN)).toBe(true);
    expect(servesDns({ nameservers: "<xcatmaster>" })).toBe(true);
    expect(servesDns({ nameservers: "192.0.2.53", master: "10.0.0.1" })).toBe(false);
    expect(servesDns({})).toBe(false);
    expect(effectiveChoice(ALL_NAME_SERVICES, undefined, { ...MN, dhcpsetup: "n" })).toEqual({
      hosts: true,
      dns: true,
      dhcp: false,
    });
    expect(effectiveChoice(ALL_NAME_SERVICES, undefined, { ...MN, dhcpsetup: "y" }).dhcp).toBe(true);
  });

  it("lets a node and the stack turn each off", () => {
    expect(effectiveChoice(ALL_NAME_SERVICES, { dns: false }, MN)).toEqual({
      hosts: true,
      dns: false,
      dhcp: true,
    });
    expect(effectiveChoice(parseNameServices("hosts"), { hosts: true, dhcp: true }, MN)).toEqual({
      hosts: true,
      dns: false,
      dhcp: false,
    });
  });

  it("sends hosts, then DNS, then DHCP for a new node with an ip, and nothing without one", () => {
    expect(stepsForWrite(undefined, { ip: "10.0.0.5" }, ALL_NAME_SERVICES)).toEqual([
      "makehosts",
      "makedns",
      "makedhcp",
    ]);
    expect(stepsForWrite(undefined, { mgt: "ipmi" }, ALL_NAME_SERVICES)).toEqual([]);
    expect(stepsForWrite(undefined, { ip: "10.0.0.5" }, { hosts: true, dns: false, dhcp: false })).toEqual([
      "makehosts",
    ]);
  });

  it("sends them on an update only when ip, mac, host names or groups change", () => {
    const before = { ip: "10.0.0.5", mac: "52:54:00:00:00:05", arch: "x86_64", groups: "all" };
    expect(stepsForWrite(before, { ...before, arch: "ppc64le" }, ALL_NAME_SERVICES)).toEqual([]);
    for (const change of [
      { ip: "10.0.0.6" },
      { mac: "52:54:00:00:00:06" },
      { hostnames: "n5-ib" },
      { groups: "all,rack2" },
    ])
      expect(stepsForWrite(before, { ...before, ...change }, ALL_NAME_SERVICES)).toHaveLength(3);
  });

  it("removes DNS and DHCP entries of a deleted node, per choice", () => {
    expect(stepsForDelete(ALL_NAME_SERVICES)).toEqual(["makedns -d", "makedhcp -d"]);
    expect(stepsForDelete({ hosts: true, dns: true, dhcp: false })).toEqual(["makedns -d"]);
  });

  it("says a delete with only /etc/hosts chosen sends nothing, not an empty list", () => {
    // A provider with nameServices: [hosts] (test/e2e/explicit-providers.test.ts, mnB).
    const steps = stepsForDelete({ hosts: true, dns: false, dhcp: false });
    expect(describeSteps("b01", steps, true)).toBe(
      "xcat:Node b01: name services: none sent (its /etc/hosts line stays: xCAT's REST API cannot run makehosts -d)",
    );
    expect(describeSteps("a01", stepsForDelete(ALL_NAME_SERVICES), true)).toBe(
      "xcat:Node a01: name services: makedns -d, makedhcp -d (its /etc/hosts line stays: xCAT's REST API cannot run makehosts -d)",
    );
  });

  it("names what is wrong with a node's nameServices input", () => {
    expect(nameServicesInputProblems(undefined)).toEqual([]);
    expect(nameServicesInputProblems({ dhcp: false })).toEqual([]);
    expect(nameServicesInputProblems("off")[0]).toMatch(/must be an object/);
    expect(nameServicesInputProblems({ dhcp: 0 })).toEqual(["nameServices.dhcp must be true or false"]);
  });
});
