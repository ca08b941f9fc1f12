/**
 * The emulator as each xCAT release (`xcatVersion`, `--xcat-version`): the REST-visible
 * differences of docs/xcat-versions.md, each against the source lines that make it.
 */
import { describe, expect, it } from "vitest";
import { XCAT_VERSIONS } from "../../src/emulator";
import { call, createNode, useEmulator } from "./helpers";

describe("2.16.5: xcatws.cgi drops empty values from object bodies", () => {
  // 2.16.5:xCAT-server/xCAT-wsapi/xcatws.cgi:2096 `push @args, "$k=$paramhash->{$k}" if $paramhash->{$k};`
  const env = useEmulator({ xcatVersion: "2.16.5" });

  it('PUT {"ip": ""} answers 200 and leaves ip set; " " (chdef trims it to "") clears it', async () => {
    await createNode(env.xcat, "n1", { groups: "all", ip: "10.0.0.5", usercomment: "keep" });
    const put = await call(env.xcat, "PUT", "/nodes/n1", { body: { ip: "", usercomment: "" } });
    expect(put.status).toBe(200);
    expect(env.xcat.state.getObject("node", "n1")).toMatchObject({ ip: "10.0.0.5", usercomment: "keep" });
    // DBobjectdefs.pm processArgs (2.16.5:xCAT-server/lib/xcat/plugins/DBobjectdefs.pm:798):
    // /^\s*(.*?)\s*=\s*(\S*.*)$/ makes "ip= " the empty value.
    expect((await call(env.xcat, "PUT", "/nodes/n1", { body: { ip: " " } })).status).toBe(200);
    expect(env.xcat.state.getObject("node", "n1")?.ip).toBeUndefined();
  });

  it("a group's clears are dropped the same way (groups are chdef -t group)", async () => {
    await call(env.xcat, "PUT", "/groups/bmcgrp", { body: { mgt: "ipmi", bmcusername: "ADMIN" } });
    await call(env.xcat, "PUT", "/groups/bmcgrp", { body: { mgt: "", bmcusername: "" } });
    expect(env.xcat.state.getObject("group", "bmcgrp")).toMatchObject({ mgt: "ipmi", bmcusername: "ADMIN" });
  });

  it("the table route passes empty values (tabutils.pm setNodesAttribs → nodech table.col=)", async () => {
    // 2.16.5:xCAT-server/lib/xcat/plugins/tabutils.pm:2921-2960 and xcatd's XMLin SuppressEmpty => undef (2.16.5:xCAT-server/sbin/xcatd:694).
    await createNode(env.xcat, "t1", { groups: "all", ip: "10.0.0.6" });
    const put = await call(env.xcat, "PUT", "/tables/hosts/nodes/t1", { body: { hosts: { ip: "" } } });
    expect(put.status).toBe(200);
    expect(env.xcat.state.getObject("node", "t1")?.ip).toBeUndefined();
  });
});

describe.each(XCAT_VERSIONS)("%s: a fresh management node's site table", (version) => {
  const env = useEmulator({ xcatVersion: version });

  it("has xcattlspolicy from 2.18.0 and dhcpomapialgorithm from 2.18.2 (xcatconfig initDB)", async () => {
    // 2.18.0:xCAT-server/sbin/xcatconfig:1259, 2.18.2:…:1272; the whole 2.16.5 wrote neither.
    const keys = env.xcat.state.getRows("site").map((row) => row.key);
    expect(keys.includes("xcattlspolicy")).toBe(version === "2.18.2" || version === "2.19");
    expect(keys.includes("dhcpomapialgorithm")).toBe(version === "2.18.2" || version === "2.19");
  });
});

describe("2.17.0: empty values clear (commit 884d9d8a1)", () => {
  // 2.17.0:xCAT-server/xCAT-wsapi/xcatws.cgi:2096 `push @args, ($paramhash->{$k}) ? "$k=$paramhash->{$k}" : "$k=";`
  const env = useEmulator({ xcatVersion: "2.17.0" });

  it('PUT {"ip": ""} clears ip', async () => {
    await createNode(env.xcat, "n1", { groups: "all", ip: "10.0.0.5" });
    expect((await call(env.xcat, "PUT", "/nodes/n1", { body: { ip: "" } })).status).toBe(200);
    expect(env.xcat.state.getObject("node", "n1")?.ip).toBeUndefined();
  });
});

