/**
 * A cancel during a roll, against the emulator (issue #37 item 4, issue #36 item 8): a canary
 * whose node never boots ends within the cancel's grace period and is recorded not deployed, after
 * the roll said why it may be stuck; nodes that boot during the grace period, or after the roll
 * stopped watching them, are recorded as deployed and not re-imaged by the next update; the
 * native provider's Cancel lets the roll read its batch during the grace period.
 *
 * The canary that never boots is the issue's: its ip comes from a regex (so nodeset accepts it,
 * xnba.pm master:657-672), but its name is in neither /etc/hosts nor DNS on the management node,
 * so nodeset's makedhcp gives it no address (dhcp.pm master:782, 249) and it stays at
 * `powering-on` (ipmi.pm:2958-2966; nothing else reports a status without a network boot).
 */
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterEach, describe, expect, it } from "vitest";
import { EMULATOR_DEFAULT_PASSWORD } from "../../src/emulator";
import { CANCEL_PATH } from "../../src/provider/engine-cancel";
import { makeProvider } from "../../src/provider/make-provider";
import { processRequestsCancelled } from "../../src/provider/process-context";
import { deploymentSpecWith } from "../../src/provider/resources/deployment";
import { waitForState } from "../support/wait-for-state";
import { callHandler, configureNative, nativeUrn, struct } from "./native-support";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const KIND = "xcat:Deployment";
type States = Record<string, { status: string; deployed: boolean; osimage: string }>;

const nodesets = (h: ProviderHarness) => h.emulator.stats().byRoute["PUT /nodes/{noderange}/bootstate"] ?? 0;
const powers = (h: ProviderHarness) => h.emulator.stats().byRoute["PUT /nodes/{noderange}/power"] ?? 0;

async function defineNodes(h: ProviderHarness, range: string, dhcpsetup: "y" | "n") {
  await h.admin.osimages.create("rhels9-compute-b", {
    imagetype: "linux",
    provmethod: "install",
    osvers: "rhels9.4",
    osarch: "x86_64",
    profile: "compute",
  });
  await h.admin.globalconf.setAttrs({ dhcpsetup });
  await h.admin.nodes.create(range, {
    groups: "compute,all",
    mgt: "ipmi",
    netboot: "xnba",
    mac: "02:00:00:00:00:01",
    ip: "|\\D+(\\d+)$|10.9.0.($1+0)|",
  });
}

async function failure(operation: Promise<unknown>) {
  const error = await operation.then(
    () => undefined,
    (e: unknown) => e as { message: string; properties?: { nodeStates: States } },
  );
  if (!error) throw new Error("expected the operation to fail");
  return error;
}

