/** The state `pulumi-xcat view` gives a node (src/cli/view/node-state.ts), from xCAT's status values (GlobalDef.pm, xcat-behavior.md §10). */
import { describe, expect, it } from "vitest";
import { type NodeStateInput, nodeView, STATE_STYLE } from "../../src/cli/view/node-state";

function input(values: Record<string, string>, more: Partial<NodeStateInput> = {}): NodeStateInput {
  return {
    name: "r01n05",
    values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }])),
    power: "on",
    resources: [{ kind: "xcat:Node", name: "r01n05" }],
    drift: [],
    ...more,
  };
}

const deployment = { osimage: "rocky9-compute", deployment: "compute" };

describe("view node state", () => {
  it("booted on the image the Deployment wants", () => {
    const view = nodeView(
      input({ status: "booted", provmethod: "rocky9-compute" }, { wantedImage: deployment }),
    );
    expect(view.state).toBe("booted");
    expect(view.label).toBe("booted rocky9-compute");
    expect(view.underCode).toBe(true);
    expect(view.owner).toBe("xcat:Node r01n05");
  });

  it("failed wins over everything", () => {
    const view = nodeView(
      input({ status: "failed", provmethod: "old" }, { wantedImage: deployment, power: "off" }),
    );
    expect([view.state, view.label]).toEqual(["failed", "failed"]);
  });

  it.each(["powering-on", "installing", "netbooting", "booting", "postbooting"])(
    "status %s is deploying, with the status as its word",
    (status) => {
      const view = nodeView(input({ status, provmethod: "old" }, { wantedImage: deployment }));
      expect([view.state, view.label]).toEqual(["deploying", status]);
    },
  );

  it("booted on another image than the Deployment wants is waiting (queued or not reached)", () => {
    const view = nodeView(
      input({ status: "booted", provmethod: "rocky8-compute" }, { wantedImage: deployment }),
    );
    expect(view.state).toBe("waiting");
    expect(view.label).toBe("waiting for rocky9-compute");
    expect(view.facts).toContain("wanted by Deployment compute: rocky9-compute");
    expect(view.facts).toContain("image (provmethod): rocky8-compute");
  });

  it("an image the node only inherits from a group is not one it was deployed with: waiting", () => {
    const view = nodeView({
      ...input({ status: "" }, { wantedImage: deployment }),
      values: { status: { value: "" }, provmethod: { value: "rocky9-compute", from: "compute" } },
    });
    expect([view.state, view.label]).toEqual(["waiting", "waiting for rocky9-compute"]);
    expect(view.facts).toContain(
      "image (provmethod): rocky9-compute (from group compute: not yet set on the node by nodeset)",
    );
  });

  it("with the up's event log: queued while the roll runs, not reached after a cancel or a stopped roll", () => {
    const waiting = (rollPosition: NodeStateInput["rollPosition"]) =>
      nodeView(
        input(
          { status: "booted", provmethod: "rocky8-compute" },
          { wantedImage: deployment, ...(rollPosition ? { rollPosition } : {}) },
        ),
      );
    expect([waiting("queued").state, waiting("queued").label]).toEqual([
      "waiting",
      "queued for rocky9-compute",
    ]);
    expect(waiting("queued").facts).toContain(
      "roll (event log of the up): under way, this node not reached yet",
    );
    const cancelled = waiting("not-reached-cancelled");
    expect([cancelled.state, cancelled.label]).toEqual(["not-reached", "not reached (cancelled)"]);
    expect(cancelled.facts).toContain(
      "roll (event log of the up): the up was cancelled before it deployed this node",
    );
    const stopped = waiting("not-reached-stopped");
    expect([stopped.state, stopped.label]).toEqual(["not-reached", "not reached (roll stopped)"]);
    // Without the event log the view cannot tell: waiting, as before.
    expect([waiting(undefined).state, waiting(undefined).label]).toEqual([
      "waiting",
      "waiting for rocky9-compute",
    ]);
  });

  it("the event log's position does not hide what the node itself says", () => {
    const booting = nodeView(
      input(
        { status: "netbooting", provmethod: "rocky9-compute" },
        { wantedImage: deployment, rollPosition: "not-reached-cancelled" },
      ),
    );
    expect([booting.state, booting.label]).toEqual(["deploying", "netbooting"]);
    const done = nodeView(
      input(
        { status: "booted", provmethod: "rocky9-compute" },
        { wantedImage: deployment, rollPosition: "not-reached-cancelled" },
      ),
    );
    expect(done.state).toBe("booted");
    expect(done.facts.join("\n")).not.toContain("roll (event log");
  });

  it("off when powered off and not in a boot or a roll", () => {
    const view = nodeView(input({ status: "booted" }, { power: "off" }));
    expect([view.state, view.label]).toEqual(["off", "off"]);
  });

  it("unknown with no status, saying so, and power unknown with the reason", () => {
    const { power: _power, ...rest } = input({});
    const view = nodeView({ ...rest, powerProblem: "the power read failed: 403" });
    expect([view.state, view.label]).toEqual(["unknown", "no status"]);
    expect(view.facts).toContain("power: unknown (the power read failed: 403)");
  });

  it("a node no Node or NodeSet resource holds is not under code, even when a Deployment acts on it", () => {
    const view = nodeView(
      input(
        { status: "booted", provmethod: "rocky9-compute" },
        {
          resources: [{ kind: "xcat:Deployment", name: "compute" }],
          wantedImage: deployment,
        },
      ),
    );
    expect(view.underCode).toBe(false);
    expect(view.owner).toBe("not under code");
    expect(view.facts).toContain("acted on by: xcat:Deployment compute");
    expect(view.facts).toContain("drift: not tracked (not under code)");
  });

  it("names the attributes changed since the stack recorded them", () => {
    const view = nodeView(input({ status: "booted" }, { drift: ["ip", "mac"] }));
    expect(view.drift).toEqual(["ip", "mac"]);
    expect(view.facts).toContain("drift: changed since the stack last recorded it: ip, mac");
  });

  it("every state has a legend sentence and a text colour that differs from its fill", () => {
    for (const style of Object.values(STATE_STYLE)) {
      expect(style.legend).toMatch(/^[a-z]+( [a-z]+)?: /);
      expect(style.text).not.toBe(style.fill);
    }
  });
});
