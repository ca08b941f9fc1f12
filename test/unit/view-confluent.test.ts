/**
 * The view on a Confluent server (src/cli/view/confluent-nodes.ts): where a node goes from
 * Confluent's own location and enclosure attributes (xcat2/confluent 3.15.6 config/attributes.py
 * 293-305, 434-446), what its deployment attributes and power make of its state (selfservice.py
 * 464-505, confluent_client/bin/nodedeploy 175-213), drift through the one map of xCAT names to
 * Confluent's, secrets never shown, and several servers drawn in one page (render-svg.ts).
 */
import { describe, expect, it } from "vitest";
import {
  type ConfluentNodeAttributes,
  type ConfluentReported,
  confluentBoot,
  confluentClusterNodes,
  confluentDiffers,
  confluentPlacement,
  confluentShownAttributes,
} from "../../src/cli/view/confluent-nodes";
import { placeNodes } from "../../src/cli/view/placement";
import { renderSections } from "../../src/cli/view/render-svg";
import { stackNodes } from "../../src/cli/view/stack-nodes";
import { buildViewModel } from "../../src/cli/view/view-model";
import { urlWithoutCredentials } from "../../src/cli/view/view-servers";

/** Attributes as Confluent reports them: a string is the node's own value, an object as given. */
function attrs(values: Record<string, string | string[] | ConfluentReported>): ConfluentNodeAttributes {
  return new Map(
    Object.entries(values).map(([name, value]) => [
      name,
      typeof value === "string" || Array.isArray(value) ? { value } : value,
    ]),
  );
}

describe("view on Confluent: placement from Confluent's own attributes", () => {
  it("T140 places Confluent nodes by location.rack, location.u, location.room and row, enclosure.manager and bay, else by name; a rack that is not a number is listed", () => {
    const placement = placeNodes([
      confluentPlacement(
        "n1",
        attrs({
          "location.rack": { value: "3", inheritedfrom: "rack03" },
          "location.u": "12",
          "location.room": "hall-a",
          "location.row": "2",
          groups: ["compute", "rack03", "everything"],
        }),
      ),
      confluentPlacement(
        "blade7",
        attrs({ "enclosure.manager": "smm01", "enclosure.bay": "7", groups: ["everything"] }),
      ),
      confluentPlacement("r02n05", attrs({ groups: ["everything"] })),
      confluentPlacement("odd", attrs({ "location.rack": "left row", groups: ["everything"] })),
      confluentPlacement("login", attrs({ groups: ["service", "everything"] })),
    ]);
    expect(placement.columns.map((column) => [column.title, column.nodes])).toEqual([
      ["rack 2", [{ node: "r02n05", position: 5 }]],
      ["room hall-a, row 2, rack 3", [{ node: "n1", position: 12 }]],
      ["chassis smm01", [{ node: "blade7", position: 7 }]],
      // Confluent's `everything` is every node's group, so the first group of its own counts.
      ["group service", [{ node: "login", position: undefined }]],
    ]);
    expect(placement.unplaced).toEqual([
      { node: "odd", reason: expect.stringContaining("its rack is 'left row'") },
    ]);
  });
});

describe("view on Confluent: state from the deployment attributes and power", () => {
  it("T141 maps Confluent's deployment attributes and power to states: failed, pending, staged, deployed, no deployment (unknown, with the reason), off", () => {
    const cluster = confluentClusterNodes({
      attributes: new Map([
        ["failed", attrs({ "deployment.state": "failed", "deployment.state_detail": "disk not found" })],
        ["pending", attrs({ "deployment.pendingprofile": "rocky-9.4" })],
        ["staged", attrs({ "deployment.stagedprofile": "rocky-9.4" })],
        ["deployed", attrs({ "deployment.profile": "rocky-9.4" })],
        ["bare", attrs({})],
        ["off", attrs({ "deployment.profile": "rocky-9.4" })],
        ["older", attrs({ "deployment.profile": "rocky-9.3" })],
        ["nobmc", attrs({})],
      ]),
      power: new Map([
        ["failed", "on"],
        ["pending", "on"],
        ["staged", "on"],
        ["deployed", "on"],
        ["bare", "on"],
        ["off", "off"],
        ["older", "on"],
      ]),
      nodePowerProblems: new Map([["nobmc", "Confluent's power read for the node failed: timeout"]]),
    });
    const exported = {
      deployment: {
        resources: [
          {
            urn: "urn:pulumi:dev::p::xcat:index:Deployment::os",
            type: "xcat:index:Deployment",
            inputs: { nodes: "older,deployed", osimage: "rocky-9.4" },
          },
        ],
      },
    };
    const model = buildViewModel({
      stack: "dev",
      managementNode: "the stack's Confluent server (https://cf/confluent-api)",
      cluster,
      stackNodes: stackNodes(exported, cluster.context),
    });
    const seen = Object.fromEntries([...model.nodes].map(([name, node]) => [name, [node.state, node.label]]));
    expect(seen).toEqual({
      bare: ["unknown", "no deployment"],
      deployed: ["booted", "deployed rocky-9.4"],
      failed: ["failed", "failed"],
      nobmc: ["unknown", "no deployment"],
      off: ["off", "off"],
      older: ["waiting", "waiting for rocky-9.4"],
      pending: ["deploying", "pending rocky-9.4"],
      staged: ["deploying", "staged rocky-9.4"],
    });
    expect(model.nodes.get("failed")?.facts).toContain("deployment.state: failed: disk not found");
    expect(model.nodes.get("bare")?.facts).toContainEqual(
      expect.stringMatching(
        /^boot state: unknown: Confluent keeps no boot status of a node \(it has no nodestat\)/,
      ),
    );
    expect(model.nodes.get("nobmc")?.facts).toContain(
      "power: unknown (Confluent's power read for the node failed: timeout)",
    );
    expect(model.nodes.get("deployed")?.facts[0]).toBe(
      "server: the stack's Confluent server (https://cf/confluent-api)",
    );
    expect(model.nodes.get("deployed")?.facts).toContain(
      "state: deployed: deployment.profile completed (Confluent has no status of the running OS)",
    );
    expect(model.backend).toBe("confluent");
  });

  it("takes the node's own deployment.profile, not one a group passes down", () => {
    expect(
      confluentBoot(attrs({ "deployment.profile": { value: "p", inheritedfrom: "compute" } })).image,
    ).toBe("");
    expect(confluentBoot(attrs({ "deployment.profile": "p" })).image).toBe("p");
  });
});

