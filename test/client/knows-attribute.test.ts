/**
 * `knowsAttribute`: whether the management node's xCAT knows an attribute, from lsdef -i of a
 * name that does not exist (master:xCAT-server/lib/xcat/plugins/DBobjectdefs.pm:3995-4026,
 * 4078-4084). Answers as recorded from a real xCAT 2.19 (docs/xcat-versions.md).
 */
import { describe, expect, it } from "vitest";
import { mockXcat, xcatError } from "./support/mock-xcat";

const PROBE = "pulumi-xcat-attribute-probe";

describe("knowsAttribute", () => {
  it("unknown attribute → false, known → true, each asked once", async () => {
    const { client, calls } = mockXcat((request) =>
      request.path.includes("dockerhost")
        ? xcatError(403, [
            "'dockerhost' is not a valid attribute name for an object type of 'node'.",
            `Could not find an object named '${PROBE}' of type 'node'.`,
          ])
        : xcatError(403, [`Could not find an object named '${PROBE}' of type 'osimage'.`]),
    );
    const c = client();
    expect(await c.nodes.knowsAttribute("dockerhost")).toBe(false);
    expect(await c.osimages.knowsAttribute("nfsrootopts")).toBe(true);
    expect(await c.nodes.knowsAttribute("dockerhost")).toBe(false);
    expect(calls.filter((call) => call.path.includes(PROBE))).toHaveLength(2);
    expect(calls[0]?.path).toContain(`/nodes/${PROBE}/attrs/dockerhost`);
  });

  it("an answer that cannot tell (no object of the type at all) is undefined and asked again later", async () => {
    let nodesExist = false;
    const { client, calls } = mockXcat(() =>
      nodesExist
        ? xcatError(403, [`Could not find an object named '${PROBE}' of type 'node'.`])
        : { status: 200, body: { info: "Could not find any objects of type 'node'." } },
    );
    const c = client();
    const [first, second] = await Promise.all([
      c.nodes.knowsAttribute("dockerhost"),
      c.nodes.knowsAttribute("dockerhost"),
    ]);
    expect([first, second]).toEqual([undefined, undefined]);
    expect(calls.filter((call) => call.path.includes(PROBE))).toHaveLength(1);
    nodesExist = true;
    expect(await c.nodes.knowsAttribute("dockerhost")).toBe(true);
    expect(calls.filter((call) => call.path.includes(PROBE))).toHaveLength(2);
  });
});
