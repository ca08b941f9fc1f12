/**
 * What review says about a plan's hosts, DNS and DHCP entries (issue #29 item 2), and the
 * Deployment preview's decision whether a node's name will resolve on the management node. The
 * commands are the provider's (name-services.ts); why a name must resolve: makedhcp finds a
 * node's address by its name (xCAT-server/lib/xcat/plugins/dhcp.pm master:782) and nodeset runs
 * makedhcp unless site.dhcpsetup is n (xnba.pm master:857-872).
 */
import { describe, expect, it } from "vitest";
import { nameServiceLines } from "../../src/cli/review/name-service-lines";
import { summarizePlan } from "../../src/cli/review/plan-summary";
import { renderMarkdown, renderText } from "../../src/cli/review/render-summary";
import { unresolvedBecause, unresolvedReason, willResolve } from "../../src/provider/name-resolution";
import { ALL_NAME_SERVICES } from "../../src/provider/name-services";

const MN = { nameservers: "10.0.0.1", master: "10.0.0.1" };
const node = (index: number) => `r01n${String(index).padStart(2, "0")}`;
const inputs = (index: number, extra: Record<string, string> = {}) => ({
  name: node(index),
  groups: ["compute", "all"],
  attributes: { ip: `10.0.1.${index}`, mac: `52:54:00:00:01:${String(index).padStart(2, "0")}`, ...extra },
});
const URN = "urn:pulumi:dev::lab::pulumi-nodejs:dynamic:Resource::";
const create = (index: number) => ({
  op: "create",
  urn: `${URN}${node(index)}`,
  type: "pulumi-nodejs:dynamic:Resource$xcat:Node",
  newState: { inputs: inputs(index) },
});
const remove = (index: number) => ({
  op: "delete",
  urn: `${URN}${node(index)}`,
  type: "pulumi-nodejs:dynamic:Resource$xcat:Node",
  oldState: { inputs: inputs(index) },
});
const update = (index: number, extra: Record<string, string>) => ({
  op: "update",
  urn: `${URN}${node(index)}`,
  type: "pulumi-nodejs:dynamic:Resource$xcat:Node",
  oldState: { inputs: inputs(index) },
  newState: { inputs: inputs(index, extra) },
});
type Step = ReturnType<typeof create> | ReturnType<typeof remove> | ReturnType<typeof update>;
const named = (steps: readonly Step[]) =>
  steps.map((step) => ({ name: step.urn.split("::").at(-1) ?? "", step }));

