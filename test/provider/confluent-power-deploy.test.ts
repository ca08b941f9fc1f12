/**
 * PowerState and Deployment on the Confluent backend against a fresh confluent-emulator (its
 * simulated BMCs and boots; a real Confluent has no nodes to boot). The deploy sequence is
 * nodedeploy's (confluent_client/bin/nodedeploy 3.15.6); completion is deployment.profile set
 * by the node's /self/updatestatus (selfservice.py 3.15.6 lines 464-505), which the emulator does
 * after --boot-seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../src/provider/runtime";
import { type ConfluentProviderHarness, confluentProviderHarness } from "./confluent-harness";

const PROFILE = "rocky-9.4-x86_64-default";

describe("PowerState and Deployment on the Confluent backend", () => {
  let h: ConfluentProviderHarness;

  beforeAll(async () => {
    h = await confluentProviderHarness({ bootSeconds: 1, failNodes: ["pd4"], deploymentProfiles: [PROFILE] });
    await h.admin.groups.create("pd", { "hardwaremanagement.method": "ipmi" });
    for (const n of [1, 2, 3, 4]) {
      await h.admin.nodes.create(`pd${n}`, {
        groups: ["pd"],
        "hardwaremanagement.manager": `127.0.10.${50 + n}`,
      });
    }
  });
  afterAll(() => h.close());

  it("PowerState switches the nodes that differ, and refresh shows a node switched by hand", async () => {
    const checked = await runtime.check("xcat:PowerState", {}, { nodes: ["pd1", "pd2", "pd3"], power: "on" });
    const created = await runtime.create("xcat:PowerState", checked.inputs);
    expect(created.outs.powerStates).toEqual({ pd1: "on", pd2: "on", pd3: "on" });
    const power = await h.admin.nodes.getPower(["pd1", "pd2", "pd3"]);
    expect([...power.values()]).toEqual([{ value: "on" }, { value: "on" }, { value: "on" }]);
    await h.admin.nodes.setPower(["pd2"], "off");
    const read = await runtime.read("xcat:PowerState", created.id, created.outs);
    expect((read.props as { powerStates: Record<string, string> }).powerStates.pd2).toBe("off");
    expect((await runtime.diff("xcat:PowerState", created.id, read.props, checked.inputs)).changes).toBe(
      true,
    );
  });

  it("Deployment runs Confluent's deploy sequence and waits for deployment.profile", async () => {
    const checked = await runtime.check(
      "xcat:Deployment",
      {},
      {
        nodes: "pd1,pd2,pd3",
        osimage: PROFILE,
        canary: 1,
        pollSeconds: 0.2,
        timeoutMinutes: 1,
      },
    );
    expect(checked.failures).toBeUndefined();
    const created = await runtime.create("xcat:Deployment", checked.inputs);
    const states = (created.outs as { nodeStates: Record<string, { deployed: boolean; osimage: string }> })
      .nodeStates;
    expect(Object.keys(states).sort()).toEqual(["pd1", "pd2", "pd3"]);
    expect(Object.values(states).every((state) => state.deployed)).toBe(true);
    const pd2 = await h.admin.nodes.get("pd2");
    expect(pd2.get("deployment.profile")?.value).toBe(PROFILE);
    expect(pd2.get("deployment.pendingprofile")?.value ?? "").toBe("");
    expect(h.stderr.join("")).toMatch(/deployment\.pendingprofile, boot\/nextdevice network, power boot/);
    // A refresh reads the same: no drift.
    const read = await runtime.read("xcat:Deployment", created.id, created.outs);
    expect((await runtime.diff("xcat:Deployment", created.id, read.props, checked.inputs)).changes).toBe(
      false,
    );
  });

  it("a node that fails its deployment fails the resource by name, the others are recorded as done", async () => {
    const checked = await runtime.check(
      "xcat:Deployment",
      {},
      {
        nodes: ["pd3", "pd4"],
        osimage: PROFILE,
        canary: 0,
        maxFailures: 2,
        pollSeconds: 0.2,
        timeoutMinutes: 0.1,
      },
    );
    const error = await runtime.create("xcat:Deployment", checked.inputs).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/pd4/);
    const properties = (error as { properties?: { nodeStates: Record<string, { deployed: boolean }> } })
      .properties;
    expect(properties?.nodeStates.pd3?.deployed).toBe(true);
    expect(properties?.nodeStates.pd4?.deployed).toBe(false);
  });

  it("preview refuses a profile the server does not have, naming the profiles it has", async () => {
    const checked = await runtime.check("xcat:Deployment", {}, { nodes: "pd1", osimage: "rhels8.6-compute" });
    expect(checked.failures?.[0]?.reason).toMatch(
      /no deployment profile 'rhels8.6-compute'.*rocky-9.4-x86_64-default/,
    );
  });
});
