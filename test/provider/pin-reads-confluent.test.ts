/**
 * What `pulumi-xcat pins` reads of a Confluent server (src/cli/pins/node-values.ts, support-matrix
 * N16): each pinned node attribute in xCAT's words, from the Confluent attribute that holds it, the
 * node's own or inherited from its group, a secret as set or unset only, a node not defined as
 * such. Against a fresh confluent-emulator, or a real Confluent when CONFLUENT_E2E_URL (with
 * CONFLUENT_E2E_USERNAME/PASSWORD) names one (checked so on a real Confluent 3.15.6, 2026-11-27,
 * docs/confluent.md). Objects are named cfpin-*; the BMC is on 127.0.10.x and nothing is powered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readNodeValues, SET_ON_CONFLUENT } from "../../src/cli/pins/node-values";
import { ConfluentClient } from "../../src/client/confluent";
import type { ProviderSettings } from "../../src/provider/config";
import { type ConfluentTarget, confluentTarget } from "../client/support/confluent-target";

describe("pins' reads of a Confluent server", () => {
  let target: ConfluentTarget;
  let admin: ConfluentClient;

  beforeAll(async () => {
    target = await confluentTarget();
    admin = new ConfluentClient({ url: target.url, username: target.username, password: target.password });
    await admin.groups.create("cfpin-rack", { "location.room": "hall-c" });
    await admin.nodes.create("cfpin01", {
      groups: ["cfpin-rack"],
      "net.ipv4_address": "10.3.0.1",
      "hardwaremanagement.manager": "127.0.10.31",
      "secret.hardwaremanagementpassword": "cfpin-Secret7",
    });
  });
  afterAll(async () => {
    await admin?.nodes.delete("cfpin01").catch(() => {});
    await admin?.groups.delete("cfpin-rack").catch(() => {});
    await admin?.close();
    await target?.close();
  });

  it("reads each attribute in xCAT's words, inherited or own, a secret as set, a missing node as undefined", async () => {
    const settings = {
      connection: {
        url: target.url,
        username: target.username,
        password: target.password,
        backend: "confluent",
      },
      batching: true,
    } as unknown as ProviderSettings;
    const pinned = new Set(["ip", "bmc", "room", "groups", "bmcpassword", "mac"]);
    const values = await readNodeValues(
      settings,
      new Map([
        ["cfpin01", pinned],
        ["cfpin99", pinned],
      ]),
    );
    expect(values.defined("cfpin01")).toBe(true);
    expect(values.defined("cfpin99")).toBe(false);
    expect(values.value("cfpin01", "ip")).toBe("10.3.0.1");
    expect(values.value("cfpin01", "bmc")).toBe("127.0.10.31");
    expect(values.value("cfpin01", "room")).toBe("hall-c");
    expect(values.value("cfpin01", "groups")).toBe("cfpin-rack");
    expect(values.value("cfpin01", "bmcpassword")).toBe(SET_ON_CONFLUENT);
    expect(values.value("cfpin01", "mac")).toBe("");
    expect(values.value("cfpin99", "ip")).toBe("");
  });
});
