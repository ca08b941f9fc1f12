/**
 * A roll that stops (issue 29 item 3), through the provider runtime against the emulator: the
 * engine's Cancel between batches, a failing canary, the failure budget (maxFailures), and the
 * osimage checked at preview with one listing for many deployments.
 */
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { CANCEL_PATH } from "../../src/provider/engine-cancel";
import { deploymentSpec } from "../../src/provider/resources/deployment";
import { waitForState } from "../support/wait-for-state";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const KIND = "xcat:Deployment";
const RACK = "r02n[01-12]";
const rack = Array.from({ length: 12 }, (_, i) => `r02n${String(i + 1).padStart(2, "0")}`);

type States = Record<string, { status: string; deployed: boolean; osimage: string }>;

async function defineRack(h: ProviderHarness) {
  for (const name of ["rhels9-compute-a", "rhels9-compute-b"]) {
    await h.admin.osimages.create(name, {
      imagetype: "linux",
      provmethod: "install",
      osvers: "rhels9.4",
      osarch: "x86_64",
      profile: "compute",
    });
  }
  // These suites are about the roll, not name services: the site runs DHCP elsewhere
  // (site.dhcpsetup n), so nodeset asks for no DHCP reservation and boots need none
  // (xnba.pm master:857-872; test/provider/name-services.test.ts covers the reservations).
  await h.admin.globalconf.setAttrs({ dhcpsetup: "n" });
  await h.admin.nodes.create(RACK, {
    groups: "compute,all",
    mgt: "ipmi",
    netboot: "xnba",
    mac: "02:00:00:00:00:01",
    // An address per node, as nodeset's plugin needs one (xnba.pm master:657-672).
    ip: "|\\D+(\\d+)$|10.9.($1/256).($1%256)|",
  });
}

/** nodeset requests so far: one per batch started. */
const nodesets = (h: ProviderHarness) => h.emulator.stats().byRoute["PUT /nodes/{noderange}/bootstate"] ?? 0;
const powers = (h: ProviderHarness) => h.emulator.stats().byRoute["PUT /nodes/{noderange}/power"] ?? 0;
const imageOf = (h: ProviderHarness, node: string) => h.emulator.state.getObject("node", node)?.provmethod;

async function failure(operation: Promise<unknown>) {
  const error = await operation.then(
    () => undefined,
    (e: unknown) => e as { message: string; properties?: { nodeStates: States } },
  );
  if (!error) throw new Error("expected the operation to fail");
  return error;
}

/** Check and create a roll of the rack onto image b in batches of 4, which must fail. */
async function failedRoll(h: ProviderHarness, policy: Record<string, number>) {
  const news = {
    nodes: RACK,
    osimage: "rhels9-compute-b",
    batchSize: 4,
    pollSeconds: 0.05,
    timeoutMinutes: 0.5,
  };
  const checked = (await h.check(KIND, { ...news, ...policy })).inputs;
  return failure(runtime.create(KIND, checked));
}

