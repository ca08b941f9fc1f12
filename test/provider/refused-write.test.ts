/**
 * A write xCAT refuses for a failed only_if condition (`bmc` needs mgt=ipmi or openbmc): before
 * 2.18.0 the other attributes are written anyway (2.17.0:perl-xCAT/xCAT/DBobjUtils.pm:1214-1236),
 * from 2.18.0 nothing is (2.18.2:perl-xCAT/xCAT/DBobjUtils.pm:962-978). Either way the provider
 * fails naming the attribute and the condition, says what was and was not written, and records
 * in the state what the server holds (docs/xcat-versions.md).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ProviderHarness, providerHarness, RESOURCE_TEST_VERSIONS, runtime } from "./support";

const KIND = "xcat:Node";

describe.each(RESOURCE_TEST_VERSIONS)("on xCAT %s", (xcatVersion) => {
  const writesTheRest = xcatVersion !== "2.19";
  let h: ProviderHarness;
  beforeEach(async () => {
    h = await providerHarness({ xcatVersion });
  });
  afterEach(async () => {
    await h.close();
  });

  it("an update whose condition fails names bmc and mgt and records what the server holds", async () => {
    const { outs } = await h.createChecked(KIND, {
      name: "n1",
      groups: ["all"],
      attributes: { usercomment: "old" },
    });
    const news = { name: "n1", groups: ["all"], attributes: { usercomment: "new", bmc: "10.1.0.1" } };
    const { inputs } = await runtime.check(KIND, outs, news);
    const failure = await runtime.update(KIND, "n1", outs, inputs).then(
      () => undefined,
      (error: unknown) => error as Error & { properties?: Record<string, unknown> },
    );
    expect(failure?.message).toMatch(/'bmc' needs mgt to be ipmi or openbmc/);
    const server = h.emulator.state.getObject("node", "n1") ?? {};
    expect(server.bmc).toBeUndefined();
    const recorded = failure?.properties?.attributes as Record<string, string>;
    if (writesTheRest) {
      expect(server.usercomment).toBe("new");
      expect(failure?.message).toMatch(/Written anyway .*'usercomment'\. Not written: 'bmc'\./);
      expect(recorded).toEqual({ usercomment: "new", bmc: "" });
    } else {
      expect(server.usercomment).toBe("old");
      expect(failure?.message).toMatch(/Nothing of this write reached the server/);
      expect(recorded).toEqual({ usercomment: "old", bmc: "" });
    }
    // The next up sees what is left to do.
    const diff = await runtime.diff(KIND, "n1", failure?.properties ?? {}, inputs);
    expect(diff.changes).toBe(true);
  });

  it("a create whose condition fails: the node exists with the rest before 2.18, not at all after", async () => {
    const { inputs } = await runtime.check(
      KIND,
      {},
      {
        name: "n2",
        groups: ["all"],
        attributes: { usercomment: "x", bmc: "10.1.0.2" },
      },
    );
    const failure = await runtime.create(KIND, inputs).then(
      () => undefined,
      (error: unknown) => error as Error & { id?: string; properties?: Record<string, unknown> },
    );
    expect(failure?.message).toMatch(
      /refused the create of the node 'n2': 'bmc' needs mgt to be ipmi or openbmc/,
    );
    const server = h.emulator.state.getObject("node", "n2");
    if (writesTheRest) {
      expect(server?.usercomment).toBe("x");
      expect(failure?.id).toBe("n2");
      expect(failure?.properties?.attributes).toEqual({ usercomment: "x", bmc: "" });
    } else {
      expect(server).toBeUndefined();
      expect(failure?.id).toBeUndefined();
      expect(failure?.message).toMatch(/Nothing was written: the node was not created/);
    }
  });

  it("gets its bmc on create: a second request where the release may drop it (2.17.0:perl-xCAT/xCAT/DBobjUtils.pm:1214-1229)", async () => {
    await h.admin.groups.update("ipmigrp", { mgt: "ipmi" });
    const before = h.emulator.stats().byRoute["PUT /nodes/{noderange}"] ?? 0;
    await h.createChecked(KIND, {
      name: "n4",
      groups: ["ipmigrp"],
      attributes: { bmc: "10.1.0.4", ip: "10.0.0.4" },
    });
    expect(h.emulator.state.getObject("node", "n4")).toMatchObject({
      mgt: "ipmi",
      bmc: "10.1.0.4",
      ip: "10.0.0.4",
    });
    const puts = (h.emulator.stats().byRoute["PUT /nodes/{noderange}"] ?? 0) - before;
    expect(puts).toBe(xcatVersion === "2.19" ? 0 : 1);
  });
});