describe("view on Confluent: drift and the panel", () => {
  it("compares what the stack recorded in xCAT's names with Confluent's attributes; secrets and expressions are not compared", () => {
    const node = attrs({
      groups: ["mv-compute", "everything"],
      "net.hwaddr": "52:54:00:20:99:99",
      "net.ipv4_address": { value: "10.20.0.3", inheritedfrom: "mv-compute", expression: "10.20.0.{n1}" },
      "hardwaremanagement.manager": "127.0.10.103",
      "secret.hardwaremanagementuser": { isset: true },
    });
    expect(confluentDiffers(node, "groups", "mv-compute,all")).toBe(false);
    expect(confluentDiffers(node, "groups", "other,all")).toBe(true);
    expect(confluentDiffers(node, "mac", "52:54:00:20:00:03")).toBe(true);
    expect(confluentDiffers(node, "ip", "10.20.0.3")).toBe(false);
    expect(confluentDiffers(node, "bmc", "127.0.10.103")).toBe(false);
    expect(confluentDiffers(node, "bmcusername", "admin")).toBeUndefined();
    expect(confluentDiffers(node, "netboot", "xnba")).toBeUndefined();
  });

  it("shows attributes in Confluent's names, inherited ones with their group, secrets as [secret]", () => {
    const shown = confluentShownAttributes(
      attrs({
        "secret.hardwaremanagementpassword": { isset: true, inheritedfrom: "compute" },
        "net.ipv4_address": { value: "10.0.1.2", inheritedfrom: "compute", expression: "10.0.{n1}.{n2}" },
        "location.rack": "1",
        "custom.broken": { expression: "{nosuchvar}", broken: "nosuchvar is not a valid attribute name" },
        "info.note": "",
      }),
    );
    expect(shown).toEqual([
      {
        name: "custom.broken",
        value: "(broken expression {nosuchvar}: nosuchvar is not a valid attribute name)",
      },
      { name: "location.rack", value: "1" },
      { name: "net.ipv4_address", value: "10.0.1.2 (expression 10.0.{n1}.{n2})", from: "compute" },
      { name: "secret.hardwaremanagementpassword", value: "[secret]", from: "compute" },
    ]);
  });
});

describe("view of several servers", () => {
  it("draws each server in its own section headed by its URL, and a server that cannot be reached as a sentence", () => {
    const cluster = confluentClusterNodes({
      attributes: new Map([
        ["c01", attrs({ groups: ["everything"], "location.rack": "1", "location.u": "2" })],
      ]),
      power: new Map([["c01", "off"]]),
      nodePowerProblems: new Map(),
    });
    const model = buildViewModel({
      stack: "dev",
      managementNode: "provider cf (https://cf/confluent-api, Confluent)",
      cluster,
      stackNodes: stackNodes({}, cluster.context),
      undrawnNote: null,
    });
    const svg = renderSections("dev", [
      {
        name: "provider mnA (http://127.0.0.1:1/xcatws, xCAT)",
        problem: "provider mnA (…) cannot be reached: ECONNREFUSED.",
      },
      { name: model.managementNode, model, readAt: "t" },
    ]);
    expect(svg).toContain("server 1: provider mnA (http://127.0.0.1:1/xcatws, xCAT)");
    expect(svg).toContain('class="server-problem" data-server="0"');
    expect(svg).toContain("server 2: provider cf (https://cf/confluent-api, Confluent)");
    expect(svg).toMatch(/data-node="c01" data-server="1" data-state="off"/);
    expect(svg).toContain("U02 c01 off · not under code");
  });

  it("names a server by its URL without a user or password in it", () => {
    expect(urlWithoutCredentials("https://admin:s3cret@mn-b:8443/xcatws")).toBe("https://mn-b:8443/xcatws");
    expect(urlWithoutCredentials("https://mn-b/xcatws")).toBe("https://mn-b/xcatws");
    expect(urlWithoutCredentials("not a url://u:p@host")).not.toContain("u:p");
  });
});
