/**
 * Policy, groups and global configuration (xcat-behavior.md §1.2, §4.4, §5.3, §5.6, §5.7, §9.7).
 */
import { describe, expect, it } from "vitest";
import { call, createNode, useEmulator } from "./helpers";

describe("policy", () => {
  const env = useEmulator();

  it("a fresh MN has xcatconfig's default policies, listed as strings (§4.4, §5.7)", async () => {
    expect((await call(env.xcat, "GET", "/policy")).json).toEqual([
      "1",
      "1.2",
      "2",
      "2.1",
      "2.3",
      "3",
      "4",
      "4.4",
      "4.5",
      "4.6",
      "4.7",
      "4.8",
      "4.9",
    ]);
    expect((await call(env.xcat, "GET", "/policy/1")).json).toEqual({ "1": { name: "root", rule: "allow" } });
  });

  it("POST upserts: 201 for a new and for an existing priority (§9.4)", async () => {
    expect((await call(env.xcat, "POST", "/policy/6", { body: { name: "bob", rule: "allow" } })).status).toBe(
      201,
    );
    expect((await call(env.xcat, "POST", "/policy/6", { body: { commands: "lsdef" } })).status).toBe(201);
    expect(env.xcat.state.getObject("policy", "6")).toEqual({
      commands: "lsdef",
      name: "bob",
      rule: "allow",
    });
  });

  it("several priorities in one path; delete (§1.3)", async () => {
    expect(Object.keys((await call(env.xcat, "GET", "/policy/1,6")).json as object)).toEqual(["1", "6"]);
    expect((await call(env.xcat, "DELETE", "/policy/6")).status).toBe(200);
    expect((await call(env.xcat, "GET", "/policy/6")).status).toBe(403);
  });
});

describe("groups", () => {
  const env = useEmulator();

  it("groups come from nodelist.groups; members is computed and always shown (§5.3)", async () => {
    await createNode(env.xcat, "g1", { groups: "all,gpu" });
    await createNode(env.xcat, "g2", { groups: "all" });
    expect((await call(env.xcat, "GET", "/groups")).json).toEqual(["all", "gpu"]);
    expect((await call(env.xcat, "GET", "/groups/all")).json).toEqual({ all: { members: "g1,g2" } });
    expect((await call(env.xcat, "GET", "/groups/gpu/attrs/members,mgt")).json).toEqual({
      gpu: { members: "g1", mgt: "" },
    });
  });

  it("PUT on a group stores node attributes under the group name and creates it (§5.3)", async () => {
    await call(env.xcat, "PUT", "/groups/gpu", { body: { mgt: "ipmi" } });
    expect(env.xcat.state.getRows("nodehm")).toContainEqual({ node: "gpu", mgt: "ipmi" });
    expect(env.xcat.state.getObject("node", "g1")?.mgt).toBe("ipmi");
    await call(env.xcat, "PUT", "/groups/empty", { body: { netboot: "xnba" } });
    expect((await call(env.xcat, "GET", "/groups/empty")).json).toEqual({
      empty: { grouptype: "static", members: "", netboot: "xnba" },
    });
  });

  it("members rewrites the member nodes' groups (§5.3)", async () => {
    await call(env.xcat, "PUT", "/groups/gpu", { body: { members: "g2" } });
    expect(env.xcat.state.getObject("node", "g1")?.groups).toBe("all");
    expect(env.xcat.state.getObject("node", "g2")?.groups).toBe("all,gpu");
    const bad = await call(env.xcat, "PUT", "/groups/gpu", { body: { members: "g2,nope" } });
    expect((bad.json as { error: string[] }).error[0]).toBe(
      "Could not find a node named 'nope', skipping to the next node.",
    );
  });

  it("an unknown group is 403 not found; there is no POST or DELETE (§3.2, §5.3)", async () => {
    expect((await call(env.xcat, "GET", "/groups/nope")).json).toEqual({
      error: ["Could not find an object named 'nope' of type 'group'."],
      errorcode: "1",
    });
    expect((await call(env.xcat, "DELETE", "/groups/gpu")).status).toBe(405);
  });
});

