/**
 * Deployment `adopt: true` on the Confluent backend (issue #36 item 5): nodes whose
 * deployment.profile is the profile with none pending (selfservice.py 3.15.6 lines 464-505) are
 * taken over with no write; only the others get nodedeploy's sequence. Against a fresh
 * confluent-emulator through the recording proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../src/provider/runtime";
import { type ConfluentProviderHarness, confluentProviderHarness } from "./confluent-harness";

const PROFILE = "rocky-9.4-x86_64-default";
const FAST = { pollSeconds: 0.2, timeoutMinutes: 1, canary: 0 };

describe("Deployment adopt on the Confluent backend", () => {
  let h: ConfluentProviderHarness;

  beforeAll(async () => {
    h = await confluentProviderHarness({ bootSeconds: 0.5, deploymentProfiles: [PROFILE] });
    await h.admin.groups.create("pa", { "hardwaremanagement.method": "ipmi" });
    for (const n of [1, 2, 3]) {
      await h.admin.nodes.create(`pa${n}`, {
        groups: ["pa"],
        "hardwaremanagement.manager": `127.0.10.${60 + n}`,
      });
    }
    // pa1 and pa2 run the profile, deployed before the stack took them over.
    const checked = await runtime.check(
      "xcat:Deployment",
      {},
      { nodes: "pa1,pa2", osimage: PROFILE, ...FAST },
    );
    await runtime.create("xcat:Deployment", checked.inputs);
    // A loaded machine (issue #40): the limit is generous, the test asserts requests, not time.
  }, 120_000);
  afterAll(() => h.close());

  it("takes over the nodes that run the profile without a write and deploys only the other", async () => {
    const checked = await runtime.check(
      "xcat:Deployment",
      {},
      { nodes: "pa1,pa2,pa3", osimage: PROFILE, adopt: true, ...FAST },
    );
    expect(checked.failures).toBeUndefined();
    expect((checked.inputs as { adoptChanges?: unknown }).adoptChanges).toEqual({
      takesOver: "2 node(s): pa[1-2]",
      deploys: "1 node(s): pa3",
    });
    const sent = h.proxy.requests.length;
    const created = await runtime.create("xcat:Deployment", checked.inputs);
    const writes = h.proxy.requests.slice(sent).filter((request) => request.method !== "GET");
    expect(writes.length).toBeGreaterThan(0);
    // Every write names pa3 alone: pa1 and pa2 were not touched.
    for (const request of writes) {
      expect(`${request.path} ${JSON.stringify(request.body)}`).not.toMatch(/pa1|pa2/);
    }
    const states = (created.outs as { nodeStates: Record<string, { deployed: boolean }> }).nodeStates;
    expect(Object.keys(states).sort()).toEqual(["pa1", "pa2", "pa3"]);
    expect(Object.values(states).every((state) => state.deployed)).toBe(true);
    expect(h.stderr.join("")).toMatch(/takes over 2 node\(s\) that run rocky-9\.4-x86_64-default/);
  });
});
