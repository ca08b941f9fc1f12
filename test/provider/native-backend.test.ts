/**
 * `xcat:backend` on the native provider: Configure's `xcat:config:backend` chooses the backend as
 * the stack's `xcat:backend` does for the dynamic resources (provider/by-backend.ts), so a YAML
 * program's Node lands on Confluent, read back over Confluent's own API; CheckConfig refuses a
 * backend that does not exist, naming the provider's input. Against a fresh confluent-emulator (or the real
 * Confluent that CONFLUENT_E2E_URL names). Objects are named nvb-*.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfluentClient } from "../../src/client/confluent";
import { schemaText } from "../../src/native/server";
import { resetProcessContext } from "../../src/provider/process-context";
import { type ConfluentTarget, confluentTarget } from "../client/support/confluent-target";
import { callHandler, configureNative, nativeUrn, struct } from "./native-support";

const URN = nativeUrn;
let target: ConfluentTarget;
let admin: ConfluentClient;

const call = callHandler;

beforeAll(async () => {
  target = await confluentTarget();
  admin = new ConfluentClient({ url: target.url, username: target.username, password: target.password });
  await configureNative({
    backend: "confluent",
    url: target.url,
    username: target.username,
    password: target.password,
  });
});

afterAll(async () => {
  await admin?.nodes.delete("nvb-n1").catch(() => {});
  await admin?.close();
  await resetProcessContext();
  await target?.close();
});

describe("native provider: xcat:backend", () => {
  it("the schema documents xcat:backend in the config and on explicit providers", () => {
    const schema = JSON.parse(schemaText()) as {
      config: { variables: Record<string, { description?: string }> };
      provider: { inputProperties: Record<string, { description?: string }> };
    };
    for (const where of [schema.config.variables, schema.provider.inputProperties])
      expect(where.backend?.description).toMatch(/"xcat".*"confluent"/s);
  });

  it("CheckConfig refuses a backend that does not exist, naming the explicit provider's input", async () => {
    const checked = await call<provproto.CheckResponse>(
      "checkConfig",
      new provproto.CheckRequest()
        .setUrn("urn:pulumi:test::lab::pulumi:providers:xcat::mn2")
        .setNews(struct({ url: target.url, backend: "warewulf" })),
    );
    const reasons = checked.getFailuresList().map((failure) => failure.getReason());
    // An explicit provider takes it as its input, not as stack config (setting-advice.ts).
    expect(reasons.join("\n")).toMatch(
      /the backend input of the provider 'mn2' must be xcat or confluent, got 'warewulf'/,
    );
  });

  it("a Node of a YAML program lands on Confluent", async () => {
    const urn = URN("Node", "nvb-n1");
    const checked = await call<provproto.CheckResponse>(
      "check",
      new provproto.CheckRequest()
        .setUrn(urn)
        .setOlds(struct({}))
        .setNews(struct({ groups: ["everything"], attributes: { mgt: "ipmi", bmc: "127.0.10.77" } })),
    );
    expect(checked.getFailuresList()).toEqual([]);
    const created = await call<provproto.CreateResponse>(
      "create",
      new provproto.CreateRequest().setUrn(urn).setProperties(checked.getInputs()),
    );
    expect(created.getId()).toBe("nvb-n1");
    const node = await admin.nodes.get("nvb-n1");
    expect(node.get("hardwaremanagement.method")?.value).toBe("ipmi");
    expect(node.get("hardwaremanagement.manager")?.value).toBe("127.0.10.77");
  });
});
