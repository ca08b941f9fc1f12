/**
 * Every line a failing mkdef/chdef/rmdef prints, in order: its E messages (shown) and not its
 * I/W ones (the CGI drops them, xcat-behavior.md §2.2), summary lines included
 * (xCAT-server/lib/xcat/plugins/DBobjectdefs.pm).
 */
import { describe, expect, it } from "vitest";
import { call, createNode, useEmulator } from "./helpers";

// mkdef/chdef's E summary, then xcatws's line for its return code 1 without a message
// (master:xCAT-server/xCAT-wsapi/xcatws.cgi:3167-3178; both seen on the real 2.16.5 and 2.19).
const SUMMARY = [
  "One or more errors occured when attempting to create or modify xCAT object definitions.",
  "Failed with unknown reason.",
];

describe("the full error output of object commands", () => {
  const env = useEmulator();
  const errors = async (method: string, path: string, body?: unknown) =>
    (await call(env.xcat, method, path, body === undefined ? {} : { body })).json;

  it("mkdef: the per-object error, then the E summary (:1831-1832, :2157-2163); nothing else", async () => {
    await createNode(env.xcat, "m1", { groups: "all" });
    // n[2-3] without groups: one line per node, then the summary; no "0 object definitions" line.
    expect(await errors("POST", "/nodes/m[2-3]", { mgt: "ipmi" })).toEqual({
      error: [
        "Attribute 'groups' is not specified for node 'm2', skipping to the next node.",
        "Attribute 'groups' is not specified for node 'm3', skipping to the next node.",
        ...SUMMARY,
      ],
      errorcode: "1",
    });
    // An existing node: the "already exists" line is a W (:1820-1821, dropped); the count is E
    // because nothing was created (:2207-2216).
    expect(await errors("POST", "/nodes/m1", { groups: "all" })).toEqual({
      error: ["0 object definitions have been created or modified."],
      errorcode: "1",
    });
    // A mix: m1 exists (W, dropped), m4 is created (I summary, dropped): success.
    expect((await call(env.xcat, "POST", "/nodes/m1,m4", { body: { groups: "all" } })).status).toBe(201);
  });

  it("mkdef of an existing node: skipped before only_if is checked; -f replaces only a valid definition", async () => {
    await createNode(env.xcat, "b1", { groups: "all", mgt: "ipmi", bmcpassword: "old" });
    const b1 = () => env.xcat.state.getObject("node", "b1");
    // Without -f the existing node is skipped with a W (DBobjectdefs.pm:1815-1823) before
    // validate_only_if_attrs (:1884-1897) is reached: only the E count, nothing written.
    expect(await errors("POST", "/nodes/b1", { groups: "all", mgt: "ipmi", bmcpassword: "x" })).toEqual({
      error: ["0 object definitions have been created or modified."],
      errorcode: "1",
    });
    expect(b1()?.bmcpassword).toBe("old");
    // With -f the condition is checked against the request only (:1884-1889 passes {} as the stored
    // values): bmcpassword without mgt fails, and the old definition stays, since -f removes it
    // only after validation (:1825-1826, :1899-1913).
    expect(
      await errors("POST", "/nodes/b1", { options: { "-f": "" }, groups: "all", bmcpassword: "y" }),
    ).toEqual({
      error: ["Cannot set the attr='bmcpassword' attribute unless mgt value is ipmi or openbmc.", ...SUMMARY],
      errorcode: "1",
    });
    expect(
      await errors("POST", "/nodes/b1", { options: { "-f": "" }, mgt: "ipmi", bmcpassword: "y" }),
    ).toEqual({
      error: ["Attribute 'groups' is not specified for node 'b1', skipping to the next node.", ...SUMMARY],
      errorcode: "1",
    });
    expect(b1()).toMatchObject({ mgt: "ipmi", bmcpassword: "old" });
    // A body that sets mgt=ipmi satisfies the condition (DBobjUtils.pm:2871-2887): replaced.
    const replaced = await call(env.xcat, "POST", "/nodes/b1", {
      body: { options: { "-f": "" }, groups: "all", mgt: "ipmi", bmcpassword: "new" },
    });
    expect(replaced.status).toBe(201);
    expect(b1()).toMatchObject({ mgt: "ipmi", bmcpassword: "new" });
  });

  it("mkdef of an existing network name is an error even with -f (DBobjectdefs.pm:1776-1786)", async () => {
    const net = { net: "10.9.0.0", mask: "255.255.0.0" };
    expect((await call(env.xcat, "POST", "/networks/n9", { body: net })).status).toBe(201);
    expect(
      await errors("POST", "/networks/n9", { options: { "-f": "" }, ...net, gateway: "10.9.0.1" }),
    ).toEqual({
      error: [
        "A network definition called 'n9' already exists. Cannot create a definition for 'n9'.",
        ...SUMMARY,
      ],
      errorcode: "1",
    });
  });

  it("chdef: the invalid attribute's two lines, then the summary (:2456-2462, :3050-3056)", async () => {
    expect(await errors("PUT", "/nodes/m1", { nosuchattr: "1" })).toEqual({
      error: [
        "'nosuchattr' is not a valid attribute name for an object type of 'node'.",
        "Skipping to the next attribute.",
        ...SUMMARY,
      ],
      errorcode: "1",
    });
  });

  it("rmdef: one line per missing object and no summary, the summary being I (:4469-4471, :4660-4696)", async () => {
    expect(await errors("DELETE", "/nodes/gone1,gone2")).toEqual({
      error: [
        "Could not find an object named 'gone1' of type 'node'.",
        "Could not find an object named 'gone2' of type 'node'.",
      ],
      errorcode: "1",
    });
  });
});
