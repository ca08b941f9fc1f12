/**
 * Node objects: lsdef/mkdef/chdef/rmdef over the tables (xcat-behavior.md §1.3, §1.4, §3.2,
 * §5.1, §5.2, §9).
 */

import { describe, expect, it } from "vitest";
import { ObjectAttributeMaps, StringList } from "../../src/contract/envelope";
import { EMULATOR_DEFAULT_PASSWORD } from "../../src/emulator";
import { call, createNode, useEmulator } from "./helpers";

describe("nodes", () => {
  const env = useEmulator();

  it("an empty node list is 200 with the one-message array (§9.3)", async () => {
    const reply = await call(env.xcat, "GET", "/nodes");
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual(["Could not find any object definitions to display."]);
  });

  it("POST creates with 201 and an empty body; the node reads back with xcatdefaults postscripts (§5.2, §9.2)", async () => {
    const reply = await call(env.xcat, "POST", "/nodes/n1", {
      body: { groups: "all", mgt: "dfm", netboot: "yaboot" },
    });
    expect(reply.status).toBe(201);
    expect(reply.text).toBe("");
    const get = await call(env.xcat, "GET", "/nodes/n1");
    expect(ObjectAttributeMaps.parse(get.json)).toEqual({
      n1: {
        groups: "all",
        mgt: "dfm",
        netboot: "yaboot",
        postbootscripts: "otherpkgs",
        postscripts: "syslog,remoteshell,syncfiles",
      },
    });
    expect(env.xcat.state.getRows("nodehm")).toContainEqual({ node: "n1", mgt: "dfm" });
  });

  it("POST of an existing node is 403 '0 object definitions...' (§9.4)", async () => {
    const reply = await call(env.xcat, "POST", "/nodes/n1", { body: { groups: "all" } });
    expect(reply.status).toBe(403);
    expect(reply.json).toEqual({
      error: ["0 object definitions have been created or modified."],
      errorcode: "1",
    });
  });

  it("POST without attributes or without groups is 403 (§9.5)", async () => {
    const none = await call(env.xcat, "POST", "/nodes/x1", { body: {} });
    expect(none.status).toBe(403);
    expect((none.json as { error: string[] }).error[0]).toMatch(
      /^No object definitions have been created or modified: no attributes were specified\./,
    );
    const noGroups = await call(env.xcat, "PUT", "/nodes/nosuch", { body: { mgt: "ipmi" } });
    expect(noGroups.status).toBe(403);
    expect(noGroups.json).toEqual({
      error: [
        "Attribute 'groups' is not specified for node 'nosuch', skipping to the next node.",
        "One or more errors occured when attempting to create or modify xCAT object definitions.",
        "Failed with unknown reason.",
      ],
      errorcode: "1",
    });
    expect(env.xcat.state.getObject("node", "nosuch")).toBeUndefined();
  });

  it("PUT creates a missing node when groups are given (chdef upsert, §5.1)", async () => {
    const reply = await call(env.xcat, "PUT", "/nodes/n2", {
      body: { groups: "all,compute", arch: "x86_64" },
    });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe("");
    expect(env.xcat.state.getObject("node", "n2")?.arch).toBe("x86_64");
  });

  it("noderange ranges create several nodes; the list is sorted as strings (§1.3)", async () => {
    expect((await call(env.xcat, "POST", "/nodes/c[01-03]", { body: { groups: "compute" } })).status).toBe(
      201,
    );
    const list = await call(env.xcat, "GET", "/nodes");
    expect(StringList.parse(list.json)).toEqual(["c01", "c02", "c03", "n1", "n2"]);
  });

  it("reads of a noderange are all-or-nothing (§9.6)", async () => {
    const reply = await call(env.xcat, "GET", "/nodes/n1,nosuch");
    expect(reply.status).toBe(403);
    expect(reply.json).toEqual({
      error: ["Could not find an object named 'nosuch' of type 'node'."],
      errorcode: "1",
    });
  });

  it("ALLRESOURCES reads every node; on other methods it is 404 (§1.3)", async () => {
    const all = await call(env.xcat, "GET", "/nodes/ALLRESOURCES");
    expect(Object.keys(ObjectAttributeMaps.parse(all.json))).toEqual(["c01", "c02", "c03", "n1", "n2"]);
    const put = await call(env.xcat, "PUT", "/nodes/ALLRESOURCES", { body: { arch: "x" } });
    expect(put.status).toBe(404);
    expect(put.json).toEqual({
      error: "Keyword ALLRESOURCES is only supported for GET Action.",
      errorcode: "2",
    });
  });

  it('attrs/ shows valid unset attributes as "" and rejects invalid names (§5.1, §3.2)', async () => {
    const reply = await call(env.xcat, "GET", "/nodes/n1/attrs/mgt,arch");
    expect(reply.json).toEqual({ n1: { arch: "", mgt: "dfm" } });
    const bad = await call(env.xcat, "GET", "/nodes/n1/attrs/mgt,vmmemori");
    expect(bad.status).toBe(403);
    expect(bad.json).toEqual({
      error: ["'vmmemori' is not a valid attribute name for an object type of 'node'."],
      errorcode: "1",
    });
  });

  it("group rows are inherited; the node's own row wins; nodelist is never inherited (§5.2)", async () => {
    expect(
      (await call(env.xcat, "PUT", "/groups/compute", { body: { netboot: "xnba", mgt: "ipmi" } })).status,
    ).toBe(200);
    expect((await call(env.xcat, "PUT", "/nodes/c01", { body: { netboot: "grub2" } })).status).toBe(200);
    const reply = await call(env.xcat, "GET", "/nodes/c01,c02");
    const objects = ObjectAttributeMaps.parse(reply.json);
    expect(objects.c01?.netboot).toBe("grub2");
    expect(objects.c02?.netboot).toBe("xnba");
    expect(objects.c02?.mgt).toBe("ipmi");
  });

  it("regex templates in group rows expand per node (§5.2)", async () => {
    env.xcat.state.setRow("hosts", { node: "compute" }, { ip: "|\\D+(\\d+)|10.0.0.($1+100)|" });
    expect(env.xcat.state.getObject("node", "c03")?.ip).toBe("10.0.0.103");
    env.xcat.state.deleteRows("hosts", { node: "compute" });
  });

  it('falsy values clear attributes: "", null, false, 0 and "0" (§1.4)', async () => {
    await call(env.xcat, "PUT", "/nodes/n2", {
      body: { arch: "ppc64", os: "rhels8", profile: "p", status: "s", room: "r" },
    });
    await call(env.xcat, "PUT", "/nodes/n2", {
      body: { arch: "", os: null, profile: false, status: 0, room: "0" },
    });
    const object = env.xcat.state.getObject("node", "n2") ?? {};
    for (const a of ["arch", "os", "profile", "status", "room"]) expect(object[a]).toBeUndefined();
  });

  it("true becomes 1 and list attributes accept arrays (§1.4)", async () => {
    await call(env.xcat, "PUT", "/nodes/n2", { body: { groups: ["all", "compute"], consoleondemand: true } });
    expect(env.xcat.state.getObject("node", "n2")).toMatchObject({
      groups: "all,compute",
      consoleondemand: "1",
    });
  });

  it("chdef writes the valid attributes and still answers 403 for an invalid one; mkdef writes nothing (§3.2)", async () => {
    // The real 2.19 answered these lines; its mkdef (2.18.0+) names the attribute and stops.
    const put = await call(env.xcat, "PUT", "/nodes/n2", { body: { arch: "aarch64", vmmemori: "1" } });
    expect(put.status).toBe(403);
    expect(put.json).toEqual({
      error: [
        "'vmmemori' is not a valid attribute name for an object type of 'node'.",
        "Skipping to the next attribute.",
        "One or more errors occured when attempting to create or modify xCAT object definitions.",
        "Failed with unknown reason.",
      ],
      errorcode: "1",
    });
    expect(env.xcat.state.getObject("node", "n2")?.arch).toBe("aarch64");
    const post = await call(env.xcat, "POST", "/nodes/n9", { body: { groups: "all", vmmemori: "1" } });
    expect(post.json).toEqual({
      error: [
        "'vmmemori' is not a valid attribute name for an object type of 'node'.",
        "Skipping to the next attribute.",
        "Failed with unknown reason.",
      ],
      errorcode: "1",
    });
    expect(env.xcat.state.getObject("node", "n9")).toBeUndefined();
  });

  it("only_if attributes need their condition: bmc needs mgt=ipmi or openbmc (§5.2)", async () => {
    // DBobjUtils.pm validate_only_if_attrs (2809-2869) lists every accepted value, sorted.
    const bad = await call(env.xcat, "PUT", "/nodes/n1", { body: { bmc: "10.1.0.1", usercomment: "x" } });
    expect(bad.status).toBe(403);
    expect((bad.json as { error: string[] }).error[0]).toBe(
      "Cannot set the attr='bmc' attribute unless mgt value is ipmi or openbmc.",
    );
    // setobjdefs skips an object that fails the check (DBobjUtils.pm 969-978): nothing of it is written.
    expect(env.xcat.state.getObject("node", "n1")?.usercomment).toBeUndefined();
    expect(
      (await call(env.xcat, "PUT", "/nodes/n1", { body: { mgt: "openbmc", bmc: "10.1.0.1" } })).status,
    ).toBe(200);
    expect(env.xcat.state.getRows("openbmc")).toContainEqual({ node: "n1", bmc: "10.1.0.1" });
    expect(env.xcat.state.getObject("node", "n1")?.bmc).toBe("10.1.0.1");
  });

  it("clearing mgt and the BMC attributes in one PUT is allowed, as the stored mgt still holds (issue #16)", async () => {
    // DBobjUtils.pm _only_if_value_matches (2871-2887) checks the request, the stored object and
    // the request's groups each on its own: a cleared mgt in the request does not hide the stored
    // mgt=ipmi that bmcusername's condition needs. Measured on xCAT 2.19 (issue #16).
    await call(env.xcat, "POST", "/nodes/b1", {
      body: { groups: "all", mgt: "ipmi", bmc: "10.1.0.9", bmcusername: "ADMIN", bmcpassword: "x" },
    });
    const cleared = await call(env.xcat, "PUT", "/nodes/b1", {
      body: { mgt: "", bmc: "", bmcusername: "", bmcpassword: "" },
    });
    expect(cleared.status).toBe(200);
    const after = env.xcat.state.getObject("node", "b1") ?? {};
    expect([after.mgt, after.bmc, after.bmcusername, after.bmcpassword]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    // Once mgt is gone, clearing bmcusername alone is refused, worded as xCAT 2.19 words it.
    const alone = await call(env.xcat, "PUT", "/nodes/b1", { body: { bmcusername: "" } });
    expect(alone.status).toBe(403);
    expect((alone.json as { error: string[] }).error[0]).toBe(
      "Cannot set the attr='bmcusername' attribute unless mgt value is ipmi or openbmc.",
    );
    expect((await call(env.xcat, "DELETE", "/nodes/b1")).status).toBe(200);
  });

  it("a group's mgt and BMC attributes clear together, so a Group can be torn down (issue #16)", async () => {
    const set = await call(env.xcat, "PUT", "/groups/bmcgrp", {
      body: { mgt: "ipmi", bmcusername: "ADMIN", bmcpassword: "secret" },
    });
    expect(set.status).toBe(200);
    expect(env.xcat.state.getRows("ipmi")).toContainEqual({
      node: "bmcgrp",
      username: "ADMIN",
      password: "secret",
    });
    const cleared = await call(env.xcat, "PUT", "/groups/bmcgrp", {
      body: { mgt: "", bmcusername: "", bmcpassword: "" },
    });
    expect(cleared.status).toBe(200);
    const group = env.xcat.state.getObject("group", "bmcgrp") ?? {};
    expect([group.mgt, group.bmcusername, group.bmcpassword]).toEqual([undefined, undefined, undefined]);
  });

  it("a node name with a dot is rejected (§1.3)", async () => {
    const reply = await call(env.xcat, "POST", "/nodes/a.b", { body: { groups: "all" } });
    expect(reply.status).toBe(403);
    expect((reply.json as { error: string[] }).error[0]).toBe(
      "The object name 'a.b' is invalid, Cannot use '.' in node name.",
    );
  });

  it("DELETE removes what exists and reports the missing (§9.6)", async () => {
    const reply = await call(env.xcat, "DELETE", "/nodes/c02,c03,c05");
    expect(reply.status).toBe(403);
    expect(reply.json).toEqual({
      error: ["Could not find an object named 'c05' of type 'node'."],
      errorcode: "1",
    });
    expect(env.xcat.state.listObjects("node")).toEqual(["c01", "n1", "n2"]);
    const ok = await call(env.xcat, "DELETE", "/nodes/c01");
    expect(ok.status).toBe(200);
    expect(ok.text).toBe("");
  });

  it("pretty=1 indents by 3 spaces without spaces around ':' and ends with a blank line (§2.1)", async () => {
    const reply = await call(env.xcat, "GET", "/nodes/n1/attrs/groups?pretty=1");
    expect(reply.text).toBe('{\n   "n1":{\n      "groups":"all"\n   }\n}\n\n');
  });

  it("xcoll=1 merges nodes with identical output (§2.4)", async () => {
    await call(env.xcat, "PUT", "/nodes/n2", { body: { groups: "all" } });
    const reply = await call(env.xcat, "GET", "/nodes/n1,n2/attrs/groups?xcoll=1");
    expect(reply.json).toEqual({ "n1,n2": { groups: "all" } });
  });

  it("debug=1 puts HTML DEBUG paragraphs, password included, before the JSON (§8.4)", async () => {
    const reply = await call(env.xcat, "GET", "/nodes/n1/attrs/groups?debug=1");
    expect(reply.status).toBe(200);
    expect(reply.text.startsWith("<p>DEBUG: generalparams:$VAR1 = {")).toBe(true);
    expect(reply.text).toContain(`'userPW' => '${EMULATOR_DEFAULT_PASSWORD}'`);
    expect(reply.text.endsWith('{"n1":{"groups":"all"}}\n')).toBe(true);
  });

  it("a trailing slash is removed once (§8.2)", async () => {
    expect((await call(env.xcat, "GET", "/nodes/")).status).toBe(200);
    expect((await call(env.xcat, "GET", "/nodes/n1/")).json).toHaveProperty("n1");
  });

  it("hidden nodes are left out of the list (§5.1)", async () => {
    env.xcat.state.setRow("nodelist", { node: "hid" }, { groups: "all", hidden: "1" });
    expect((await call(env.xcat, "GET", "/nodes")).json).not.toContain("hid");
    env.xcat.state.deleteRows("nodelist", { node: "hid" });
  });

  it("the node and group objects agree with /tables both ways (issue item 4)", async () => {
    await call(env.xcat, "PUT", "/tables/nodelist/rows/node=t1", { body: { groups: "all" } });
    expect((await call(env.xcat, "GET", "/nodes")).json).toContain("t1");
    await createNode(env.xcat, "t2", { groups: "all", arch: "x86_64" });
    const rows = await call(env.xcat, "GET", "/tables/nodetype/nodes/t2");
    expect(rows.json).toEqual({ nodetype: [{ name: "t2", arch: "x86_64" }] });
  });
});
