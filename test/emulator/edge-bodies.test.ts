/**
 * An empty JSON object as the body of PUT and POST, command by command. The CGI decodes `{}` to
 * an empty parameter hash (xcatws.cgi:3470-3495); what happens next is the command's.
 */
import { describe, expect, it } from "vitest";
import { call, createNode, useEmulator } from "./helpers";

describe("empty JSON object bodies", () => {
  const env = useEmulator();

  it("mkdef (POST) refuses: no attributes were specified (DBobjectdefs.pm:1699-1716; as the real 2.19 answered)", async () => {
    expect((await call(env.xcat, "POST", "/nodes/e1", { body: {} })).json).toEqual({
      error: [
        "No object definitions have been created or modified: no attributes were specified. The 'groups' attribute is required when creating node definitions.",
        "Failed with unknown reason.",
      ],
      errorcode: "1",
    });
    expect((await call(env.xcat, "POST", "/osimages/img-e", { body: {} })).json).toEqual({
      error: [
        "No object definitions have been created or modified: no attributes were specified.",
        "Failed with unknown reason.",
      ],
      errorcode: "1",
    });
  });

  it("chdef (PUT, and POST /policy) changes nothing and succeeds (DBobjectdefs.pm:2417-2474, 3066-3110)", async () => {
    await createNode(env.xcat, "e2", { groups: "all", mgt: "ipmi" });
    const before = env.xcat.state.getObject("node", "e2");
    for (const path of [
      "/nodes/e2",
      "/nodes/nosuch",
      "/osimages/nosuch",
      "/networks/nosuch",
      "/groups/all",
    ]) {
      const reply = await call(env.xcat, "PUT", path, { body: {} });
      expect([path, reply.status, reply.text]).toEqual([path, 200, ""]);
    }
    expect(env.xcat.state.getObject("node", "e2")).toEqual(before);
    // No summary error, and nothing created: the new names were never in FINALATTRS.
    expect(env.xcat.state.getObject("node", "nosuch")).toBeUndefined();
    expect(env.xcat.state.getObject("osimage", "nosuch")).toBeUndefined();
    expect((await call(env.xcat, "POST", "/policy/7", { body: {} })).status).toBe(201);
    expect(env.xcat.state.getObject("policy", "7")).toBeUndefined();
    const site = await call(env.xcat, "PUT", "/globalconf/attrs/domain", { body: {} });
    expect([site.status, site.text]).toEqual([200, ""]);
    expect((await call(env.xcat, "GET", "/globalconf/attrs/domain")).json).toEqual({
      clustersite: { domain: "cluster.local" },
    });
  });

  it("power PUT without action is the CGI's 404 Missed Action. (xcatws.cgi:2136-2145)", async () => {
    const reply = await call(env.xcat, "PUT", "/nodes/e2/power", { body: {} });
    expect([reply.status, reply.json]).toEqual([404, { error: "Missed Action.", errorcode: "2" }]);
  });
});
