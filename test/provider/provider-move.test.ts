/**
 * Moving a resource between servers is never silent (issue #36 item 2), at the provider's level:
 * - the native provider's DiffConfig, which the engine asks when a resource's `provider`
 *   reference changes (pkg/resource/deploy/step_generator.go `providerChanged` at v3.259.0) and
 *   when a provider's own inputs change (providers/registry.go `Diff`): another url or backend is
 *   a replacement, other settings an update of the provider alone;
 * - a dynamic resource's `connection` naming another server: diff replaces on `connection`,
 *   create-before-delete, and the engine's create (new inputs) and delete (old outputs) land on
 *   the new and the old server; another account on the same server stays an update.
 * Against a fresh xcat-emulator (the stack's), a second one and a confluent-emulator.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningConfluentEmulator, startConfluentEmulator } from "../../src/confluent-emulator";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { encode } from "../../src/native/wire";
import { UNKNOWN } from "../../src/provider/validation";
import { callHandler, struct } from "./native-support";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const PROVIDER_URN = "urn:pulumi:test::lab::pulumi:providers:xcat::confluent";

async function diffConfig(olds: Record<string, unknown>, news: Record<string, unknown>) {
  const request = new provproto.DiffRequest()
    .setUrn(PROVIDER_URN)
    // The password travels as a secret, as the engine sends a provider's secret input.
    .setOldInputs(encode(olds, new Set(["password"])))
    .setOlds(struct({}))
    .setNews(encode(news, new Set(["password"])));
  const response = await callHandler<provproto.DiffResponse>("diffConfig", request);
  return {
    changes: response.getChanges(),
    replaces: response.getReplacesList(),
    diffs: response.getDiffsList(),
  };
}

const { DIFF_NONE, DIFF_SOME } = provproto.DiffResponse.DiffChanges;

describe("native DiffConfig: another server is a replacement", () => {
  const xcatA = { url: "https://127.0.0.1:8443/xcatws", username: "root", password: "a" };

  it("the same settings: no change", async () => {
    expect(await diffConfig(xcatA, { ...xcatA })).toEqual({ changes: DIFF_NONE, replaces: [], diffs: [] });
  });

  it("another password or account on the same server: a change, not a replacement", async () => {
    expect(await diffConfig(xcatA, { ...xcatA, username: "ops", password: "b" })).toEqual({
      changes: DIFF_SOME,
      replaces: [],
      diffs: ["password", "username"],
    });
  });

  it("the same server written another way (no path, default backend named): no replacement", async () => {
    const same = await diffConfig(xcatA, { ...xcatA, url: "https://127.0.0.1:8443", backend: "xcat" });
    expect(same.replaces).toEqual([]);
  });

  it("another management node: replaced on url", async () => {
    const moved = await diffConfig(xcatA, { ...xcatA, url: "https://127.0.0.2:8443/xcatws" });
    expect(moved).toMatchObject({ changes: DIFF_SOME, replaces: ["url"] });
  });

  it("the default provider's xCAT to an explicit Confluent provider: replaced on url and backend", async () => {
    const moved = await diffConfig(xcatA, {
      url: "https://127.0.0.1:9443",
      backend: "confluent",
      username: "admin",
      password: "c",
    });
    expect(moved.replaces).toEqual(["url", "backend"]);
  });

  it("a url not known until apply: a replacement in the preview, decided again by up", async () => {
    const unknown = await diffConfig(xcatA, { ...xcatA, url: UNKNOWN });
    expect(unknown.replaces).toEqual(["url", "backend"]);
  });
});

describe("a dynamic resource's connection naming another server moves it", () => {
  const KIND = "xcat:Node";
  let h: ProviderHarness;
  let other: RunningEmulator;
  let confluent: RunningConfluentEmulator;

  beforeAll(async () => {
    h = await providerHarness({}, { "xcat:nameServices": "none" });
    other = await startEmulator({ user: "admin-b", password: "other-Pw-3391" });
    confluent = await startConfluentEmulator();
  });

  afterAll(async () => {
    await h?.close();
    await other?.close();
    await confluent?.close();
  });

  const node = (name: string, connection?: Record<string, string>) => ({
    name,
    groups: ["all"],
    attributes: { ip: "10.36.0.1", mgt: "ipmi", bmc: "127.0.10.36" },
    ...(connection ? { connection } : {}),
  });

  /** What the engine does for a replacement that is not delete-before-replace. */
  async function replace(id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    const checked = await runtime.check(KIND, olds, news);
    expect(checked.failures ?? []).toEqual([]);
    const diff = await runtime.diff(KIND, id, olds, checked.inputs);
    expect(diff).toMatchObject({ changes: true, replaces: ["connection"], deleteBeforeReplace: false });
    const created = await runtime.create(KIND, checked.inputs);
    await runtime.delete(KIND, id, olds);
    return { id: created.id, outs: created.outs as Record<string, unknown> };
  }

  it("from the stack's xCAT to another management node, and on to Confluent: created on each new server, deleted from the old", async () => {
    const first = await h.createChecked(KIND, node("mv36"));
    expect(h.emulator.state.listObjects("node")).toEqual(["mv36"]);

    const onB = { url: other.url, username: "admin-b", password: "other-Pw-3391" };
    const second = await replace(first.id, first.outs, node("mv36", onB));
    expect(h.emulator.state.listObjects("node")).toEqual([]);
    expect(other.state.listObjects("node")).toEqual(["mv36"]);

    const onC = { url: confluent.url, username: "root", password: "cluster", backend: "confluent" };
    const third = await replace(second.id, second.outs, node("mv36", onC));
    expect(other.state.listObjects("node")).toEqual([]);
    expect(confluent.state.nodeNames()).toEqual(["mv36"]);
    await runtime.delete(KIND, third.id, third.outs);
    expect(confluent.state.nodeNames()).toEqual([]);
  });

  it("a URL naming the stack's server another way is taken for another server, and the create refuses to take the node over: nothing is deleted", async () => {
    const first = await h.createChecked(KIND, node("al36"));
    const alias = {
      url: h.emulator.url.replace("127.0.0.1", "localhost"),
      username: "root",
      password: EMULATOR_DEFAULT_PASSWORD,
    };
    const checked = await runtime.check(KIND, first.outs, node("al36", alias));
    expect((await runtime.diff(KIND, first.id, first.outs, checked.inputs)).replaces).toEqual(["connection"]);
    // The engine's create of the replacement fails, so it never runs the delete.
    await expect(runtime.create(KIND, checked.inputs)).rejects.toThrow(
      /xcat:Node: the node 'al36' already exists where its replacement is to be created.*Nothing was changed/,
    );
    expect(h.emulator.state.getObject("node", "al36")).toMatchObject({ ip: "10.36.0.1", bmc: "127.0.10.36" });
    await runtime.delete(KIND, first.id, first.outs);
  });

  it("a move onto a server that already holds the node takes it over only with adopt", async () => {
    const onB = { url: other.url, username: "admin-b", password: "other-Pw-3391" };
    // Already on B, as a site that copied its nodes over by hand would have it.
    await h.createChecked(KIND, node("ad36", onB));
    const first = await h.createChecked(KIND, node("ad36"));
    const refused = await runtime.check(KIND, first.outs, node("ad36", onB));
    await expect(runtime.create(KIND, refused.inputs)).rejects.toThrow(/set adopt: true/);
    const moved = await replace(first.id, first.outs, { ...node("ad36", onB), adopt: true });
    expect(h.emulator.state.listObjects("node")).not.toContain("ad36");
    expect(other.state.listObjects("node")).toContain("ad36");
    await runtime.delete(KIND, moved.id, moved.outs);
  });

  it("a new resource naming an object of the same name on another server is no replacement: it takes over a matching one", async () => {
    const onB = { url: other.url, username: "admin-b", password: "other-Pw-3391" };
    await h.createChecked(KIND, node("tw36", onB));
    const onA = await h.createChecked(KIND, node("tw36"));
    // The resource on A is checked as an existing one, as every preview and up does.
    await runtime.check(KIND, onA.outs, node("tw36"));
    const fresh = await runtime.check(KIND, {}, node("tw36", onB));
    const taken = await runtime.create(KIND, fresh.inputs);
    expect(taken.id).toBe("tw36");
    await runtime.delete(KIND, taken.id, taken.outs as Record<string, unknown>);
    await runtime.delete(KIND, onA.id, onA.outs);
    expect([h.emulator.state.listObjects("node"), other.state.listObjects("node")]).toEqual([[], []]);
  });

  it("another account on the same server, or the stack's server named in a connection: an update, no move", async () => {
    const first = await h.createChecked(KIND, node("st36"));
    const sameServer = { url: h.emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD };
    const checked = await runtime.check(KIND, first.outs, node("st36", sameServer));
    const diff = await runtime.diff(KIND, first.id, first.outs, checked.inputs);
    expect(diff.replaces).toEqual([]);
    expect(diff.deleteBeforeReplace).toBe(true);
    await runtime.delete(KIND, first.id, first.outs);
  });
});