describe("review's name-service lines", () => {
  const plan: Step[] = [...[1, 2, 3, 4, 5].map(create), ...[6, 7].map(remove)];

  it("lists the 5 created nodes' entries as added and the 2 deleted nodes' as removed, by noderange", () => {
    expect(nameServiceLines(named(plan), {}, MN)).toEqual([
      "hosts, DNS, DHCP entries: r01n[01-05] added",
      "DNS, DHCP entries: r01n[06-07] removed",
      "/etc/hosts lines stay for r01n[06-07]: xCAT's REST API has no makehosts -d (run it on the management node)",
    ]);
  });

  it("rewrites entries for an ip, mac or name change and for nothing else", () => {
    const steps = named([
      update(1, { ip: "10.0.1.99" }),
      update(2, { mac: "52:54:00:00:01:98" }),
      update(3, { arch: "ppc64le" }),
    ]);
    expect(nameServiceLines(steps, {}, MN)).toEqual(["hosts, DNS, DHCP entries: r01n[01-02] rewritten"]);
  });

  it("says what a stack turned off: DHCP, then all", () => {
    expect(nameServiceLines(named(plan), { "xcat:nameServices": "hosts,dns" }, MN)).toEqual([
      "hosts, DNS entries: r01n[01-05] added",
      "DNS entries: r01n[06-07] removed",
      "/etc/hosts lines stay for r01n[06-07]: xCAT's REST API has no makehosts -d (run it on the management node)",
      "DHCP: off for this stack (xcat:nameServices hosts,dns): no makedhcp is sent",
    ]);
    expect(nameServiceLines(named(plan), { "xcat:nameServices": "none" }, MN)).toEqual([
      "hosts, DNS, DHCP: off for this stack (xcat:nameServices none): nothing is sent; the site keeps them",
    ]);
  });

  it("follows the management node: no DNS where it serves none, no DHCP where site.dhcpsetup is n", () => {
    const site = { nameservers: "192.0.2.53", master: "10.0.0.1", dhcpsetup: "n" };
    expect(nameServiceLines(named([create(1)]), {}, site)).toEqual(["hosts entries: r01n01 added"]);
  });

  it("says what it assumed when the site was not read, and follows a node's own nameServices", () => {
    const own = { ...create(2), newState: { inputs: { ...inputs(2), nameServices: { dhcp: false } } } };
    expect(nameServiceLines(named([create(1), own]), {}, undefined)).toEqual([
      "hosts, DNS, DHCP entries: r01n01 added",
      "hosts, DNS entries: r01n02 added",
      "DNS and DHCP as listed if the management node serves them (site.nameservers, site.dhcpsetup not read)",
    ]);
  });

  it("is printed as lines of their own in text and markdown", () => {
    const summary = summarizePlan({ steps: plan, config: {} }, undefined, MN);
    expect(renderText(summary)).toContain("= hosts, DNS, DHCP entries: r01n[01-05] added\n");
    expect(renderMarkdown(summary)).toContain("- DNS, DHCP entries: r01n[06-07] removed\n");
  });
});

describe("whether a Deployment's node name will resolve on the management node", () => {
  const none = { hosts: false, dns: false, dhcp: true };
  it("resolves with an ip in the program or on the management node, or where the site resolves names", () => {
    expect(willResolve({ programIp: "10.0.1.1", serverIp: undefined, choice: ALL_NAME_SERVICES })).toBe(true);
    expect(willResolve({ programIp: undefined, serverIp: "10.0.1.1", choice: ALL_NAME_SERVICES })).toBe(true);
    expect(willResolve({ programIp: undefined, serverIp: undefined, choice: none })).toBe(true);
    expect(willResolve({ programIp: undefined, serverIp: undefined, choice: ALL_NAME_SERVICES })).toBe(false);
    expect(willResolve({ programIp: "", serverIp: "", choice: ALL_NAME_SERVICES })).toBe(false);
    // An address a group gives reaches /etc/hosts only through makehosts, which up runs only for
    // a node's own ip: new here (the node not on the server yet, or its address changed) is refused.
    const fromGroups = { address: "10.0.2.7", source: "10.0.2.7 from xcat:Group rack02's |…|" };
    const node = { programIp: undefined, choice: ALL_NAME_SERVICES, fromGroups };
    expect(unresolvedBecause({ ...node, serverIp: undefined, onServer: false })).toEqual({
      source: fromGroups.source,
    });
    expect(unresolvedBecause({ ...node, serverIp: "10.0.2.9", onServer: true })).toEqual({
      source: fromGroups.source,
    });
    expect(unresolvedBecause({ ...node, serverIp: "10.0.2.7", onServer: true })).toBeUndefined();
    expect(
      unresolvedBecause({ ...node, serverIp: undefined, onServer: false, choice: none }),
    ).toBeUndefined();
    expect(
      unresolvedBecause({ ...node, programIp: "10.0.2.7", serverIp: undefined, onServer: false }),
    ).toBeUndefined();
  });

  it("names the nodes and both fixes", () => {
    const reason = unresolvedReason("xcat:Deployment", ["r01n01", "r01n02"]);
    expect(reason).toMatch(/^xcat:Deployment: nodes: r01n01, r01n02 have no ip/);
    expect(reason).toMatch(/attributes\.ip on the xcat:Node/);
    expect(reason).toMatch(/xcat:nameServices dhcp/);
  });
});
