/** xcat:PowerState through the provider runtime against the emulator (issue #13). */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const KIND = "xcat:PowerState";

describe("xcat:PowerState provider", () => {
  let h: ProviderHarness;
  beforeEach(async () => {
    h = await providerHarness({ bootSeconds: 0.2 });
    await h.admin.nodes.create("p[01-04]", { groups: "rack,all", mgt: "ipmi" });
  });
  afterEach(async () => {
    await h.close();
  });

  it("holds the power, refresh shows a node switched by hand without acting, up switches only it back", async () => {
    await h.admin.nodes.setPower("p02", "off");
    const { id, outs } = await h.createChecked(KIND, { nodes: "p[01-04]", power: "on" });
    expect(id).toBe("p[01-04]");
    expect(outs.powerStates).toEqual({ p01: "on", p02: "on", p03: "on", p04: "on" });
    expect(h.emulator.state.getHardware("p02").power).toBe("on");

    await h.admin.nodes.setPower("p03", "off");
    const read = await runtime.read(KIND, id, outs);
    expect((read.props as { powerStates: Record<string, string> }).powerStates.p03).toBe("off");
    expect(h.emulator.state.getHardware("p03").power).toBe("off");
    const news = (await runtime.check(KIND, read.props, { nodes: "p[01-04]", power: "on" })).inputs;
    expect((await runtime.diff(KIND, id, read.props, news)).changes).toBe(true);
    const logBefore = h.emulator.state.getHardware("p01").eventlog.length;
    const updated = await runtime.update(KIND, id, read.props, news);
    expect((updated.outs as { powerStates: Record<string, string> }).powerStates.p03).toBe("on");
    expect(h.emulator.state.getHardware("p03").power).toBe("on");
    expect(h.emulator.state.getHardware("p01").eventlog.length).toBe(logBefore);

    // Held: no diff.
    expect((await runtime.diff(KIND, id, updated.outs, news)).changes).toBe(false);
    await runtime.delete(KIND, id, updated.outs);
    expect(h.emulator.state.getHardware("p01").power).toBe("on");
  });

  it("refresh of a node list leaves out a node deleted by hand instead of dropping the whole resource", async () => {
    const { id, outs } = await h.createChecked(KIND, { nodes: ["p01", "p02", "p03"], power: "on" });
    await h.admin.nodes.delete("p02");
    await h.admin.nodes.setPower("p03", "off");
    const read = await runtime.read(KIND, id, outs);
    expect(read.id).toBe(id);
    expect((read.props as { powerStates: Record<string, string> }).powerStates).toEqual({
      p01: "on",
      p03: "off",
    });
  });

  it("refuses bad input and nodes that are not nodes", async () => {
    expect((await h.check(KIND, { nodes: "p01", power: "standby" })).failures?.[0]?.property).toBe("power");
    await expect(h.createChecked(KIND, { nodes: ["p01", "ghost"], power: "off" })).rejects.toThrow(
      /xcat:PowerState: nodes: .*ghost/,
    );
  });
});
