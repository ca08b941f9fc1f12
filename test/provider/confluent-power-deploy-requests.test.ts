/**
 * What PowerState and Deployment send on the Confluent backend, request by request, read through
 * a recording proxy in front of a fresh confluent-h.emulator. Each expected request is one a real
 * Confluent 3.15.6 (ipmi_sim BMCs on 127.0.10.20-22) was sent by the same provider code and
 * answered 200, as docs/confluent.md ("PowerState and Deployment on a real Confluent") records;
 * the order is nodedeploy's (confluent_client/bin/nodedeploy 3.15.6).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as runtime from "../../src/provider/runtime";
import { type ConfluentProviderHarness, confluentProviderHarness } from "./confluent-harness";

const PROFILE = "rocky-9.4-x86_64-default";
const ALL = "/noderange/pw1,pw2,pw3";

describe("PowerState and Deployment send what a real Confluent accepted", () => {
  let h: ConfluentProviderHarness;

  beforeAll(async () => {
    h = await confluentProviderHarness({ bootSeconds: 0.5, deploymentProfiles: [PROFILE] });
    await h.admin.groups.create("pw", { "hardwaremanagement.method": "ipmi" });
    for (const n of [1, 2, 3]) {
      await h.admin.nodes.create(`pw${n}`, {
        groups: ["pw"],
        "hardwaremanagement.manager": `127.0.10.${60 + n}`,
      });
    }
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.proxy.requests.length = 0;
  });

  it("PowerState reads the range's power in one request and switches only the nodes that differ", async () => {
    await h.admin.nodes.setPower(["pw1", "pw3"], "on");
    const checked = await runtime.check("xcat:PowerState", {}, { nodes: ["pw1", "pw2", "pw3"], power: "on" });
    h.proxy.requests.length = 0;
    const created = await runtime.create("xcat:PowerState", checked.inputs);
    // Real 3.15.6: GET power/state answered {"state": {"value": "off"}} per node in databynode;
    // PUT {"state": "on"} answered 200 with {"state": {"value": "on"}} per node once on, after
    // ~2 s (ipmi.py 3.15.6 lines 1430-1457, messages.py PowerState line 1456).
    expect(h.proxy.requests).toEqual([
      { method: "GET", path: `${ALL}/nodes/`, body: undefined },
      { method: "GET", path: `${ALL}/power/state`, body: undefined },
      { method: "PUT", path: "/noderange/pw2/power/state", body: { state: "on" } },
    ]);
    expect(created.outs.powerStates).toEqual({ pw1: "on", pw2: "on", pw3: "on" });
    expect(h.emulator.state.power("pw2")).toBe("on");
  });

  it("Deployment runs nodedeploy -n's sequence, then only reads until the nodes report", async () => {
    const checked = await runtime.check(
      "xcat:Deployment",
      {},
      { nodes: "pw", osimage: PROFILE, canary: 0, pollSeconds: 0.2, timeoutMinutes: 1 },
    );
    // Preview asks which profiles exist (nodedeploy line 156 does the same before deploying).
    expect(h.proxy.requests).toEqual([{ method: "GET", path: "/deployment/profiles/", body: undefined }]);
    h.proxy.requests.length = 0;
    const created = await runtime.create("xcat:Deployment", checked.inputs);
    const [expand, profiles, before, ...rest] = h.proxy.requests;
    expect([expand, profiles, before]).toEqual([
      { method: "GET", path: "/noderange/pw/nodes/", body: undefined },
      { method: "GET", path: "/deployment/profiles/", body: undefined },
      // deployment.lock and deployment.apiarmed of each node (nodedeploy lines 33-48, 145-151).
      { method: "GET", path: `${ALL}/attributes/current`, body: undefined },
    ]);
    const writes = rest.filter((request) => request.method !== "GET");
    expect(writes).toEqual([
      // armonce (nodedeploy lines 33-48).
      { method: "PUT", path: `${ALL}/attributes/current`, body: { "deployment.apiarmed": "once" } },
      // setpending (nodedeploy lines 51-69): the state fields cleared, and the staged and
      // completed profiles too, as the profile is not a genesis- one.
      {
        method: "PUT",
        path: `${ALL}/attributes/current`,
        body: {
          "deployment.pendingprofile": PROFILE,
          "deployment.state": "",
          "deployment.state_detail": "",
          "deployment.stagedprofile": "",
          "deployment.profile": "",
        },
      },
      // nodedeploy lines 217-225; the real one answered bootmode "unspecified" (ipmi.py line 1414
      // builds the answer without it), nextdevice "network", persistent false.
      {
        method: "PUT",
        path: `${ALL}/boot/nextdevice`,
        body: { nextdevice: "network", bootmode: "uefi", persistent: false },
      },
      // nodedeploy line 226; a node that was on answers state "reset", one that was off
      // oldstate "off", state "on" (ipmi.py lines 1440-1456).
      { method: "PUT", path: `${ALL}/power/state`, body: { state: "boot" } },
    ]);
    // Between the writes and after them: only progress reads of deployment.* (selfservice.py
    // 3.15.6 lines 464-505 moves pending to staged to profile as each node reports).
    expect(rest.slice(writes.length).every((request) => request.method === "GET")).toBe(true);
    const states = (created.outs as { nodeStates: Record<string, { deployed: boolean }> }).nodeStates;
    expect(Object.values(states).map((state) => state.deployed)).toEqual([true, true, true]);
  });

  it("arms only nodes not armed continuously, and sends nothing for a locked node", async () => {
    await h.admin.nodes.update("pw1", { "deployment.apiarmed": "continuous" });
    // The lock is only set through deployment/lock (attributes.py 3.15.6 line 294 refuses it as
    // an attribute), and a real Confluent refuses a pendingprofile or apiarmed write to a
    // noderange holding a locked node, whole (line 299): the provider leaves that node out.
    const lock = await fetch(`${h.emulator.url}/nodes/pw3/deployment/lock`, {
      method: "PUT",
      headers: {
        Accept: "application/json",
        "Content-Type": "application/json",
        Authorization: `Basic ${btoa("root:cluster")}`,
      },
      body: JSON.stringify({ lock: "locked" }),
    });
    expect(lock.status).toBe(200);
    const checked = await runtime.check(
      "xcat:Deployment",
      {},
      { nodes: "pw", osimage: PROFILE, canary: 0, maxFailures: 2, pollSeconds: 0.2, timeoutMinutes: 1 },
    );
    h.proxy.requests.length = 0;
    const error = (await runtime.create("xcat:Deployment", checked.inputs).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/pw3: .*its deployment is locked/);
    const writes = h.proxy.requests.filter((request) => request.method !== "GET");
    expect(writes[0]).toEqual({
      method: "PUT",
      path: "/noderange/pw2/attributes/current",
      body: { "deployment.apiarmed": "once" },
    });
    expect(writes.slice(1).map((request) => request.path)).toEqual([
      "/noderange/pw1,pw2/attributes/current",
      "/noderange/pw1,pw2/boot/nextdevice",
      "/noderange/pw1,pw2/power/state",
    ]);
  });
});
