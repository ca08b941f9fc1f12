/**
 * The policy pack's rules (src/policy) over resources as @pulumi/policy hands them to a stack
 * policy: type `pulumi-nodejs:dynamic/xcat:<Kind>`, outputs as props, unknown values as Pulumi's
 * sentinel. Each violation names both resources and the value.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { clusterView, type StackResource, UNKNOWN, xcatKind } from "../../src/policy/cluster-view";
import { undeclaredDeploymentImages } from "../../src/policy/deployment-image";
import { nodeGroupTypos } from "../../src/policy/node-group-typo";
import { nodesOutsideNetworks } from "../../src/policy/node-in-network";
import { nodesInTwoDeployments, nodesInTwoPowerStates } from "../../src/policy/one-owner-per-node";
import { plainProps, policies } from "../../src/policy/policies";
import { duplicateAddresses } from "../../src/policy/unique-addresses";

const repoRoot = resolve(import.meta.dirname, "../..");
type Json = Record<string, unknown>;

const resource = (kind: string, name: string, props: Record<string, unknown>): StackResource => ({
  urn: `urn:pulumi:lab::xcat-lab::pulumi-nodejs:dynamic/xcat:${kind}::${name}`,
  name,
  type: `pulumi-nodejs:dynamic/xcat:${kind}`,
  props,
});
const node = (name: string, attributes: Record<string, unknown>, groups: unknown = ["compute"]) =>
  resource("Node", name, { name, groups, attributes });
const deployment = (name: string, nodes: unknown, osimage = "rhels9.5-x86_64-netboot-compute") =>
  resource("Deployment", name, { nodes, osimage });
const power = (name: string, nodes: unknown) => resource("PowerState", name, { nodes, power: "on" });
const network = (name: string, net: string, mask: string) => resource("Network", name, { name, net, mask });
const image = (name: string) => resource("Osimage", name, { name, attributes: {} });

describe("the stack's xCAT resources", () => {
  it("are told apart by the dynamic resource type, other resources ignored", () => {
    expect(xcatKind("pulumi-nodejs:dynamic/xcat:Node")).toBe("xcat:Node");
    expect(xcatKind("pulumi-nodejs:dynamic:Resource")).toBeUndefined();
    expect(xcatKind("pulumi:pulumi:Stack")).toBeUndefined();
    const view = clusterView([
      node("cn1", { ip: "10.0.0.1" }),
      { urn: "u", name: "stack", type: "pulumi:pulumi:Stack", props: {} },
    ]);
    expect(view.nodes.map((n) => n.nodeName)).toEqual(["cn1"]);
  });

  it("are told apart by the native provider's type as well (YAML, Python, Go), its provider resource ignored", () => {
    expect(xcatKind("xcat:index:Node")).toBe("xcat:Node");
    expect(xcatKind("xcat:index:Deployment")).toBe("xcat:Deployment");
    expect(xcatKind("pulumi:providers:xcat")).toBeUndefined();
    const native = (kind: string, name: string, props: Record<string, unknown>): StackResource => ({
      urn: `urn:pulumi:s::p::xcat:index:${kind}::${name}`,
      name,
      type: `xcat:index:${kind}`,
      props,
    });
    const view = clusterView([
      native("Node", "cn1", { name: "cn1", groups: ["compute"], attributes: { ip: "10.0.0.1" } }),
      node("cn2", { ip: "10.0.0.2" }),
      native("Deployment", "roll", { nodes: "compute", osimage: "img" }),
      { urn: "p", name: "mn", type: "pulumi:providers:xcat", props: { url: "https://mn" } },
    ]);
    expect(view.nodes.map((n) => [n.kind, n.nodeName])).toEqual([
      ["xcat:Node", "cn1"],
      ["xcat:Node", "cn2"],
    ]);
    expect(view.deployments.map((d) => [d.name, d.nodes])).toEqual([["roll", "compute"]]);
  });

  it("copies props from behind @pulumi/policy's unknown-checking proxy, an unknown value as the sentinel", () => {
    class UnknownValueError extends Error {}
    const proxied = new Proxy(
      { name: "cn1", attributes: { ip: "x", mac: "aa" } },
      {
        get: (target, key) => {
          if (key === "attributes")
            return new Proxy(target.attributes, {
              get: (inner, k) => {
                if (k === "ip") throw new UnknownValueError("string value at .attributes.ip can't be known");
                return inner[k as "mac"];
              },
            });
          return target[key as "name"];
        },
      },
    );
    expect(plainProps(proxied)).toEqual({ name: "cn1", attributes: { ip: UNKNOWN, mac: "aa" } });
  });
});

describe("unique-node-ip, unique-node-mac, unique-node-bmc", () => {
  it("name both nodes and the shared ip", () => {
    const view = clusterView([
      node("cn1", { ip: "10.0.0.1" }),
      node("cn2", { ip: "10.0.0.2" }),
      node("cn3", { ip: "10.0.0.1" }),
    ]);
    const [violation, ...rest] = duplicateAddresses(view, "ip");
    expect(rest).toEqual([]);
    expect(violation?.message).toBe(
      'ip 10.0.0.1 is given to both Node "cn1" (node cn1) and Node "cn3" (node cn3); each node needs its own ip.',
    );
    expect(violation?.urn).toContain("::cn3");
  });

  it("compare each |-separated MAC entry without case, ignoring !hostname suffixes", () => {
    const view = clusterView([
      node("cn1", { mac: "52:54:00:00:00:01|52:54:00:00:01:01!cn1-ib" }),
      node("cn2", { mac: "52:54:00:00:00:02" }),
      node("cn3", { mac: "52:54:00:00:00:03|52:54:00:00:01:01" }),
      node("cn4", { mac: "52:54:00:00:00:01".toUpperCase() }),
    ]);
    expect(duplicateAddresses(view, "mac").map((v) => v.message)).toEqual([
      'mac 52:54:00:00:01:01 is given to both Node "cn1" (node cn1) and Node "cn3" (node cn3); each node needs its own mac.',
      'mac 52:54:00:00:00:01 is given to both Node "cn1" (node cn1) and Node "cn4" (node cn4); each node needs its own mac.',
    ]);
  });

  it("find a shared BMC, case-blind, and ignore a node repeating its own MAC", () => {
    const view = clusterView([
      node("cn1", { bmc: "cn1-bmc", mac: "aa:bb:cc:dd:ee:01|AA:BB:CC:DD:EE:01" }),
      node("cn2", { bmc: "CN1-BMC" }),
    ]);
    expect(duplicateAddresses(view, "bmc").map((v) => v.message)).toEqual([
      'bmc cn1-bmc is given to both Node "cn1" (node cn1) and Node "cn2" (node cn2); each node needs its own bmc.',
    ]);
    expect(duplicateAddresses(view, "mac")).toEqual([]);
  });

  it("skip values unknown during preview and nodes without the attribute", () => {
    const view = clusterView([node("cn1", { ip: UNKNOWN }), node("cn2", { ip: UNKNOWN }), node("cn3", {})]);
    expect(duplicateAddresses(view, "ip")).toEqual([]);
  });

  it("pass on 5,000 distinct nodes", () => {
    const nodes = Array.from({ length: 5000 }, (_, i) =>
      node(`n${i}`, {
        ip: `10.1.${i >> 8}.${i & 255}`,
        mac: `52:54:00:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`,
        bmc: `10.2.${i >> 8}.${i & 255}`,
      }),
    );
    const view = clusterView(nodes);
    for (const attribute of ["ip", "mac", "bmc"] as const)
      expect(duplicateAddresses(view, attribute)).toEqual([]);
  });
});

describe("node-ip-in-network", () => {
  it("applies only when the stack declares a Network", () => {
    expect(nodesOutsideNetworks(clusterView([node("cn1", { ip: "192.168.9.9" })]))).toEqual([]);
  });

  it("names the node, its ip and the stack's networks", () => {
    const view = clusterView([
      network("mgmt", "10.0.0.0", "255.255.0.0"),
      network("bmc", "10.2.0.0", "255.255.0.0"),
      node("cn1", { ip: "10.0.3.1" }),
      node("cn2", { ip: "10.9.0.5" }),
      node("cn3", { ip: UNKNOWN }),
    ]);
    expect(nodesOutsideNetworks(view).map((v) => v.message)).toEqual([
      'Node "cn2" (node cn2) has ip 10.9.0.5, outside every Network of the stack (Network "mgmt" 10.0.0.0/255.255.0.0, Network "bmc" 10.2.0.0/255.255.0.0); fix the address or declare its network.',
    ]);
  });
});

// Issue #37 item 5: what import writes for every rack node is a group regex, not a node's own
// address; xCAT gives each member the group's value expanded for its name (Table.pm
// getNodeAttribs_nosub_returnany 2974-3100 picks the first of the node's groups with a value,
// transRegexAttrs 2647-2704 expands it; the expansions are checked in test/unit/regex-values.test.ts).
describe("the address rules on the values nodes will hold: inherited, group regexes expanded", () => {
  const group = (name: string, attributes: Record<string, unknown>) =>
    resource("Group", name, { name, attributes });
  const rackRegex = "|r(\\d+)n(\\d+)|10.0.($1+0).($2+0)|";

  it("refuse a literal ip equal to another node's group-regex ip, naming both", () => {
    const view = clusterView([
      group("rack02", { ip: rackRegex }),
      node("r02n01", {}, ["rack02", "all"]),
      node("r02n02", {}, ["rack02", "all"]),
      node("login01", { ip: "10.0.2.1" }, ["service"]),
    ]);
    expect(duplicateAddresses(view, "ip").map((v) => [v.message, v.urn.split("::").pop()])).toEqual([
      [
        `ip 10.0.2.1 is given to both Node "r02n01" (node r02n01, from Group "rack02"'s ${rackRegex}) and Node "login01" (node login01); each node needs its own ip.`,
        "login01",
      ],
    ]);
  });

  it("find two nodes one regex gives the same address, and a node's own regex value", () => {
    const skipsRack = "|r\\d+n(\\d+)|10.0.0.($1+0)|";
    const view = clusterView([
      group("compute", { ip: skipsRack, bmc: "/\\z/-bmc/" }),
      node("r01n01", {}, ["compute"]),
      node("r02n01", {}, ["compute"]),
      node("spare", { bmc: "|(.*)|$1-bmc|" }, ["other"]),
      node("r01n02", { bmc: "R01N02-BMC" }, ["other"]),
      node("r03n04", { ip: "/^r03n04$/10.0.0.4/" }, ["other"]),
      node("x04", { ip: "|10.0.0.($1+0)|" }, ["other"]),
    ]);
    expect(duplicateAddresses(view, "ip").map((v) => v.message)).toEqual([
      `ip 10.0.0.1 is given to both Node "r01n01" (node r01n01, from Group "compute"'s ${skipsRack}) and Node "r02n01" (node r02n01, from Group "compute"'s ${skipsRack}); each node needs its own ip.`,
      'ip 10.0.0.4 is given to both Node "r03n04" (node r03n04, from its own /^r03n04$/10.0.0.4/) and Node "x04" (node x04, from its own |10.0.0.($1+0)|); each node needs its own ip.',
    ]);
    // Without brackets xCAT takes the replacement literally: spare's bmc is "$1-bmc", no one else's.
    expect(duplicateAddresses(view, "bmc")).toEqual([]);
    const withBmc = clusterView([
      group("compute", { bmc: "/\\z/-bmc/" }),
      node("r01n02", {}, ["compute"]),
      node("hand", { bmc: "R01N02-BMC" }, ["other"]),
    ]);
    expect(duplicateAddresses(withBmc, "bmc").map((v) => v.message)).toEqual([
      'bmc r01n02-bmc is given to both Node "r01n02" (node r01n02, from Group "compute"\'s /\\z/-bmc/) and Node "hand" (node hand); each node needs its own bmc.',
    ]);
  });

  it("take the node's own value first, then its groups in the order listed", () => {
    const view = clusterView([
      group("rack01", { ip: "|r(\\d+)n(\\d+)|10.1.($1+0).($2+0)|", mac: "52:54:00:aa:00:01" }),
      group("compute", { ip: "|\\D+(\\d+)|10.9.0.($1+0)|", mac: "52:54:00:bb:00:01" }),
      node("r01n01", {}, ["rack01", "compute"]),
      node("r01n02", { ip: "10.1.1.1" }, ["compute", "rack01"]),
      node("c1", { ip: "10.9.0.1" }, ["other"]),
    ]);
    // r01n01 holds rack01's 10.1.1.1 (its first group), not compute's; r01n02's own ip wins.
    expect(duplicateAddresses(view, "ip").map((v) => v.message)).toEqual([
      `ip 10.1.1.1 is given to both Node "r01n01" (node r01n01, from Group "rack01"'s |r(\\d+)n(\\d+)|10.1.($1+0).($2+0)|) and Node "r01n02" (node r01n02); each node needs its own ip.`,
    ]);
    // A plain inherited value: both nodes take a mac from a group, each from its first.
    expect(duplicateAddresses(view, "mac")).toEqual([]);
    const shared = clusterView([
      group("compute", { mac: "52:54:00:bb:00:01" }),
      node("a1", {}, ["compute"]),
      node("a2", {}, ["x", "compute"]),
    ]);
    expect(duplicateAddresses(shared, "mac").map((v) => v.message)).toEqual([
      'mac 52:54:00:bb:00:01 is given to both Node "a1" (node a1, from Group "compute") and Node "a2" (node a2, from Group "compute"); each node needs its own mac.',
    ]);
  });

  it("skip what cannot be known: a group value or groups unknown in preview, a regex this port does not evaluate", () => {
    const view = clusterView([
      group("rack02", { ip: UNKNOWN }),
      group("later", { ip: rackRegex }),
      group("perl", { ip: "|r(\\d+)n(\\d+)|10.0.(length($1)).($2+0)|" }),
      node("r02n01", {}, ["rack02", "later"]),
      node("r02n03", {}, UNKNOWN),
      node("r01n03", {}, ["perl"]),
      node("login01", { ip: "10.0.2.1" }, ["service"]),
      node("login03", { ip: "10.0.2.3" }, ["service"]),
      node("login04", { ip: "10.0.1.3" }, ["service"]),
    ]);
    // rack02's unknown ip is r02n01's (its first group): later's regex is not looked at.
    expect(duplicateAddresses(view, "ip")).toEqual([]);
  });

  it("node-ip-in-network checks the ip a group's regex gives, saying where it comes from", () => {
    const view = clusterView([
      network("mgmt", "10.0.0.0", "255.255.0.0"),
      group("rack02", { ip: rackRegex }),
      group("rack09", { ip: "|r(\\d+)n(\\d+)|10.($1+0).0.($2+0)|" }),
      node("r02n01", {}, ["rack02"]),
      node("r09n01", {}, ["rack09"]),
    ]);
    expect(nodesOutsideNetworks(view).map((v) => v.message)).toEqual([
      `Node "r09n01" (node r09n01) has ip 10.9.0.1 (from Group "rack09"'s |r(\\d+)n(\\d+)|10.($1+0).0.($2+0)|), outside every Network of the stack (Network "mgmt" 10.0.0.0/255.255.0.0); fix the address or declare its network.`,
    ]);
  });
});

describe("deployment-image-declared", () => {
  it("accepts an image the stack declares or the config lists as external", () => {
    const view = clusterView([
      image("rhels9.5-x86_64-netboot-compute"),
      deployment("compute", "compute"),
      deployment("login", "service", "rocky9-x86_64-install-service"),
    ]);
    expect(undeclaredDeploymentImages(view, { externalImages: ["rocky9-x86_64-install-service"] })).toEqual(
      [],
    );
    const [violation] = undeclaredDeploymentImages(view, {});
    expect(violation?.message).toMatch(
      /^Deployment "login" installs osimage rocky9-x86_64-install-service, which no Osimage resource of the stack declares\. .*"externalImages": \["rocky9-x86_64-install-service"\]/,
    );
  });

  it("skips an osimage unknown during preview", () => {
    expect(undeclaredDeploymentImages(clusterView([deployment("d", "n1", UNKNOWN)]), {})).toEqual([]);
  });
});

describe("one-deployment-per-node, one-power-state-per-node", () => {
  const rack = Array.from({ length: 4 }, (_, i) => node(`r01n0${i + 1}`, {}, ["rack01", "compute"]));

  it("name both Deployments and the shared nodes, expanding ranges, lists and the stack's groups", () => {
    const view = clusterView([
      ...rack,
      node("login01", {}, ["service"]),
      deployment("compute-image", "rack01"),
      deployment("test-image", ["r01n03", "login01"]),
      deployment("login-image", "login01,r01n[01-02]"),
    ]);
    expect(nodesInTwoDeployments(view).map((v) => v.message)).toEqual([
      'Deployment "compute-image" and Deployment "test-image" both cover r01n03; a node belongs to one Deployment, or each update reinstalls it with whichever image runs last.',
      'Deployment "test-image" and Deployment "login-image" both cover login01; a node belongs to one Deployment, or each update reinstalls it with whichever image runs last.',
      'Deployment "compute-image" and Deployment "login-image" both cover r01n[01-02]; a node belongs to one Deployment, or each update reinstalls it with whichever image runs last.',
    ]);
  });

  it("honour exclusions and pass disjoint targets", () => {
    const view = clusterView([
      ...rack,
      deployment("most", "rack01,-r01n04"),
      deployment("one", "r01n04"),
      power("on", "r01n[01-02]"),
      power("off", "r01n[03-04]"),
    ]);
    expect(nodesInTwoDeployments(view)).toEqual([]);
    expect(nodesInTwoPowerStates(view)).toEqual([]);
  });

  it("compare groups defined outside the stack by name, and skip unknown targets", () => {
    const view = clusterView([power("a", "external"), power("b", "external"), power("c", UNKNOWN)]);
    expect(nodesInTwoPowerStates(view).map((v) => v.message)).toEqual([
      'PowerState "a" and PowerState "b" both cover external; a node belongs to one PowerState, or each update switches its power back and forth.',
    ]);
  });
});

describe("node-group-defined", () => {
  const group = (name: string) => resource("Group", name, { name, attributes: {} });

  it("names a node's group that is a near-miss of a Group of the stack, with the closest one", () => {
    const view = clusterView([
      group("gpu"),
      group("compute"),
      node("g01", { ip: "10.0.0.1" }, ["gpuu", "all"]),
      node("g02", { ip: "10.0.0.2" }, ["gpu", "all"]),
      node("c01", { ip: "10.0.0.3" }, ["comptue", "rack01"]),
    ]);
    expect(nodeGroupTypos(view).map((v) => v.message)).toEqual([
      "Node \"g01\" (node g01) names group 'gpuu', which no Group of the stack defines (did you mean 'gpu'?); the node gets none of 'gpu''s attributes.",
      "Node \"c01\" (node c01) names group 'comptue', which no Group of the stack defines (did you mean 'compute'?); the node gets none of 'compute''s attributes.",
    ]);
  });

  it("leaves alone groups near none of the stack's Groups, and stacks that define no Group", () => {
    expect(nodeGroupTypos(clusterView([group("gpu"), node("n1", {}, ["all", "rack01", "ib"])]))).toEqual([]);
    expect(nodeGroupTypos(clusterView([node("n1", {}, ["gpuu"])]))).toEqual([]);
  });
});

describe("the pack's policies", () => {
  it("the policy pack ships its manifest at the package's version", () => {
    const root = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as Json;
    const pack = JSON.parse(readFileSync(join(repoRoot, "policy-pack/package.json"), "utf8")) as Json;
    expect(pack.version).toBe(root.version);
    expect(root.files).toContain("policy-pack/");
    expect(Object.keys((root.dependencies ?? {}) as Json)).toContain("@pulumi/policy");
  });

  it("are the documented rules, all stack policies and mandatory by default but the group typo", () => {
    expect(policies.map((p) => [p.name, p.enforcementLevel])).toEqual([
      ["unique-node-ip", "mandatory"],
      ["unique-node-mac", "mandatory"],
      ["unique-node-bmc", "mandatory"],
      ["node-ip-in-network", "mandatory"],
      ["deployment-image-declared", "mandatory"],
      ["one-definition-per-node", "mandatory"],
      ["one-deployment-per-node", "mandatory"],
      ["one-power-state-per-node", "mandatory"],
      ["node-group-defined", "advisory"],
    ]);
  });
});