describe.each(["2.16.5", "2.17.0"] as const)("%s: a failed only_if condition writes the rest", (version) => {
  // 2.17.0:perl-xCAT/xCAT/DBobjUtils.pm:1020-1069 skip the attribute, 1214-1236 print the error
  // and keep %allupdates, which is written; setobjdefs returns 0, so chdef adds no
  // "One or more errors" line (2.17.0:xCAT-server/lib/xcat/plugins/DBobjectdefs.pm:2917-2930).
  const env = useEmulator({ xcatVersion: version });

  it("PUT {bmc, usercomment} on a node without mgt: 403 naming bmc and mgt, usercomment written", async () => {
    await createNode(env.xcat, "n1", { groups: "all" });
    const reply = await call(env.xcat, "PUT", "/nodes/n1", { body: { bmc: "10.1.0.1", usercomment: "x" } });
    expect(reply.status).toBe(403);
    expect(reply.json).toEqual({
      error: ["Cannot set the attr='bmc' attribute unless mgt value is ipmi or openbmc."],
      errorcode: "1",
    });
    const node = env.xcat.state.getObject("node", "n1");
    expect(node?.usercomment).toBe("x");
    expect(node?.bmc).toBeUndefined();
  });

  it("two failures: one message each, the accepted values accumulated in schema order (1212-1233)", async () => {
    // MsgUtils.pm:427-430 empties the buffer after each message; the whole 2.16.5 management node
    // answered exactly these two lines (in Perl's random hash order) to this request.
    await createNode(env.xcat, "n2", { groups: "all" });
    const reply = await call(env.xcat, "PUT", "/nodes/n2", {
      body: { bmc: "10.1.0.2", bmcpassword: "p", usercomment: "y" },
    });
    expect(reply.status).toBe(403);
    const messages = (reply.json as { error: string[] }).error;
    expect([...messages].sort()).toEqual([
      "Cannot set the attr='bmc' attribute unless mgt value is ipmi or ipmi or openbmc or openbmc.",
      "Cannot set the attr='bmcpassword' attribute unless mgt value is ipmi or ipmi or openbmc or openbmc.",
    ]);
    expect(env.xcat.state.getObject("node", "n2")?.usercomment).toBe("y");
  });

  it("mkdef writes the valid attributes beside an invalid one; an empty body gets only the count", async () => {
    // 2.17.0:xCAT-server/lib/xcat/plugins/DBobjectdefs.pm:1640-1675 (no command_level_error before
    // commit 2ae97c2ac); the whole 2.16.5 created the node and answered these lines.
    const reply = await call(env.xcat, "POST", "/nodes/m1", { body: { groups: "g1", nosuch: "1" } });
    expect(reply.json).toEqual({
      error: [
        "'nosuch' is not a valid attribute name for an object type of 'node'.",
        "Skipping to the next attribute.",
        "One or more errors occured when attempting to create or modify xCAT object definitions.",
        "Failed with unknown reason.",
      ],
      errorcode: "1",
    });
    expect(env.xcat.state.getObject("node", "m1")?.groups).toBe("g1");
    expect((await call(env.xcat, "POST", "/osimages/i1", { body: {} })).json).toEqual({
      error: ["0 object definitions have been created or modified."],
      errorcode: "1",
    });
  });

  it("a condition held only by a group named in the request drops the attribute silently (1035, 1214-1229)", async () => {
    await call(env.xcat, "PUT", "/groups/ipmigrp", { body: { mgt: "ipmi" } });
    const reply = await call(env.xcat, "POST", "/nodes/n3", {
      body: { groups: "ipmigrp", bmc: "10.1.0.3", usercomment: "z" },
    });
    expect(reply.status).toBe(201);
    const rows = env.xcat.state.getRows("ipmi").filter((row) => row.node === "n3");
    expect(rows).toEqual([]);
    expect(env.xcat.state.getObject("node", "n3")?.usercomment).toBe("z");
  });
});

describe.each(["2.18.2", "2.19"] as const)(
  "%s: a failed condition writes nothing (commit 2ae97c2ac)",
  (version) => {
    // 2.18.2:perl-xCAT/xCAT/DBobjUtils.pm:962-978 (validate_only_if_attrs before any write) and
    // 1270-1278; chdef then adds "One or more errors" (2.18.2:xCAT-server/lib/xcat/plugins/DBobjectdefs.pm:3018-3031).
    const env = useEmulator({ xcatVersion: version });

    it("PUT {bmc, usercomment} on a node without mgt: 403, nothing written", async () => {
      await createNode(env.xcat, "n1", { groups: "all" });
      const reply = await call(env.xcat, "PUT", "/nodes/n1", { body: { bmc: "10.1.0.1", usercomment: "x" } });
      expect(reply.status).toBe(403);
      expect((reply.json as { error: string[] }).error[0]).toBe(
        "Cannot set the attr='bmc' attribute unless mgt value is ipmi or openbmc.",
      );
      expect(env.xcat.state.getObject("node", "n1")?.usercomment).toBeUndefined();
    });

    it("a group named in the request satisfies the condition: bmc is written", async () => {
      await call(env.xcat, "PUT", "/groups/ipmigrp", { body: { mgt: "ipmi" } });
      const reply = await call(env.xcat, "POST", "/nodes/n3", {
        body: { groups: "ipmigrp", bmc: "10.1.0.3" },
      });
      expect(reply.status).toBe(201);
      expect(env.xcat.state.getRows("ipmi")).toContainEqual({ node: "n3", bmc: "10.1.0.3" });
    });
  },
);

describe.each(XCAT_VERSIONS)("%s: the osimage attribute nfsrootopts", (version) => {
  // Added in master (2.19): master:perl-xCAT/xCAT/Schema.pm:776 (osimage.nfsrootopts) and 3221-3225.
  const env = useEmulator({ xcatVersion: version });

  it(version === "2.19" ? "is known" : "is not a valid attribute", async () => {
    const reply = await call(env.xcat, "PUT", "/osimages/img1", {
      body: { imagetype: "linux", nfsrootopts: "vers=4" },
    });
    if (version === "2.19") {
      expect(reply.status).toBe(200);
      return;
    }
    expect(reply.status).toBe(403);
    expect((reply.json as { error: string[] }).error[0]).toBe(
      "'nfsrootopts' is not a valid attribute name for an object type of 'osimage'.",
    );
    // The probe the provider sends (lsdef -i of a missing object): both lines, as the whole 2.16.5 answered.
    const probe = await call(env.xcat, "GET", "/osimages/pulumi-xcat-attribute-probe/attrs/nfsrootopts");
    expect((probe.json as { error: string[] }).error).toEqual([
      "'nfsrootopts' is not a valid attribute name for an object type of 'osimage'.",
      "Could not find an object named 'pulumi-xcat-attribute-probe' of type 'osimage'.",
    ]);
    const attrs = await call(env.xcat, "GET", "/osimages/img1/attrs/nfsrootopts");
    expect(attrs.status).toBe(403);
  });
});
