/**
 * `xcat:backend` on the native provider: Configure's `xcat:config:backend` chooses the backend as
 * the stack's `xcat:backend` does for the dynamic resources (provider/by-backend.ts), so a YAML
 * program's Node lands on Confluent, read back over Confluent's own API; CheckConfig refuses a
 * backend that does not exist, naming the key. Against a fresh confluent-emulator (or the real
 * Confluent that CONFLUENT_E2E_URL names). Objects are named nvb-*.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfluentClient } from "../../src/client/confluent";
import { resourceProviderHandlers, schemaText } from "../../src/native/server";
import { encode } from "../../src/native/wire";
import { resetProcessContext } from "../../src/provider/process-context";
import { type ConfluentTarget, confluentTarget } from "../client/support/confluent-target";

const URN = (type: string, name: string) => `urn:pulumi:test::lab::xcat:index:${type}::${name}`;
let target: ConfluentTarget;
let admin: ConfluentClient;

function call<Response>(method: string, request: unknown): Promise<Response> {
  return new Promise((resolvePromise, reject) => {
    const handler = resourceProviderHandlers[method];
    if (!handler) throw new Error(`no handler ${method}`);
    handler({ request: request as never }, (error, response) =>
      error ? reject(error) : resolvePromise(response as Response),
    );
  });
}

const struct = (values: Record<string, unknown>): Struct => encode(values, new Set());

beforeAll(async () => {
  target = await confluentTarget();
  admin = new ConfluentClient({ url: target.url, username: target.username, password: target.password });
  await resetProcessContext();
  const request = new provproto.ConfigureRequest().setAcceptsecrets(true);
  const variables = request.getVariablesMap();
  variables.set("xcat:config:backend", "confluent");
  variables.set("xcat:config:url", target.url);
  variables.set("xcat:config:username", target.username);
  variables.set("xcat:config:password", target.password);
  await call("configure", request);
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

  it("CheckConfig refuses a backend that does not exist, naming the key", async () => {
    const checked = await call<provproto.CheckResponse>(
      "checkConfig",
      new provproto.CheckRequest()
        .setUrn("urn:pulumi:test::lab::pulumi:providers:xcat::mn2")
        .setNews(struct({ url: target.url, backend: "warewulf" })),
    );
    const reasons = checked.getFailuresList().map((failure) => failure.getReason());
    expect(reasons.join("\n")).toMatch(/xcat:backend.*warewulf/);
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
