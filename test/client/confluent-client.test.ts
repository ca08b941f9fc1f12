/**
 * The Confluent client against a fresh confluent-emulator, or a real Confluent 3.15.x when
 * CONFLUENT_E2E_URL (with CONFLUENT_E2E_USERNAME and CONFLUENT_E2E_PASSWORD) names one (objects
 * are then named cfb-* and removed afterwards). What each step expects is what
 * confluent's source says (core.py, httpapi.py, messages.py at 3.15.6) and a real server answered
 * (/work/shared/real-confluent.md). A real server must hold at least one deployment profile (a
 * directory under /var/lib/confluent/public/os/, as `osdeploy import` makes one), or the profile
 * listing fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAuthError, isNotFound } from "../../src/client";
import { ConfluentClient } from "../../src/client/confluent";
import { type ConfluentTarget, confluentTarget } from "./support/confluent-target";

describe("ConfluentClient", () => {
  const lines: string[] = [];
  let target: ConfluentTarget;
  let client: ConfluentClient;
  beforeAll(async () => {
    target = await confluentTarget();
    client = new ConfluentClient({
      url: target.url,
      username: target.username,
      password: target.password,
      logger: { debug: (line) => lines.push(line), info: (line) => lines.push(line) },
    });
  });
  afterAll(async () => {
    for (const node of ["cfb-n1", "cfb-n2", "cfb-n3"]) await client.nodes.delete(node).catch(() => {});
    await client.groups.delete("cfb-compute").catch(() => {});
    await client.close();
    await target.close();
  });

  it("creates a group and nodes, reads them back one by one and by noderange", async () => {
    await client.groups.create("cfb-compute", {
      "hardwaremanagement.method": "ipmi",
      "secret.hardwaremanagementpassword": "cfb-secret-pw",
      "net.ipv4_address": "{{literal}}",
    });
    await client.nodes.create("cfb-n1", { groups: ["cfb-compute"], "net.hwaddr": "52:54:00:cf:b0:01" });
    await client.nodes.create("cfb-n2", { groups: ["cfb-compute"], "net.hwaddr": "52:54:00:cf:b0:02" });
    const group = await client.groups.get("cfb-compute");
    expect(group.get("secret.hardwaremanagementpassword")).toEqual({ isset: true });
    const n1 = await client.nodes.get("cfb-n1");
    expect(n1.get("groups")?.value).toEqual(["cfb-compute", "everything"]);
    expect(n1.get("net.hwaddr")?.value).toBe("52:54:00:cf:b0:01");
    expect(n1.get("hardwaremanagement.method")).toMatchObject({
      inheritedfrom: "cfb-compute",
      value: "ipmi",
    });
    expect(n1.get("secret.hardwaremanagementpassword")).toMatchObject({ isset: true });
    const both = await client.nodes.getMany(["cfb-n1", "cfb-n2"]);
    expect(both.get("cfb-n2")?.get("net.hwaddr")?.value).toBe("52:54:00:cf:b0:02");
    // Concurrent reads merge into one noderange request.
    const before = lines.length;
    const [a, b] = await Promise.all([client.nodes.get("cfb-n1"), client.nodes.get("cfb-n2")]);
    expect(a.get("net.hwaddr")?.value).toBe("52:54:00:cf:b0:01");
    expect(b.get("net.hwaddr")?.value).toBe("52:54:00:cf:b0:02");
    expect(lines.slice(before).filter((line) => line.startsWith("GET"))).toEqual([
      expect.stringMatching(/\/noderange\/cfb-n[12],cfb-n[12]\/attributes\/current → 200/),
    ]);
    expect(lines.join("\n")).not.toContain("cfb-secret-pw");
  });

  it("reads a missing node as not found, also when it is batched with one that exists", async () => {
    await expect(client.nodes.get("cfb-n9")).rejects.toSatisfy(isNotFound);
    const [found, missing] = await Promise.allSettled([
      client.nodes.get("cfb-n1"),
      client.nodes.get("cfb-n9"),
    ]);
    expect(found.status).toBe("fulfilled");
    expect(missing.status === "rejected" && isNotFound(missing.reason)).toBe(true);
  });

  it("clears with null and deletes; a second delete of a node is not found", async () => {
    await client.nodes.update("cfb-n2", { "net.hwaddr": null });
    expect((await client.nodes.get("cfb-n2")).has("net.hwaddr")).toBe(false);
    await client.nodes.delete("cfb-n2");
    await expect(client.nodes.delete("cfb-n2")).rejects.toSatisfy(isNotFound);
  });

  it("lists deployment profiles and the nodes of a group", async () => {
    expect((await client.deployment.profiles()).length).toBeGreaterThan(0);
    expect(await client.nodes.list("cfb-compute")).toEqual(["cfb-n1"]);
  });

  it("refuses a wrong password as an authentication error, without the password in the message", async () => {
    const wrong = new ConfluentClient({
      url: target.url,
      username: target.username,
      password: "cfb-wrong-pw",
    });
    const error = await wrong.verifyConnection().catch((e: unknown) => e);
    expect(isAuthError(error)).toBe(true);
    expect(String((error as Error).message)).not.toContain("cfb-wrong-pw");
    await wrong.close();
  });
});
