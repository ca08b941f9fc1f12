/**
 * What check (the provider's part of a preview) proves and shows (issue #16 items 4 and 5): the
 * connection, once per management node, and for each resource that will adopt an existing object
 * what adopting changes there, read in batched requests, secrets as [secret].
 */

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EMULATOR_DEFAULT_PASSWORD } from "../../src/emulator";
import { configureProcess, resetProcessContext } from "../../src/provider/process-context";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const KIND = "xcat:Node";

describe("preview checks", () => {
  let h: ProviderHarness;
  beforeEach(async () => {
    h = await providerHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  const node = (name: string, ip: string) => ({
    name,
    groups: ["compute"],
    attributes: { ip, mgt: "ipmi" },
    secretAttributes: { iscsipassword: "new-iscsi-pw-71a" },
  });

  it("checking many resources proves the connection with one token request", async () => {
    const before = h.emulator.stats().total;
    await Promise.all([1, 2, 3].map((n) => h.check(KIND, node(`cn00${n}`, `10.0.0.${n}`))));
    // The token, and one read of the site for the line saying which name services up sends for
    // these new nodes (site.nameservers and dhcpsetup, read once per process).
    expect(h.emulator.stats().total - before).toBe(2);
    expect(h.emulator.stats().byRoute["GET /globalconf/attrs/{attrs}"]).toBe(1);
    // The token is kept: the create that follows needs no second token request.
    await h.createChecked(KIND, node("cn001", "10.0.0.1"));
    const tokenRequests = Object.entries(h.emulator.stats().byRoute)
      .filter(([route]) => route.includes("tokens"))
      .reduce((sum, [, count]) => sum + count, 0);
    expect(tokenRequests).toBe(1);
  });

  it("a wrong password fails check saying the account is refused and where it is set; checkConnection false skips", async () => {
    await resetProcessContext();
    const config: Record<string, string> = {
      "xcat:url": h.emulator.url,
      "xcat:username": "root",
      "xcat:password": "wrong-pw-5d2",
    };
    configureProcess((key) => config[key]);
    const failure = h.check(KIND, node("cn001", "10.0.0.1"));
    await expect(failure).rejects.toThrow(/refused the account and password .* xcat:username\/xcat:password/);
    await expect(failure).rejects.not.toThrow(/wrong-pw-5d2/);

    await resetProcessContext();
    configureProcess((key) => ({ ...config, "xcat:checkConnection": "false" })[key]);
    const before = h.emulator.stats().total;
    await expect(h.check(KIND, node("cn001", "10.0.0.1"))).resolves.toHaveProperty("inputs");
    expect(h.emulator.stats().total).toBe(before);
  });

  it("an unreachable URL fails check naming the URL", async () => {
    await resetProcessContext();
    const config: Record<string, string> = {
      "xcat:url": "http://127.0.0.1:9/xcatws",
      "xcat:username": "root",
      "xcat:password": EMULATOR_DEFAULT_PASSWORD,
      "xcat:maxRetries": "0",
    };
    configureProcess((key) => config[key]);
    await expect(h.check(KIND, node("cn001", "10.0.0.1"))).rejects.toThrow(
      /cannot reach the xCAT service at http:\/\/127\.0\.0\.1:9\/xcatws/,
    );
  });

  it("a node to adopt shows what adopting changes, secrets as [secret]; none shown without adopt or object", async () => {
    await h.admin.nodes.create("node005", {
      groups: "compute",
      ip: "10.0.0.5",
      iscsipassword: "old-iscsi-pw-9c3",
    });
    const program = node("node005", "10.0.0.99");
    const adopting = { ...program, attributes: { ...program.attributes, netboot: "xnba" }, adopt: true };
    const checked = await h.check(KIND, adopting);
    const inputs = checked.inputs as Record<string, unknown>;
    expect(inputs.adoptChanges).toEqual({
      ip: "10.0.0.5 → 10.0.0.99",
      mgt: "(unset) → ipmi",
      netboot: "(unset) → xnba",
      iscsipassword: "[secret] → [secret]",
    });
    expect(JSON.stringify(checked)).not.toContain("old-iscsi-pw-9c3");

    expect((await h.check(KIND, node("node005", "10.0.0.99"))).inputs).not.toHaveProperty("adoptChanges");
    expect((await h.check(KIND, { ...node("node006", "10.0.0.6"), adopt: true })).inputs).not.toHaveProperty(
      "adoptChanges",
    );

    // An existing resource (olds given) is not re-read, and create does not keep adoptChanges.
    const created = await runtime.create(KIND, inputs);
    expect(created.outs).not.toHaveProperty("adoptChanges");
    const before = h.emulator.stats().total;
    const again = await runtime.check(KIND, inputs, adopting);
    expect(again.inputs).not.toHaveProperty("adoptChanges");
    expect(h.emulator.stats().total).toBe(before);
    expect((await runtime.diff(KIND, "node005", created.outs, again.inputs)).changes).toBe(false);
  });

  it("20 nodes to adopt are read in at most 2 requests", async () => {
    const names = Array.from({ length: 20 }, (_, i) => `node${String(i + 10).padStart(3, "0")}`);
    for (const name of names) await h.admin.nodes.create(name, { groups: "compute", ip: "10.0.1.1" });
    await h.check(KIND, node("warmup", "10.0.0.1")); // the token request
    const before = h.emulator.stats().total;
    const checked = await Promise.all(
      names.map((name, i) => h.check(KIND, { ...node(name, `10.0.2.${i + 1}`), adopt: true })),
    );
    expect(h.emulator.stats().total - before).toBeLessThanOrEqual(2);
    const fourth = checked[3]?.inputs as { adoptChanges?: Record<string, string> } | undefined;
    expect(fourth?.adoptChanges?.ip).toBe("10.0.1.1 → 10.0.2.4");
  });
});
