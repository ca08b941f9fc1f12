/**
 * `Resource.get` (the static get by id of each class) on the Confluent backend: the engine calls
 * the provider's read(id, props) with the props the class registered, and with `opts.id` a class
 * registers only its connection (src/provider/classes/common.ts attributeObjectProps,
 * power-state.ts, deployment.ts), so read gets an id and nothing else. Against a fresh
 * confluent-emulator, holding what a real Confluent 3.15.6 answered for the same reads
 * (docs/confluent.md): secrets as `{"isset": true}`, `everything` last in the groups, values a
 * node inherits marked `inheritedfrom`, the deployed profile in deployment.profile
 * (selfservice.py 3.15.6 lines 464-509).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../src/provider/runtime";
import {
  type ConfluentProviderHarness,
  confluentProviderHarness,
  createDeployment,
} from "./confluent-harness";

const PROFILE = "rocky-9.4-x86_64-default";

describe("Resource.get on the Confluent backend", () => {
  let h: ConfluentProviderHarness;

  beforeAll(async () => {
    h = await confluentProviderHarness({ bootSeconds: 0.3, deploymentProfiles: [PROFILE] });
    // Made by hand on the server, as a site's existing cluster is: then read by id alone.
    await h.admin.groups.create("gt", {
      "hardwaremanagement.method": "ipmi",
      "secret.hardwaremanagementpassword": "gt-Bmc-Pw",
    });
    for (const n of [1, 2]) {
      await h.admin.nodes.create(`gt0${n}`, {
        groups: ["gt"],
        "hardwaremanagement.manager": `127.0.10.8${n}`,
        "net.hwaddr": `52:54:00:00:08:0${n}`,
      });
    }
  });
  afterAll(() => h.close());

  it("Node.get reads the node in xCAT's names, inherited values included, secrets as set", async () => {
    const read = await runtime.read("xcat:Node", "gt01", {});
    expect(read.id).toBe("gt01");
    expect(read.inputs).toMatchObject({
      name: "gt01",
      groups: ["gt"],
      attributes: { bmc: "127.0.10.81", mac: "52:54:00:00:08:01", mgt: "ipmi" },
    });
    // Confluent never returns a secret: the read says it is set, and shows no value.
    const secrets = (read.inputs as { secretAttributes: Record<string, string> }).secretAttributes;
    expect(Object.keys(secrets)).toEqual(["bmcpassword"]);
    expect(JSON.stringify(read)).not.toContain("gt-Bmc-Pw");
  });

  it("Group.get reads the group's own attributes", async () => {
    const read = await runtime.read("xcat:Group", "gt", {});
    expect(read.inputs).toMatchObject({ name: "gt", attributes: { mgt: "ipmi" } });
    expect(Object.keys((read.inputs as { secretAttributes: object }).secretAttributes)).toEqual([
      "bmcpassword",
    ]);
  });

  it("Node.get and Group.get of a name Confluent does not have find nothing", async () => {
    expect(await runtime.read("xcat:Node", "gt99", {})).toEqual({});
    expect(await runtime.read("xcat:Group", "gt-none", {})).toEqual({});
  });

  it("PowerState.get reads each node's power, by a group, a node list or the id create gave", async () => {
    await h.admin.nodes.setPower(["gt01"], "on");
    await h.admin.nodes.setPower(["gt02"], "off");
    // `gt[01-02]` is the id a PowerState of ["gt01", "gt02"] gets (node-range-input.ts rangeOf); a real
    // 3.15.6 expands `n[01-02]` to n01,n02, zero padding kept (docs/confluent.md).
    for (const id of ["gt", "gt01,gt02", "gt[01-02]"]) {
      const read = await runtime.read("xcat:PowerState", id, {});
      expect(read.id).toBe(id);
      expect((read.props as { powerStates: Record<string, string> }).powerStates).toEqual({
        gt01: "on",
        gt02: "off",
      });
    }
  });

  it("Deployment.get takes the profile the nodes run and records them as deployed", async () => {
    await createDeployment("gt", PROFILE);
    // The class's get knows no profile: the read takes the one the nodes report.
    const read = await runtime.read("xcat:Deployment", "gt", {});
    expect(read.inputs).toMatchObject({ nodes: "gt", osimage: PROFILE });
    const states = (read.props as { nodeStates: Record<string, { deployed: boolean; osimage: string }> })
      .nodeStates;
    expect(states).toEqual({
      gt01: expect.objectContaining({ deployed: true, osimage: PROFILE }),
      gt02: expect.objectContaining({ deployed: true, osimage: PROFILE }),
    });
    // And a get by an id that names nothing on the server finds nothing.
    expect(await runtime.read("xcat:Deployment", "gt99", {})).toEqual({});
  });
});
