/**
 * The native provider's gRPC handlers (src/native/server.ts) called as the engine calls them,
 * with the protocol's own request messages, against a fresh in-process emulator: Configure from
 * `xcat:config:*` variables, Check shaping a YAML program's inputs (name default, password
 * attributes split into the secret `secretAttributes`), outputs with secrets wrapped, Read by id
 * alone (`pulumi import`), errors naming resource and field, and a Cancel with nothing in flight.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { schemaText } from "../../src/native/server";
import { decode, secret } from "../../src/native/wire";
import { resetProcessContext } from "../../src/provider/process-context";
import { callHandler, configureNative, nativeUrn, struct } from "./native-support";

const URN = nativeUrn;
let emulator: RunningEmulator;
let admin: XcatClient;

const call = callHandler;

beforeAll(async () => {
  emulator = await startEmulator();
  admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
  const configured = await configureNative({
    url: emulator.url,
    username: "root",
    password: EMULATOR_DEFAULT_PASSWORD,
  });
  expect(configured.getAcceptsecrets()).toBe(true);
});

afterAll(async () => {
  await resetProcessContext();
  await admin?.close();
  await emulator?.close();
});

describe("native provider handlers", () => {
  it("serves the schema generated at build, with every kind", () => {
    const schema = JSON.parse(schemaText()) as { resources: Record<string, unknown> };
    expect(Object.keys(schema.resources).sort()).toEqual(
      [
        "Deployment",
        "GlobalConfAttribute",
        "Group",
        "Network",
        "Node",
        "NodeSet",
        "Osimage",
        "Policy",
        "PowerState",
        "TableRow",
        "VirtualMachine",
      ].map((kind) => `xcat:index:${kind}`),
    );
  });

  it("check defaults the name, moves passwords and values given as secrets into the secret secretAttributes; create returns them secret", async () => {
    const news = struct({
      groups: ["compute", "all"],
      attributes: {
        mgt: "ipmi",
        ip: "10.0.0.7",
        bmcpassword: secret("native-pw-1"),
        // No password by its name, but a secret by the program's word (fn::secret).
        bmcusername: secret("native-bmc-user-1"),
      },
    });
    const checked = await call<provproto.CheckResponse>(
      "check",
      new provproto.CheckRequest().setUrn(URN("Node", "cn07")).setOlds(struct({})).setNews(news),
    );
    expect(checked.getFailuresList()).toEqual([]);
    const raw = checked.getInputs()?.toJavaScript() as Record<string, unknown>;
    expect(raw.name).toBe("cn07");
    expect(raw.attributes).toEqual({ mgt: "ipmi", ip: "10.0.0.7" });
    expect(raw.secretAttributes).toEqual(
      secret({ bmcpassword: "native-pw-1", bmcusername: "native-bmc-user-1" }),
    );

    const created = await call<provproto.CreateResponse>(
      "create",
      new provproto.CreateRequest().setUrn(URN("Node", "cn07")).setProperties(checked.getInputs()),
    );
    expect(created.getId()).toBe("cn07");
    const outputs = created.getProperties()?.toJavaScript() as Record<string, unknown>;
    expect(outputs.secretAttributes).toEqual(
      secret({ bmcpassword: "native-pw-1", bmcusername: "native-bmc-user-1" }),
    );
    // Every output but the secret one is stored as it is: neither value may be in them.
    const { secretAttributes: _secret, ...plainOutputs } = outputs;
    expect(JSON.stringify(plainOutputs)).not.toMatch(/native-pw-1|native-bmc-user-1/);
    expect(outputs.allAttributes).toMatchObject({ ip: "10.0.0.7", mgt: "ipmi" });
    expect(await admin.nodes.get("cn07")).toMatchObject({
      ip: "10.0.0.7",
      bmcpassword: "native-pw-1",
      bmcusername: "native-bmc-user-1",
    });
  });

  it("check failures name the field, before anything reaches xCAT", async () => {
    const before = emulator.stats().total;
    const checked = await call<provproto.CheckResponse>(
      "check",
      new provproto.CheckRequest()
        .setUrn(URN("Node", "bad"))
        .setOlds(struct({}))
        .setNews(struct({ groups: [] })),
    );
    const failures = checked.getFailuresList().map((failure) => failure.toObject());
    expect(failures).toEqual([expect.objectContaining({ property: "groups" })]);
    expect(failures[0]?.reason).toMatch(/groups must be a non-empty list/);
    expect(emulator.stats().total).toBe(before);
  });

  it("read by id alone (pulumi import) returns the object's inputs", async () => {
    await admin.nodes.create("handmade01", { groups: "compute,all", ip: "10.0.0.99" });
    const read = await call<provproto.ReadResponse>(
      "read",
      new provproto.ReadRequest().setId("handmade01").setUrn(URN("Node", "handmade01")),
    );
    expect(read.getId()).toBe("handmade01");
    const inputs = decode(read.getInputs()).values;
    expect(inputs).toMatchObject({ name: "handmade01", groups: ["compute", "all"] });
    expect(inputs.attributes).toMatchObject({ ip: "10.0.0.99" });
  });

  it("an unknown type fails naming the types served", async () => {
    await expect(
      call("check", new provproto.CheckRequest().setUrn(URN("Nodes", "x")).setNews(struct({}))),
    ).rejects.toMatchObject({ message: expect.stringContaining("no resource type 'xcat:index:Nodes'") });
  });

  it("a Cancel with nothing in flight (the one after every run) changes nothing", async () => {
    await call("cancel", {});
    const read = await call<provproto.ReadResponse>(
      "read",
      new provproto.ReadRequest().setId("cn07").setUrn(URN("Node", "cn07")),
    );
    expect(read.getId()).toBe("cn07");
  });
});