/** The engine's Cancel as the dynamic-provider host receives it: an http2 stream to its server. */
async function engineServer() {
  const server = http2.createServer();
  server.on("stream", (stream) => {
    stream.respond({ ":status": 200 });
    stream.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const engine = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return {
    cancel() {
      const request = engine.request({ ":method": "POST", ":path": CANCEL_PATH });
      request.resume();
      request.end();
    },
    async close() {
      engine.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("a cancel during a Deployment roll", () => {
  let h: ProviderHarness;
  afterEach(async () => {
    await h.close();
  });

  it("a canary that never boots: the roll says why it may be stuck, Ctrl-C ends it after the grace period, the node is recorded not deployed and still owed", async ({
    signal,
  }) => {
    h = await providerHarness({ bootSeconds: 0.5 });
    await defineNodes(h, "r03n[01-04]", "y");
    // The other nodes' names resolve on the management node; the canary's does not.
    await h.admin.nodes.makeHosts("r03n[02-04]");
    const lines: string[] = [];
    const provider = makeProvider(deploymentSpecWith((line) => lines.push(line)));
    const inputs = (
      await h.check(KIND, {
        nodes: "r03n[01-04]",
        osimage: "rhels9-compute-b",
        pollSeconds: 0.05,
        // The roll's own limit is an hour: only the cancel can end this run.
        timeoutMinutes: 60,
        cancelGraceSeconds: 0.5,
        stuckMinutes: 0.005,
      })
    ).inputs as Record<string, unknown>;
    expect(inputs).toMatchObject({ canary: 1, cancelGraceSeconds: 0.5, stuckMinutes: 0.005 });
    const engine = await engineServer();
    try {
      const create = failure(provider.create(inputs));
      await waitForState(
        () => lines.some((line) => line.startsWith("r03n01: still powering-on")),
        "the stuck line",
        { signal },
      );
      engine.cancel();
      const error = await create;

      const sent = lines.findIndex((line) => line.startsWith("r03n01: rhels9-compute-b sent to 1 node(s)"));
      const stuck = lines.findIndex((line) => line.startsWith("r03n01: still powering-on"));
      const cancel = lines.findIndex((line) =>
        line.startsWith("cancel received: no new batch starts (1 batch"),
      );
      expect(sent).toBeGreaterThanOrEqual(0);
      expect(stuck).toBeGreaterThan(sent);
      expect(cancel).toBeGreaterThan(stuck);
      expect(lines[cancel]).toContain("watching them for 0.5 s more (cancelGraceSeconds)");
      // What the management node reports: powered on, a MAC and an ip, but no installer ever.
      expect(lines[stuck]).toMatch(/may be stuck: no installer reported after power-on/);
      expect(lines[stuck]).toContain("getent hosts r03n01");
      expect(lines[stuck]).not.toMatch(/rpower stat says off|no MAC/);

      expect(error.message).toMatch(/the roll stopped early: the roll was cancelled/);
      expect(error.message).toMatch(/r03n01: cancelled: still in status powering-on 0.5 s after the cancel/);
      expect(error.message).toMatch(/3 node\(s\) were not started .*: r03n\[02-04\]/);
      const states = error.properties?.nodeStates ?? {};
      expect(states.r03n01).toMatchObject({ osimage: "rhels9-compute-b", deployed: false });
      expect(nodesets(h)).toBe(1);

      // The next preview shows the canary still owed.
      const recorded = error.properties as unknown as Record<string, unknown>;
      const again = (await runtime.check(KIND, recorded, inputs)).inputs;
      expect((await runtime.diff(KIND, "r03n[01-04]", recorded, again)).changes).toBe(true);
    } finally {
      await engine.close();
    }
  });

  it("nodes that boot during the grace period are recorded deployed; those that boot after the roll stopped watching are not re-imaged by the next update", async ({
    signal,
  }) => {
    h = await providerHarness({ bootSeconds: 1 });
    await defineNodes(h, "r04n[01-12]", "n");
    const engine = await engineServer();
    const roll = async (grace: number, nodes: string) => {
      const inputs = (
        await h.check(KIND, {
          nodes,
          osimage: "rhels9-compute-b",
          batchSize: 4,
          concurrency: 1,
          canary: 0,
          pollSeconds: 0.05,
          cancelGraceSeconds: grace,
        })
      ).inputs as Record<string, unknown>;
      const before = powers(h);
      const create = failure(runtime.create(KIND, inputs));
      await waitForState(() => powers(h) === before + 1, "the first batch to be sent", { signal });
      engine.cancel();
      return { inputs, error: await create };
    };
    try {
      // A grace period longer than the boot: the batch in flight is recorded as booted.
      const first = await roll(30, "r04n[01-06]");
      const firstStates = first.error.properties?.nodeStates ?? {};
      for (const node of ["r04n01", "r04n02", "r04n03", "r04n04"])
        expect(firstStates[node], node).toMatchObject({ status: "booted", deployed: true });

      // No grace period: the batch is recorded as not deployed, in the status last read...
      const second = await roll(0, "r04n[07-12]");
      const secondStates = second.error.properties?.nodeStates ?? {};
      for (const node of ["r04n07", "r04n08", "r04n09", "r04n10"]) {
        expect(secondStates[node], node).toMatchObject({ osimage: "rhels9-compute-b", deployed: false });
        expect(secondStates[node]?.status, node).toMatch(/^cancelled: still in status /);
      }
      // ...and boots meanwhile.
      await waitForState(
        () => h.emulator.state.getObject("node", "r04n10")?.status === "booted",
        "the cancelled batch to boot",
        { signal },
      );
      // The next update re-images only the two nodes never started (one batch), not the four that booted.
      const recorded = second.error.properties as unknown as Record<string, unknown>;
      const next = (await runtime.check(KIND, recorded, second.inputs)).inputs;
      const [nodesetsBefore, powersBefore] = [nodesets(h), powers(h)];
      const updated = await runtime.update(KIND, "r04n[07-12]", recorded, next);
      expect(nodesets(h) - nodesetsBefore).toBe(1);
      expect(powers(h) - powersBefore).toBe(1);
      const after = (updated.outs as { nodeStates: States }).nodeStates;
      for (const node of ["r04n07", "r04n08", "r04n09", "r04n10", "r04n11", "r04n12"])
        expect(after[node], node).toMatchObject({
          osimage: "rhels9-compute-b",
          status: "booted",
          deployed: true,
        });
    } finally {
      await engine.close();
    }
  });

  it("native provider: a Cancel lets the roll read its batch through the grace period, then cuts off the requests", async ({
    signal,
  }) => {
    h = await providerHarness({ bootSeconds: 1 });
    await defineNodes(h, "r05n[01-08]", "n");
    await configureNative({ url: h.emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
    const inputs = (
      await runtime.check(
        KIND,
        {},
        {
          nodes: "r05n[01-08]",
          osimage: "rhels9-compute-b",
          batchSize: 4,
          concurrency: 1,
          canary: 0,
          pollSeconds: 0.05,
          cancelGraceSeconds: 30,
        },
      )
    ).inputs as Record<string, unknown>;
    const before = powers(h);
    const create = failure(
      callHandler(
        "create",
        new provproto.CreateRequest().setUrn(nativeUrn("Deployment", "roll")).setProperties(struct(inputs)),
      ),
    );
    await waitForState(() => powers(h) === before + 1, "the first batch to be sent", { signal });
    await callHandler("cancel", {});
    // The process's requests are not cut off while the roll watches its batch.
    expect(processRequestsCancelled()).toBe(false);
    const error = await create;
    expect(error.message).toMatch(/the roll was cancelled/);
    expect(error.message).toMatch(
      /The 4 node\(s\) that booted rhels9-compute-b \(r05n\[01-04\]\) are recorded as done/,
    );
    expect(nodesets(h)).toBe(1);
    await waitForState(() => processRequestsCancelled(), "the requests to be cut off once the roll ended", {
      signal,
    });
  });
});
