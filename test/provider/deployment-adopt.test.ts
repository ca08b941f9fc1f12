/**
 * xcat:Deployment with `adopt: true` (issue #36 item 5): on create it takes over the nodes that
 * already booted its image (one read of their states, no write to them) and deploys only the
 * others; preview shows the split. Against an emulator that boots nodes in simulated time.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const KIND = "xcat:Deployment";
const FAST = { pollSeconds: 0.05, timeoutMinutes: 5 };

type States = Record<string, { status: string; deployed: boolean; osimage: string }>;

function writes(h: ProviderHarness): number {
  const byRoute = h.emulator.stats().byRoute;
  return Object.entries(byRoute)
    .filter(([route]) => /^(PUT|POST|DELETE) /.test(route))
    .reduce((sum, [, count]) => sum + count, 0);
}

function reads(h: ProviderHarness, route: RegExp): number {
  const byRoute = h.emulator.stats().byRoute;
  return Object.entries(byRoute)
    .filter(([name]) => route.test(name))
    .reduce((sum, [, count]) => sum + count, 0);
}

/** nodeset requests: one per batch a roll starts. */
function nodesets(h: ProviderHarness): number {
  return h.emulator.stats().byRoute["PUT /nodes/{noderange}/bootstate"] ?? 0;
}

describe("xcat:Deployment adopt", () => {
  let h: ProviderHarness;
  afterEach(async () => {
    await h.close();
  });

  beforeEach(async () => {
    h = await providerHarness({ bootSeconds: 0.2 });
    await h.admin.osimages.create("rhels9-compute", {
      imagetype: "linux",
      provmethod: "install",
      osvers: "rhels9.4",
      osarch: "x86_64",
      profile: "compute",
    });
    // DHCP elsewhere: nodeset asks for no reservation (xnba.pm master:857-872).
    await h.admin.globalconf.setAttrs({ dhcpsetup: "n" });
    await h.admin.nodes.create("r01n[01-06]", {
      groups: "compute,all",
      mgt: "ipmi",
      netboot: "xnba",
      mac: "02:00:00:00:00:01",
      ip: "|\\D+(\\d+)$|10.9.($1/256).($1%256)|",
    });
    // r01n01-04 run the image: deployed the way an admin did before the stack existed.
    await h.createChecked(KIND, { nodes: "r01n[01-04]", osimage: "rhels9-compute", canary: 0, ...FAST });
    // A loaded machine (issue #40): the limit is generous, the test asserts requests, not time.
  }, 120_000);

  it("takes over every node that booted the image with zero writes, and preview says so", async () => {
    const checked = await h.check(KIND, {
      nodes: "r01n[01-04]",
      osimage: "rhels9-compute",
      adopt: true,
      ...FAST,
    });
    expect(checked.failures ?? []).toEqual([]);
    expect((checked.inputs as { adoptChanges?: unknown }).adoptChanges).toEqual({
      takesOver: "4 node(s): r01n[01-04]",
      deploys: "none",
    });
    const writesBefore = writes(h);
    const stateReadsBefore = reads(h, /^GET \/nodes\/\{noderange\}\/attrs\//);
    const created = await runtime.create(KIND, checked.inputs);
    const outs = created.outs as Record<string, unknown>;
    expect(writes(h)).toBe(writesBefore);
    // The nodes' states in one read: no per-node request.
    expect(reads(h, /^GET \/nodes\/\{noderange\}\/attrs\//) - stateReadsBefore).toBe(1);
    const states = outs.nodeStates as States;
    expect(Object.keys(states).sort()).toEqual(["r01n01", "r01n02", "r01n03", "r01n04"]);
    for (const state of Object.values(states)) {
      expect(state).toMatchObject({ status: "booted", osimage: "rhels9-compute", deployed: true });
    }
    expect(outs.adopt).toBe(true);
  });

  it("deploys only the nodes that do not run the image", async () => {
    const checked = await h.check(KIND, {
      nodes: "r01n[01-06]",
      osimage: "rhels9-compute",
      adopt: true,
      ...FAST,
    });
    expect((checked.inputs as { adoptChanges?: unknown }).adoptChanges).toEqual({
      takesOver: "4 node(s): r01n[01-04]",
      deploys: "2 node(s): r01n[05-06]",
    });
    const nodesetBefore = nodesets(h);
    const { outs } = await h.createChecked(KIND, {
      nodes: "r01n[01-06]",
      osimage: "rhels9-compute",
      adopt: true,
      canary: 0,
      batchSize: 1,
      ...FAST,
    });
    // A batch per node: two nodesets for the two new nodes, none for the four taken over.
    expect(nodesets(h) - nodesetBefore).toBe(2);
    const states = outs.nodeStates as States;
    expect(Object.keys(states)).toHaveLength(6);
    expect(Object.values(states).every((state) => state.deployed)).toBe(true);
  });

  it("without adopt deploys every node again, as before", async () => {
    const nodesetBefore = nodesets(h);
    await h.createChecked(KIND, {
      nodes: "r01n[01-04]",
      osimage: "rhels9-compute",
      canary: 0,
      batchSize: 1,
      ...FAST,
    });
    expect(nodesets(h) - nodesetBefore).toBe(4);
  });

  it("refuses an adopt that is not true or false, naming the resource's field", async () => {
    const checked = await h.check(KIND, { nodes: "r01n[01-04]", osimage: "rhels9-compute", adopt: "yes" });
    expect(checked.failures).toEqual([
      { property: "adopt", reason: "adopt must be true or false, got 'yes'" },
    ]);
  });
});
