/**
 * What pins read of a management node that is not the stack's own (issue #36, support-matrix.md
 * N16): a Confluent node's value in xCAT's words (src/cli/pins/node-values.ts), and a TypeScript
 * resource's own `connection` from the state (src/cli/provider-settings.ts). The path through the
 * engine is in test/e2e/explicit-providers.test.ts.
 */
import { describe, expect, it } from "vitest";
import { confluentValue, SET_ON_CONFLUENT } from "../../src/cli/pins/node-values";
import { connectionSettings } from "../../src/cli/provider-settings";
import { SECRET_SIG } from "../../src/cli/stack-resources";

describe("confluentValue", () => {
  const reported = new Map<string, Record<string, unknown>>([
    ["net.ipv4_address", { value: "10.3.0.1" }],
    ["location.room", { value: "hall-c", inheritedfrom: "compute-c" }],
    ["groups", { value: ["compute-c", "everything"] }],
    ["secret.hardwaremanagementpassword", { isset: true }],
    ["hardwaremanagement.manager", { expression: "127.0.10.{n1}" }],
  ]);
  const read = (attribute: string) =>
    confluentValue(reported as Parameters<typeof confluentValue>[0], attribute);

  it("reads each xCAT attribute from the Confluent attribute that holds it, inherited or not", () => {
    expect(read("ip")).toBe("10.3.0.1");
    expect(read("room")).toBe("hall-c");
    expect(read("groups")).toBe("compute-c");
    expect(read("bmc")).toBe("{127.0.10.{n1}}");
  });

  it("reads a secret as set or unset, never a value; an attribute it does not hold, or has no counterpart for, as unset", () => {
    expect(read("bmcpassword")).toBe(SET_ON_CONFLUENT);
    expect(read("mac")).toBe("");
    expect(read("postscripts")).toBe("");
    expect(confluentValue(undefined, "ip")).toBe("");
  });
});

describe("connectionSettings", () => {
  const secret = (value: unknown) => ({
    [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270",
    plaintext: JSON.stringify(value),
  });
  const exported = (connection: unknown) => ({
    deployment: {
      resources: [
        {
          urn: "urn:pulumi:dev::lab::pulumi-nodejs:dynamic/xcat:Node::far01",
          inputs: { name: "far01", connection },
        },
      ],
    },
  });

  it("reads a resource's connection with its decrypted secrets, or a connection held whole as a secret", () => {
    const urn = "urn:pulumi:dev::lab::pulumi-nodejs:dynamic/xcat:Node::far01";
    const plain = connectionSettings(
      exported({ url: "https://mn-far/xcatws", username: "root", password: secret("pw-far") }),
      urn,
    );
    expect(plain?.connection).toEqual({ url: "https://mn-far/xcatws", username: "root", password: "pw-far" });
    const whole = connectionSettings(
      exported(
        secret({
          url: "https://cf-far:4005/confluent-api",
          username: "u",
          password: "p",
          backend: "confluent",
        }),
      ),
      urn,
    );
    expect(whole?.connection).toMatchObject({ backend: "confluent", username: "u", password: "p" });
    expect(connectionSettings(exported(undefined), urn)).toBeUndefined();
    expect(connectionSettings(exported({ url: "https://x/xcatws" }), "urn:other")).toBeUndefined();
  });
});
