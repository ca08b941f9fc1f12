/**
 * One provider process, both backends at once (issue #24 item 2): during a move a site's program
 * holds nodes that stay on the old xCAT management node (the stack's connection) and nodes already
 * on the new Confluent one (`connection.backend: "confluent"` on those resources). Each node is
 * written to, read from and deleted on its own server only, through the runtime the dynamic
 * provider calls, against a fresh xcat-emulator and confluent-emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfluentClient } from "../../src/client/confluent";
import { type RunningConfluentEmulator, startConfluentEmulator } from "../../src/confluent-emulator";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const KIND = "xcat:Node";

describe("a stack whose nodes are on xCAT and on Confluent", () => {
  // The stack's connection: an xcat-emulator, as every provider suite has.
  let h: ProviderHarness;
  let confluent: RunningConfluentEmulator;
  let confluentAdmin: ConfluentClient;

  beforeAll(async () => {
    h = await providerHarness({}, { "xcat:nameServices": "none" });
    confluent = await startConfluentEmulator();
    confluentAdmin = new ConfluentClient({ url: confluent.url, username: "root", password: "cluster" });
  });

  afterAll(async () => {
    await confluentAdmin?.close();
    await h?.close();
    await confluent?.close();
  });

  const onConfluent = () => ({
    url: confluent.url,
    username: "root",
    password: "cluster",
    backend: "confluent",
  });
  const node = (name: string, ip: string, connection?: Record<string, string>) => ({
    name,
    groups: ["all"],
    attributes: { ip, mgt: "ipmi", bmc: "127.0.10.9" },
    ...(connection ? { connection } : {}),
  });

  it("writes, reads and deletes each node on its own server only", async () => {
    const checkedOld = await runtime.check(KIND, {}, node("old01", "10.30.0.1"));
    const checkedNew = await runtime.check(KIND, {}, node("new01", "10.30.0.2", onConfluent()));
    expect([checkedOld.failures ?? [], checkedNew.failures ?? []]).toEqual([[], []]);
    // Created side by side, as the engine's steps run.
    const [old, moved] = await Promise.all([
      runtime.create(KIND, checkedOld.inputs),
      runtime.create(KIND, checkedNew.inputs),
    ]);

    expect(h.emulator.state.listObjects("node")).toEqual(["old01"]);
    expect(h.emulator.state.getObject("node", "old01")).toMatchObject({ ip: "10.30.0.1", mgt: "ipmi" });
    expect(confluent.state.nodeNames()).toEqual(["new01"]);
    const read = await confluentAdmin.nodes.get("new01");
    expect(read.get("net.ipv4_address")?.value).toBe("10.30.0.2");
    expect(read.get("hardwaremanagement.method")?.value).toBe("ipmi");

    // A refresh reads each from its own server.
    const [oldRead, movedRead] = await Promise.all([
      runtime.read(KIND, old.id, old.outs),
      runtime.read(KIND, moved.id, moved.outs),
    ]);
    expect((oldRead.props as { attributes: Record<string, string> }).attributes.ip).toBe("10.30.0.1");
    expect((movedRead.props as { attributes: Record<string, string> }).attributes.ip).toBe("10.30.0.2");

    await Promise.all([runtime.delete(KIND, old.id, old.outs), runtime.delete(KIND, moved.id, moved.outs)]);
    expect(h.emulator.state.listObjects("node")).toEqual([]);
    expect(confluent.state.nodeNames()).toEqual([]);
  });
});
