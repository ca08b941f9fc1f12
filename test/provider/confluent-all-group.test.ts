/**
 * A program that names xCAT's group `all` on the Confluent backend (docs/confluent.md, "What
 * moves"): in a Node's groups and in the nodes of PowerState and Deployment it is Confluent's
 * `everything`, which holds every node (configmanager.py 3.15.6 lines 1400-1416); a Group named
 * `all` fails preview naming `name`. Against a fresh confluent-emulator, through a recording
 * proxy that shows what reached the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../src/provider/runtime";
import {
  type ConfluentProviderHarness,
  confluentProviderHarness,
  createDeployment,
} from "./confluent-harness";

const PROFILE = "rocky-9.4-x86_64-default";

describe("xCAT's group all on the Confluent backend", () => {
  let h: ConfluentProviderHarness;

  beforeAll(async () => {
    h = await confluentProviderHarness({ bootSeconds: 0.3, deploymentProfiles: [PROFILE] });
    await h.admin.groups.create("al", { "hardwaremanagement.method": "ipmi" });
  });
  afterAll(() => h.close());

  it("a Node's groups name all: not sent, the node is in everything, and it reads back as declared", async () => {
    for (const n of [1, 2]) {
      const news = {
        name: `al${n}`,
        groups: ["al", "all"],
        attributes: { bmc: `127.0.10.${70 + n}` },
      };
      const checked = await runtime.check("xcat:Node", {}, news);
      expect(checked.failures ?? []).toEqual([]);
      const created = await runtime.create("xcat:Node", checked.inputs);
      const read = await runtime.read("xcat:Node", created.id, created.outs);
      expect((read.props as { groups: string[] }).groups).toEqual(["al", "all"]);
    }
    expect((await h.admin.nodes.get("al1")).get("groups")?.value).toEqual(["al", "everything"]);
    expect(h.emulator.state.groupNames()).not.toContain("all");
  });

  it("PowerState with nodes 'all' holds every node, through everything", async () => {
    h.proxy.requests.length = 0;
    const checked = await runtime.check("xcat:PowerState", {}, { nodes: "all", power: "on" });
    const created = await runtime.create("xcat:PowerState", checked.inputs);
    expect(h.proxy.requests[0]).toEqual({
      method: "GET",
      path: "/noderange/everything/nodes/",
      body: undefined,
    });
    expect(created.id).toBe("all");
    expect(created.outs.powerStates).toEqual({ al1: "on", al2: "on" });
    // Read by its id alone, as PowerState.get("…", "all") does.
    const read = await runtime.read("xcat:PowerState", "all", {});
    expect((read.props as { powerStates: Record<string, string> }).powerStates).toEqual({
      al1: "on",
      al2: "on",
    });
  });

  it("Deployment with nodes 'all,-al2' deploys every node but al2", async () => {
    const created = await createDeployment("all,-al2", PROFILE);
    expect(Object.keys((created.outs as { nodeStates: object }).nodeStates)).toEqual(["al1"]);
    expect((await h.admin.nodes.get("al1")).get("deployment.profile")?.value).toBe(PROFILE);
    expect((await h.admin.nodes.get("al2")).get("deployment.profile")?.value ?? "").toBe("");
  });

  it("a Group named all fails preview naming name, and nothing is sent", async () => {
    h.proxy.requests.length = 0;
    const checked = await runtime.check("xcat:Group", {}, { name: "all", attributes: { mgt: "ipmi" } });
    expect(checked.failures).toEqual([
      {
        property: "name",
        reason: expect.stringMatching(/^xcat:Group 'all': xCAT's group 'all' is Confluent's 'everything'/),
      },
    ]);
    expect(h.proxy.requests.filter((request) => request.method !== "GET")).toEqual([]);
  });
});
