/**
 * The policy pack's node rules on the view's picture (src/cli/view/policy-marks.ts): run over the
 * stack's export as the view reads it, each finding on the node the pack reports it on, in words
 * on the drawing and in the node's facts.
 */
import { describe, expect, it } from "vitest";
import { ClusterFacts } from "../../src/cli/review/cluster-facts";
import { policyFindings } from "../../src/cli/view/policy-marks";
import { renderSvg } from "../../src/cli/view/render-svg";
import { stackNodes } from "../../src/cli/view/stack-nodes";
import { buildViewModel } from "../../src/cli/view/view-model";

const urn = (type: string, name: string) =>
  `urn:pulumi:dev::lab::pulumi-nodejs:dynamic/xcat:${type}::${name}`;
const SECRET = "4dabf18193072939515e22adb298388d";

function node(name: string, groups: string[], attributes: Record<string, unknown>) {
  const props = { name, groups, attributes };
  return {
    urn: urn("Node", name),
    type: "pulumi-nodejs:dynamic/xcat:Node",
    id: name,
    inputs: props,
    outputs: props,
  };
}

const state = {
  deployment: {
    resources: [
      {
        urn: urn("Network", "mgmt"),
        type: "pulumi-nodejs:dynamic/xcat:Network",
        id: "mgmt",
        inputs: { name: "mgmt", net: "10.0.0.0", mask: "255.255.0.0" },
        outputs: { name: "mgmt", net: "10.0.0.0", mask: "255.255.0.0" },
      },
      {
        urn: urn("Group", "compute"),
        type: "pulumi-nodejs:dynamic/xcat:Group",
        id: "compute",
        inputs: { name: "compute", attributes: {} },
        outputs: { name: "compute", attributes: {} },
      },
      node("r01n01", ["compute"], { ip: "10.0.1.1", bmc: "127.0.10.1" }),
      // The same ip as r01n01: reported on r01n02, the second, naming both.
      node("r01n02", ["compute"], { ip: "10.0.1.1", bmc: "127.0.10.2" }),
      // A typo of compute, and an ip outside mgmt.
      node("r01n03", ["computee"], { ip: "192.168.7.3", bmc: "127.0.10.3" }),
      // A secret value is wrapped in the export, never compared.
      node("r01n04", ["compute"], {
        ip: "10.0.1.4",
        bmc: "127.0.10.4",
        bmcpassword: { [SECRET]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" },
      }),
    ],
    // An update under way brings r01n04's new ip, the same as r01n01's: the pack sees the inputs.
    pending_operations: [
      {
        type: "updating",
        resource: {
          ...node("r01n04", ["compute"], { ip: "10.0.1.1", bmc: "127.0.10.4" }),
          outputs: undefined,
        },
      },
    ],
  },
};

describe("view policy marks", () => {
  it("puts each node rule's finding on the node the pack reports it on", () => {
    const findings = policyFindings(state);
    expect([...findings.keys()].sort()).toEqual(["r01n02", "r01n03", "r01n04"]);
    expect(findings.get("r01n02")).toEqual([
      'unique-node-ip: ip 10.0.1.1 is given to both Node "r01n01" (node r01n01) and Node "r01n02" (node r01n02); each node needs its own ip.',
    ]);
    expect(findings.get("r01n03")?.map((finding) => finding.split(":")[0])).toEqual([
      "node-ip-in-network",
      "node-group-defined",
    ]);
    expect(findings.get("r01n03")?.[1]).toContain("names group 'computee'");
    expect(findings.get("r01n04")?.[0]).toMatch(
      /^unique-node-ip: ip 10\.0\.1\.1 is given to both Node "r01n01"/,
    );
  });

  it("draws the mark in words and lists the findings among the node's facts", () => {
    const facts = new ClusterFacts({
      nodelist: ["r01n01", "r01n02", "r01n03", "r01n04"].map((name) => ({
        node: name,
        groups: "compute",
        status: "booted",
      })),
    });
    const model = buildViewModel({
      stack: "dev",
      managementNode: "the stack's management node (https://mn/xcatws)",
      nodes: ["r01n01", "r01n02", "r01n03", "r01n04"],
      facts,
      power: new Map(),
      stackNodes: stackNodes(state, { isNode: () => false, groupMembers: () => undefined }),
      policy: policyFindings(state),
    });
    expect(model.withPolicy).toBe(3);
    expect(model.nodes.get("r01n01")?.policy).toEqual([]);
    expect(model.nodes.get("r01n02")?.facts).toContain(
      'policy unique-node-ip: ip 10.0.1.1 is given to both Node "r01n01" (node r01n01) and Node "r01n02" (node r01n02); each node needs its own ip.',
    );
    const svg = renderSvg(model);
    // (The rows hold no ip, so the recorded ones read as drift too: the marks come in that order.)
    expect(svg).toContain("r01n02 booted · drift · policy");
    expect(svg).toMatch(/r01n01 booted · drift</);
    expect(svg).toContain("&#34;policy&#34;: the policy pack&#39;s node rules report it");
    expect(svg).not.toContain("v1:abc");
  });
});
