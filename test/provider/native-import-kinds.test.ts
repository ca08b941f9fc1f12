/**
 * `pulumi import xcat:index:<Kind> <name> <id>` for every kind that has an id (issue #30 item 4),
 * at the level of the native provider's handlers, as the engine makes an import: a Read with the
 * id alone (no state, no inputs), then the program the engine generates from the inputs read
 * (here: those inputs as the program's), its Check and a Diff against the state read, which must
 * report no changes. The objects are made by hand on a fresh emulator first. The engine's own
 * path (GenerateProgram, the YAML host) is test/e2e/native-import.test.ts, for four of the kinds.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { decode } from "../../src/native/wire";
import { resetProcessContext } from "../../src/provider/process-context";
import { callHandler, configureNative, nativeUrn } from "./native-support";

let emulator: RunningEmulator;
let admin: XcatClient;

beforeAll(async () => {
  emulator = await startEmulator({ bootSeconds: 0.2 });
  admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
  // Made by hand, as an admin would before adopting them.
  await admin.groups.update("imp-rack", { mgt: "ipmi", netboot: "xnba" });
  await admin.nodes.create("imp[01-02]", {
    groups: "imp-rack,all",
    mac: "52:54:00:71:00:01",
    ip: "10.7.1.1",
  });
  await admin.nodes.create("impkvm", { groups: "all", mgt: "ipmi" });
  await admin.nodes.create("impvm01", { groups: "all", mgt: "kvm", vmhost: "impkvm" });
  await admin.nodes.createVm("impvm01", { cpuCount: 2, memorySizeMb: 2048, diskSize: "20G" });
  await admin.osimages.create("imp-rhels9-compute", {
    imagetype: "linux",
    provmethod: "netboot",
    osvers: "rhels9.4",
    osarch: "x86_64",
    profile: "compute",
  });
  await admin.networks.create("imp-net", { net: "10.77.0.0", mask: "255.255.0.0" });
  await admin.policy.create("7.5", { name: "imp-user", rule: "allow" });
  await admin.globalconf.setAttrs({ "imp-setting": "on" });
  await admin.tables.setRows(
    "routes",
    { routename: "imp-route" },
    { net: "10.88.0.0", mask: "255.255.0.0", gateway: "10.77.0.1" },
  );
  await admin.tables.setRows(
    "passwd",
    { key: "imp-ipmi", username: "ADMIN" },
    { password: "imp-S3cret", cryptmethod: "md5" },
  );
  // Deployed by hand: nodeset, a network boot, and the install runs until the nodes are booted.
  await admin.nodes.setBootstate("imp[01-02]", { osimage: "imp-rhels9-compute" });
  await admin.nodes.setPower("imp[01-02]", "boot");
  for (let tries = 0; tries < 100; tries++) {
    const states = await admin.nodes.getMany("imp[01-02]", { attrs: ["status"] });
    if ([...states.values()].every((node) => node.status === "booted")) break;
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
  }
  await configureNative({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
});

afterAll(async () => {
  await resetProcessContext();
  await admin?.close();
  await emulator?.close();
});

/** Import by id, then check and diff the imported inputs as the next preview does. */
async function importThenDiff(type: string, id: string) {
  const urn = nativeUrn(type, `imported-${type.toLowerCase()}`);
  const read = await callHandler<provproto.ReadResponse>(
    "read",
    new provproto.ReadRequest().setId(id).setUrn(urn),
  );
  expect(read.getId(), `${type} ${id}: read by id alone finds it`).toBe(id);
  const inputs = read.getInputs();
  const state = read.getProperties();
  expect(inputs, `${type} ${id}: inputs for the generated program`).toBeDefined();
  const checked = await callHandler<provproto.CheckResponse>(
    "check",
    new provproto.CheckRequest().setUrn(urn).setOlds(inputs).setNews(inputs),
  );
  expect(checked.getFailuresList().map((failure) => failure.getReason())).toEqual([]);
  const diff = await callHandler<provproto.DiffResponse>(
    "diff",
    new provproto.DiffRequest()
      .setId(id)
      .setUrn(urn)
      .setOlds(state)
      .setOldInputs(inputs)
      .setNews(checked.getInputs()),
  );
  return { diff, inputs: decode(inputs).values };
}

describe("pulumi import of every kind with an id, on the native provider", () => {
  it("a passwd row is imported without its password: the printed code cannot carry it, so it stays on the server", async () => {
    const { diff, inputs } = await importThenDiff("TableRow", "passwd:key=imp-ipmi,username=ADMIN");
    expect(inputs.values).toEqual({ cryptmethod: "md5" });
    expect(JSON.stringify(inputs)).not.toContain("imp-S3cret");
    expect(diff.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);
    const [row] = await admin.tables.getRows("passwd", { key: "imp-ipmi", username: "ADMIN" });
    expect(row?.password).toBe("imp-S3cret");
  });

  it.each([
    ["Node", "imp01"],
    ["Group", "imp-rack"],
    ["Osimage", "imp-rhels9-compute"],
    ["Network", "imp-net"],
    ["Policy", "7.5"],
    ["GlobalConfAttribute", "imp-setting"],
    ["TableRow", "routes:routename=imp-route"],
    ["TableRow", "passwd:key=imp-ipmi,username=ADMIN"],
    ["VirtualMachine", "impvm01"],
    ["PowerState", "imp[01-02]"],
    ["Deployment", "imp[01-02]"],
  ])("%s %s: the next preview has no changes", async (type, id) => {
    const { diff } = await importThenDiff(type, id);
    expect(diff.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);
  });
});
