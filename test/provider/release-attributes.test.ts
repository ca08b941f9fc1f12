/**
 * An attribute the management node's xCAT release does not know is refused at preview (check),
 * with the release named, learnt with one read per attribute and management node and no write:
 * `nfsrootopts` came with 2.19 (master:perl-xCAT/xCAT/Schema.pm:3221-3225; docs/xcat-versions.md).
 */
import { afterEach, describe, expect, it } from "vitest";
import { type ProviderHarness, providerHarness } from "./support";

const image = (name: string) => ({
  name,
  attributes: { imagetype: "linux", osvers: "rocky9", nfsrootopts: "vers=4" },
});

describe("attributes only some xCAT releases know", () => {
  let h: ProviderHarness | undefined;
  afterEach(async () => {
    await h?.close();
  });

  it("on 2.18.2 check refuses nfsrootopts naming 2.19, with one read for many resources and no write", async () => {
    h = await providerHarness({ xcatVersion: "2.18.2" });
    const harness = h;
    await harness.admin.osimages.update("existing", { imagetype: "linux" });
    const before = harness.emulator.stats();
    const results = await Promise.all(["a", "b", "c"].map((n) => harness.check("xcat:Osimage", image(n))));
    for (const result of results) {
      expect(result.failures).toEqual([
        {
          property: "attributes",
          reason: expect.stringMatching(
            /does not know the OS image attribute 'nfsrootopts': it came with xCAT 2\.19, .*master:perl-xCAT\/xCAT\/Schema\.pm/,
          ),
        },
      ]);
    }
    const after = harness.emulator.stats();
    const probes =
      (after.byRoute["GET /osimages/{imgname}/attrs/{attrs}"] ?? 0) -
      (before.byRoute["GET /osimages/{imgname}/attrs/{attrs}"] ?? 0);
    expect(probes).toBe(1);
    const writes = Object.entries(after.byRoute)
      .filter(([route]) => /^(PUT|POST|DELETE) \/osimages/.test(route))
      .reduce((sum, [route, count]) => sum + count - (before.byRoute[route] ?? 0), 0);
    expect(writes).toBe(0);
  });

  it("on 2.19 check accepts it; programs without such attributes send no probe", async () => {
    h = await providerHarness({ xcatVersion: "2.19" });
    await h.admin.osimages.update("existing", { imagetype: "linux" });
    expect((await h.check("xcat:Osimage", image("a"))).failures ?? []).toEqual([]);
    const before = h.emulator.stats().byRoute["GET /osimages/{imgname}/attrs/{attrs}"] ?? 0;
    await h.check("xcat:Osimage", { name: "b", attributes: { imagetype: "linux" } });
    expect(h.emulator.stats().byRoute["GET /osimages/{imgname}/attrs/{attrs}"] ?? 0).toBe(before);
  });
});
