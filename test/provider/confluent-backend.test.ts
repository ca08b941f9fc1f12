/**
 * Node, Group and the refusals on the Confluent backend, called as Pulumi's dynamic-provider host
 * calls the runtime, against a fresh confluent-emulator, or a real Confluent when
 * CONFLUENT_E2E_URL (with CONFLUENT_E2E_USERNAME/PASSWORD) names one. A separate ConfluentClient makes the hand edits and
 * reads back over Confluent's own API. Objects are named cfb-*.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfluentClient } from "../../src/client/confluent";
import { configureProcess, resetProcessContext } from "../../src/provider/process-context";
import * as runtime from "../../src/provider/runtime";
import { type ConfluentTarget, confluentTarget } from "../client/support/confluent-target";

const BMC_PASSWORD = "cfb-bmc-Secret9";

describe("the Confluent backend of Node and Group", () => {
  let admin: ConfluentClient;
  let target: ConfluentTarget;
  const configure = async (extra: Record<string, string> = {}) => {
    await resetProcessContext();
    const config: Record<string, string> = {
      "xcat:backend": "confluent",
      "xcat:url": target.url,
      "xcat:username": target.username,
      "xcat:password": target.password,
      ...extra,
    };
    configureProcess((key) => config[key]);
  };
  const created = async (kind: string, news: Record<string, unknown>) => {
    const checked = await runtime.check(kind, {}, news);
    expect(checked.failures ?? []).toEqual([]);
    return runtime.create(kind, checked.inputs);
  };

  beforeAll(async () => {
    target = await confluentTarget();
    admin = new ConfluentClient({ url: target.url, username: target.username, password: target.password });
    await configure();
  });
  afterAll(async () => {
    for (const node of ["cfb-p1", "cfb-p2", "cfb-p3"]) await admin.nodes.delete(node).catch(() => {});
    for (const group of ["cfb-pg", "cfb-rack1"]) await admin.groups.delete(group).catch(() => {});
    await admin.close();
    await resetProcessContext();
    await target.close();
  });

  const group = {
    name: "cfb-pg",
    attributes: { mgt: "ipmi", ip: "|^cfb-p(\\d+)$|10.9.0.($1+10)|" },
    secretAttributes: { bmcusername: "admin", bmcpassword: BMC_PASSWORD },
  };
  const node = (n: number, mac: string) => ({
    name: `cfb-p${n}`,
    groups: ["cfb-pg", "cfb-rack1", "all"],
    attributes: { mac, bmc: `127.0.10.${100 + n}` },
  });

  it("creates a group and nodes whose attributes read back over Confluent's API under Confluent's names", async () => {
    const made = await created("xcat:Group", group);
    // What the resource reports of the server holds no secret (secretAttributes are encrypted by the engine).
    const reported = (made.outs as { allAttributes: Record<string, string> }).allAttributes;
    expect(JSON.stringify(reported)).not.toContain(BMC_PASSWORD);
    // Nor the BMC user, a secret by the program's word though not by its name: Confluent never
    // returns it, and the value the backend reads back for it must not reach allAttributes.
    expect(reported).not.toHaveProperty("bmcusername");
    await created("xcat:Node", node(1, "52:54:00:cf:b1:01"));
    await created("xcat:Node", node(2, "52:54:00:cf:b1:02"));
    const groupRead = await admin.groups.get("cfb-pg");
    expect(groupRead.get("hardwaremanagement.method")?.value).toBe("ipmi");
    expect(groupRead.get("secret.hardwaremanagementpassword")).toEqual({ isset: true });
    expect(groupRead.get("net.ipv4_address")).toEqual({ expression: "10.9.0.{n1+10}" });
    const n1 = await admin.nodes.get("cfb-p1");
    expect(n1.get("groups")?.value).toEqual(["cfb-pg", "cfb-rack1", "everything"]);
    expect(n1.get("net.hwaddr")?.value).toBe("52:54:00:cf:b1:01");
    expect(n1.get("hardwaremanagement.manager")?.value).toBe("127.0.10.101");
    // The group's |regex| became an expression that Confluent computes for each member.
    expect(n1.get("net.ipv4_address")?.value).toBe("10.9.0.11");
    expect((await admin.nodes.get("cfb-p2")).get("net.ipv4_address")?.value).toBe("10.9.0.12");
    // A group a node names that did not exist was created for it, as xCAT has it exist.
    expect(await admin.groups.list()).toContain("cfb-rack1");
  });

  it("reads back without drift: secrets compare by whether set, the |regex| by its expression", async () => {
    const checked = await runtime.check("xcat:Group", {}, group);
    const read = await runtime.read("xcat:Group", "cfb-pg", checked.inputs);
    expect(read.inputs).toEqual(checked.inputs);
    const nodeChecked = await runtime.check("xcat:Node", {}, node(1, "52:54:00:cf:b1:01"));
    const nodeRead = await runtime.read("xcat:Node", "cfb-p1", nodeChecked.inputs);
    expect(nodeRead.inputs).toEqual(nodeChecked.inputs);
    const diff = await runtime.diff("xcat:Node", "cfb-p1", nodeRead.props, nodeChecked.inputs);
    expect(diff.changes).toBe(false);
  });

  it("shows a hand edit through Confluent's API as drift, and update restores it", async () => {
    await admin.nodes.update("cfb-p1", { "net.hwaddr": "52:54:00:cf:b1:99" });
    const wanted = (await runtime.check("xcat:Node", {}, node(1, "52:54:00:cf:b1:01"))).inputs as Record<
      string,
      unknown
    >;
    const read = await runtime.read("xcat:Node", "cfb-p1", wanted);
    expect((read.inputs as { attributes: Record<string, string> }).attributes.mac).toBe("52:54:00:cf:b1:99");
    const diff = await runtime.diff("xcat:Node", "cfb-p1", read.props, wanted);
    expect(diff.changes).toBe(true);
    await runtime.update("xcat:Node", "cfb-p1", read.props, wanted);
    expect((await admin.nodes.get("cfb-p1")).get("net.hwaddr")?.value).toBe("52:54:00:cf:b1:01");
  });

  it("takes over a node made by hand only with adopt, and then makes it match the program", async () => {
    await admin.nodes.create("cfb-p3", { groups: ["cfb-pg"], "net.hwaddr": "52:54:00:cf:b1:77" });
    const wanted = node(3, "52:54:00:cf:b1:03");
    const refused = runtime.create("xcat:Node", (await runtime.check("xcat:Node", {}, wanted)).inputs);
    await expect(refused).rejects.toThrow(/cfb-p3.*adopt/s);
    expect((await admin.nodes.get("cfb-p3")).get("net.hwaddr")?.value).toBe("52:54:00:cf:b1:77");
    const adopted = await created("xcat:Node", { ...wanted, adopt: true });
    expect(adopted.id).toBe("cfb-p3");
    expect((await admin.nodes.get("cfb-p3")).get("net.hwaddr")?.value).toBe("52:54:00:cf:b1:03");
    await runtime.delete("xcat:Node", "cfb-p3", adopted.outs);
  });

  it("refuses an attribute with no counterpart at preview, naming resource, attribute and why", async () => {
    const checked = await runtime.check(
      "xcat:Group",
      {},
      {
        ...group,
        attributes: { ...group.attributes, postscripts: "confignetwork" },
      },
    );
    expect(checked.failures).toEqual([
      {
        property: "attributes",
        reason: expect.stringMatching(
          /xcat:Group 'cfb-pg': attribute 'postscripts' has no counterpart on Confluent: .*deployment profile.*xcat:confluentOmit postscripts/,
        ),
      },
    ]);
  });

  it("leaves out what xcat:confluentOmit names, and says so", async () => {
    await configure({ "xcat:confluentOmit": "postscripts" });
    const checked = await runtime.check(
      "xcat:Group",
      {},
      {
        ...group,
        attributes: { ...group.attributes, postscripts: "confignetwork" },
      },
    );
    expect(checked.failures).toBeUndefined();
    expect((checked.inputs as { attributes: Record<string, string> }).attributes).toEqual(group.attributes);
    await configure();
  });

  it("refuses kinds with no counterpart, saying what Confluent has instead", async () => {
    const checked = await runtime.check(
      "xcat:Network",
      {},
      { name: "cfb-net", net: "10.9.0.0", mask: "255.255.0.0" },
    );
    expect(checked.failures?.[0]?.reason).toMatch(
      /xcat:Network 'cfb-net' cannot move to Confluent: Confluent has no network objects/,
    );
  });

  it("deletes nodes and their group, leaving neither", async () => {
    for (const n of [1, 2]) {
      const checked = await runtime.check("xcat:Node", {}, node(n, `52:54:00:cf:b1:0${n}`));
      await runtime.delete("xcat:Node", `cfb-p${n}`, checked.inputs);
    }
    await runtime.delete("xcat:Group", "cfb-pg", (await runtime.check("xcat:Group", {}, group)).inputs);
    const groups = await admin.groups.list();
    expect(groups).not.toContain("cfb-pg");
    expect(groups).not.toContain("cfb-rack1");
    const nodes = await admin.nodes.list("everything").catch(() => []);
    expect(nodes.filter((name) => name.startsWith("cfb-p"))).toEqual([]);
  });
});