describe("globalconf", () => {
  const env = useEmulator();

  it("GET shows clustersite with the stock site keys (§5.6)", async () => {
    const reply = await call(env.xcat, "GET", "/globalconf");
    const site = (reply.json as { clustersite: Record<string, string> }).clustersite;
    expect(site).toMatchObject({
      xcatdport: "3001",
      tftpdir: "/tftpboot",
      installdir: "/install",
      domain: "cluster.local",
    });
  });

  it("a fresh MN holds the site keys xcatconfig writes on Linux (xcatconfig:1213-1289)", async () => {
    const site = (
      (await call(env.xcat, "GET", "/globalconf")).json as { clustersite: Record<string, string> }
    ).clustersite;
    // Fixed values, as the chtab commands write them.
    expect(site).toMatchObject({
      blademaxp: "64",
      fsptimeout: "0",
      installdir: "/install",
      ipmimaxp: "64",
      ipmiretries: "3",
      ipmitimeout: "2",
      consoleondemand: "no",
      maxssh: "8",
      ppcmaxp: "64",
      ppcretry: "3",
      ppctimeout: "0",
      powerinterval: "0",
      syspowerinterval: "0",
      sharedtftp: "1",
      tftpdir: "/tftpboot",
      xcatdport: "3001",
      xcatiport: "3002",
      xcatconfdir: "/etc/xcat",
      useNmapfromMN: "no",
      enableASMI: "no",
      db2installloc: "/mntdb2",
      databaseloc: "/var/lib",
      sshbetweennodes: "ALLGROUPS",
      dnshandler: "ddns",
      vsftp: "n",
      cleanupxcatpost: "no",
      cleanupdiskfullxcatpost: "no",
      dhcplease: "43200",
      auditnosyslog: "0",
      xcattlspolicy: "modern",
      auditskipcmds: "ALL",
      // Machine-dependent: the simulated MN's address, an EL 9 install (OmapiPolicy.pm:67-83).
      master: "10.0.0.1",
      nameservers: "10.0.0.1",
      dhcpomapialgorithm: "hmac-sha256",
    });
    for (const key of ["domain", "forwarders", "timezone", "SNsyncfiledir", "nodesyncfiledir"])
      expect(site).toHaveProperty(key);
    // `chtab key=xcatsslversion site.value=` (xcatconfig 1276) writes no row: the real 2.19 and
    // 2.16.5 have none.
    expect(site).not.toHaveProperty("xcatsslversion");
  });

  it("attrs: existing keys only; a missing key gives 200 with an empty body (§5.6, §9.7)", async () => {
    expect((await call(env.xcat, "GET", "/globalconf/attrs/xcatdport,nokey")).json).toEqual({
      clustersite: { xcatdport: "3001" },
    });
    const missing = await call(env.xcat, "GET", "/globalconf/attrs/nokey");
    expect(missing.status).toBe(200);
    expect(missing.text).toBe("");
  });

  it('PUT sets the body keys, ignoring the URL list; "0" stays, null deletes (§1.2)', async () => {
    await call(env.xcat, "PUT", "/globalconf/attrs/whatever", { body: { mykey: "0", other: "x" } });
    expect(env.xcat.state.getRows("site")).toContainEqual({ key: "mykey", value: "0" });
    await call(env.xcat, "PUT", "/globalconf/attrs/x", { body: { other: null } });
    expect(env.xcat.state.getRows("site").find((r) => r.key === "other")).toBeUndefined();
  });

  it("DELETE of one attribute removes the row; a comma list changes nothing (§1.2)", async () => {
    expect((await call(env.xcat, "DELETE", "/globalconf/attrs/mykey,domain")).status).toBe(200);
    expect(env.xcat.state.getRows("site")).toContainEqual({ key: "mykey", value: "0" });
    await call(env.xcat, "DELETE", "/globalconf/attrs/mykey");
    expect(env.xcat.state.getRows("site").find((r) => r.key === "mykey")).toBeUndefined();
  });

  it("there is no POST (§1.2)", async () => {
    expect((await call(env.xcat, "POST", "/globalconf/attrs/x", { body: {} })).status).toBe(405);
  });
});