describe("a Deployment roll that stops", () => {
  let h: ProviderHarness;
  afterEach(async () => {
    await h.close();
  });

  it("after the engine's Cancel, no new batch starts, the batch in flight finishes, and the next update deploys exactly the rest", async ({
    signal,
  }) => {
    h = await providerHarness({ bootSeconds: 1 });
    await defineRack(h);
    const inputs = {
      nodes: RACK,
      batchSize: 4,
      concurrency: 1,
      canary: 0,
      pollSeconds: 0.05,
      timeoutMinutes: 1,
    };
    const first = await h.createChecked(KIND, { ...inputs, osimage: "rhels9-compute-a" });

    // What the dynamic-provider host runs on: an http2 server in this process (grpc-js's).
    const server = http2.createServer();
    server.on("stream", (stream) => {
      stream.respond({ ":status": 200 });
      stream.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const engine = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const news = (await runtime.check(KIND, first.outs, { ...inputs, osimage: "rhels9-compute-b" })).inputs;
      const before = nodesets(h);
      const powersBefore = powers(h);
      const update = failure(runtime.update(KIND, first.id, first.outs, news));
      // The first batch was sent (its rpower is the "sent to" moment): the engine cancels.
      await waitForState(() => powers(h) === powersBefore + 1, "the first batch to be sent", { signal });
      const cancel = engine.request({ ":method": "POST", ":path": CANCEL_PATH });
      cancel.resume();
      cancel.end();
      const error = await update;

      expect(nodesets(h) - before).toBe(1);
      expect(error.message).toMatch(/the roll stopped early: the roll was cancelled/);
      expect(error.message).toMatch(
        /8 node\(s\) were not started and keep their previous image: r02n\[05-12\]/,
      );
      expect(error.message).toMatch(
        /The 4 node\(s\) that booted rhels9-compute-b \(r02n\[01-04\]\) are recorded as done/,
      );
      const states = error.properties?.nodeStates ?? {};
      // The batch in flight was waited for: its nodes booted the new image.
      for (const node of rack.slice(0, 4)) {
        expect(states[node]).toMatchObject({ osimage: "rhels9-compute-b", status: "booted", deployed: true });
        expect(imageOf(h, node)).toBe("rhels9-compute-b");
      }
      for (const node of rack.slice(4)) {
        expect(states[node]).toMatchObject({ osimage: "rhels9-compute-a", deployed: true });
        expect(imageOf(h, node)).toBe("rhels9-compute-a");
      }

      // The next up: a change (8 nodes not done), deploying exactly those 8.
      const recorded = error.properties as unknown as Record<string, unknown>;
      const again = (await runtime.check(KIND, recorded, { ...inputs, osimage: "rhels9-compute-b" })).inputs;
      expect((await runtime.diff(KIND, first.id, recorded, again)).changes).toBe(true);
      const logs = rack.map((node) => h.emulator.state.getHardware(node).eventlog.length);
      const between = nodesets(h);
      const updated = await runtime.update(KIND, first.id, recorded, again);
      expect(nodesets(h) - between).toBe(2);
      const after = (updated.outs as { nodeStates: States }).nodeStates;
      expect(Object.values(after).every((s) => s.osimage === "rhels9-compute-b" && s.deployed)).toBe(true);
      rack.forEach((node, i) => {
        const touched = h.emulator.state.getHardware(node).eventlog.length !== logs[i];
        expect(touched, node).toBe(i >= 4);
      });
    } finally {
      engine.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("canary 1 with a failing first node re-images no other node", async () => {
    h = await providerHarness({ bootSeconds: 0.3, failNodes: ["r02n01"] });
    await defineRack(h);
    const before = nodesets(h);
    const error = await failedRoll(h, { canary: 1 });
    expect(nodesets(h) - before).toBe(1);
    expect(error.message).toMatch(/the canary node\(s\) r02n01 did not boot the image/);
    expect(error.message).toMatch(/r02n01: failed/);
    expect(error.message).toMatch(/11 node\(s\) were not started .*: r02n\[02-12\]/);
    for (const node of rack.slice(1)) expect(imageOf(h, node)).toBeUndefined();
    const states = error.properties?.nodeStates ?? {};
    expect(states.r02n01).toMatchObject({ status: "failed", deployed: false });
    expect(states.r02n02).toMatchObject({
      status: expect.stringMatching(/^not started: the canary/),
      deployed: false,
    });
  });

  it("maxFailures 2 stops after the batch in which the second node fails", async () => {
    h = await providerHarness({ bootSeconds: 0.3, failNodes: ["r02n02", "r02n06"] });
    await defineRack(h);
    const before = nodesets(h);
    const error = await failedRoll(h, { concurrency: 1, canary: 0, maxFailures: 2 });
    expect(nodesets(h) - before).toBe(2);
    expect(error.message).toMatch(/2 node\(s\) failed, which reaches maxFailures \(2\)/);
    expect(error.message).toMatch(/r02n\[09-12\]/);
    for (const node of rack.slice(8)) expect(imageOf(h, node)).toBeUndefined();
    expect(imageOf(h, "r02n08")).toBe("rhels9-compute-b");
  });

  it("the default canary is 1 and maxFailures 1; bad values are refused naming the field", async () => {
    h = await providerHarness();
    await defineRack(h);
    const inputs = (await h.check(KIND, { nodes: RACK, osimage: "rhels9-compute-a" })).inputs;
    expect(inputs).toMatchObject({ canary: 1, maxFailures: 1 });
    expect(
      (await h.check(KIND, { nodes: RACK, osimage: "rhels9-compute-a", waitFor: "none" })).inputs,
    ).toMatchObject({
      canary: 0,
    });
    const failures = async (extra: Record<string, unknown>) =>
      (await h.check(KIND, { nodes: RACK, osimage: "rhels9-compute-a", ...extra })).failures ?? [];
    expect(await failures({ canary: -1 })).toEqual([
      { property: "canary", reason: "canary must be a whole number of nodes, 0 or more, got number -1" },
    ]);
    expect((await failures({ canary: 2, waitFor: "none" }))[0]).toMatchObject({
      property: "canary",
      reason: expect.stringMatching(/^canary 2 needs waitFor "booted"/),
    });
    expect(await failures({ maxFailures: 0 })).toEqual([
      { property: "maxFailures", reason: "maxFailures must be a positive whole number, got number 0" },
    ]);
  });

  it("a misspelt osimage fails check naming the closest image; many deployments cost one listing", async () => {
    h = await providerHarness();
    await defineRack(h);
    const lists = () => h.emulator.stats().byRoute["GET /osimages"] ?? 0;
    const before = lists();
    const checks = await Promise.all(
      rack.map((node) => h.check(KIND, { nodes: node, osimage: "rhels9-compute-a" })),
    );
    expect(checks.every((c) => c.failures === undefined)).toBe(true);
    expect(lists() - before).toBe(1);

    const misspelt = await h.check(KIND, { nodes: RACK, osimage: "rhel9-compute-b" });
    expect(misspelt.failures).toEqual([
      {
        property: "osimage",
        reason: expect.stringContaining(
          "xcat:Deployment: osimage: xCAT has no OS image 'rhel9-compute-b' (lsdef -t osimage); the closest existing image is 'rhels9-compute-b'",
        ),
      },
    ]);
    // An image the program defines in the same run (an Osimage checked before) is accepted.
    const image = await h.check("xcat:Osimage", {
      name: "rocky9-compute",
      attributes: { imagetype: "linux", provmethod: "install", osvers: "rocky9.4", osarch: "x86_64" },
    });
    expect(image.failures).toBeUndefined();
    expect((await h.check(KIND, { nodes: RACK, osimage: "rocky9-compute" })).failures).toBeUndefined();
    // Reads only.
    expect(
      Object.keys(h.emulator.stats().byRoute).filter(
        (route) => /^(PUT|DELETE) /.test(route) && route !== "PUT /globalconf/attrs/{attrs}", // the fixture's dhcpsetup
      ),
    ).toEqual([]);
  });

  it("a destroy with onDelete offline, cancelled, takes no further batch offline and keeps the resource", async () => {
    h = await providerHarness({ bootSeconds: 0.2 });
    await defineRack(h);
    const { id, outs } = await h.createChecked(KIND, {
      nodes: RACK,
      osimage: "rhels9-compute-a",
      onDelete: "offline",
      batchSize: 4,
      pollSeconds: 0.05,
    });
    const before = nodesets(h);
    const olds = outs as unknown as Parameters<typeof deploymentSpec.delete>[2];
    await expect(deploymentSpec.delete(h.admin, id, olds, { signal: AbortSignal.abort() })).rejects.toThrow(
      /cancelled before r02n\[01-04\] was taken offline/,
    );
    expect(nodesets(h)).toBe(before);
    expect(h.emulator.state.getHardware("r02n01").power).toBe("on");
  });
});
