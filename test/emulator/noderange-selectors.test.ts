/**
 * Noderange attribute selectors in paths (perl-xCAT/xCAT/NodeRange.pm nodesbycriteria :95-200,
 * expandatom :312-326), as xCAT's own REST test restapi_list_temp_CN_2 uses them
 * (xCAT-test/autotest/testcase/restapi/cases0: `GET /nodes/mgt==kvm/nodels`).
 */
import { describe, expect, it } from "vitest";
import { call, createNode, useEmulator } from "./helpers";

describe("noderange attribute selectors", () => {
  const env = useEmulator();

  it("select nodes by value, inequality and regex, through group inheritance", async () => {
    await createNode(env.xcat, "temp_node1", { groups: "all", mgt: "kvm" });
    await createNode(env.xcat, "temp_node2", { groups: "all,rack1", mgt: "kvm" });
    await createNode(env.xcat, "bmc_node", { groups: "all,rack1", mgt: "ipmi", bmc: "10.1.0.9" });
    // A value inherited from a group counts (getNodesAttribs applies inheritance).
    await call(env.xcat, "PUT", "/groups/rack1", { body: { arch: "ppc64le" } });
    const nodels = async (range: string) => (await call(env.xcat, "GET", `/nodes/${range}/nodels`)).json;
    // :123-128 `==` (and `=`) compare for equality; `mgt` is a short name for nodehm.mgt (:97-100).
    expect(await nodels("mgt==kvm")).toEqual(["temp_node1", "temp_node2"]);
    expect(await nodels("mgt=kvm")).toEqual(["temp_node1", "temp_node2"]);
    // :115-117 `!=`; an unset value compares as "" (:180-183).
    expect(await nodels("mgt!=kvm")).toEqual(["bmc_node"]);
    // :118-122 `=~` (a path segment cannot hold the optional /.../ slashes); `groups` is nodelist.groups.
    expect(await nodels("groups=~rack")).toEqual(["bmc_node", "temp_node2"]);
    // :129-133 `!~`.
    expect(await nodels("mgt!~^kv")).toEqual(["bmc_node"]);
    // :137-138 `table.column`, here a value inherited from the group.
    expect(await nodels("nodetype.arch==ppc64le")).toEqual(["bmc_node", "temp_node2"]);
    // Combined with the other noderange operators.
    expect(await nodels("mgt==kvm,-temp_node1")).toEqual(["temp_node2"]);
    expect(await nodels("rack1@mgt==kvm")).toEqual(["temp_node2"]);
  });

  it("a selector on an unknown attribute selects no node (:139-142)", async () => {
    const expanded = await call(env.xcat, "GET", "/nodes/vmmemory==4096,temp_node1/nodels");
    expect(expanded.json).toEqual(["temp_node1"]);
  });
});
