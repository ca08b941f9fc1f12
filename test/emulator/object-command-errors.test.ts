/**
 * Every line a failing mkdef/chdef/rmdef prints, in order: its E messages (shown) and not its
 * I/W ones (the CGI drops them, xcat-behavior.md §2.2), summary lines included
 * (xCAT-server/lib/xcat/plugins/DBobjectdefs.pm).
 */
import { describe, expect, it } from "vitest";
import { call, createNode, useEmulator } from "./helpers";

const ONE_OR_MORE = "One or more errors occured when attempting to create or modify xCAT object definitions.";

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
        ONE_OR_MORE,
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

  it("chdef: the invalid attribute's two lines, then the summary (:2456-2462, :3050-3056)", async () => {
    expect(await errors("PUT", "/nodes/m1", { nosuchattr: "1" })).toEqual({
      error: [
        "'nosuchattr' is not a valid attribute name for an object type of 'node'.",
        "Skipping to the next attribute.",
        ONE_OR_MORE,
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
