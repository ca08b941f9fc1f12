/**
 * Name services on a real xCAT management node (issue #29 item 2): 5 nodes with ip and mac get
 * their /etc/hosts lines (makehosts) and DNS records (makedns), and deleting 2 removes their DNS
 * records. Skipped unless XCAT_E2E_URL, XCAT_E2E_USERNAME, XCAT_E2E_PASSWORD (and
 * XCAT_E2E_CA_CERT) name a management node (docs/real-xcat-e2e.md). The records are checked by
 * asking its DNS server when XCAT_E2E_DNS_SERVER gives its address, and its /etc/hosts when
 * XCAT_E2E_HOSTS_FILE gives a path to it (a management node on this machine). DHCP is left off:
 * makedhcp needs a dhcpd (docs/xcat-behavior-found.md says what was and was not checked).
 *
 * Needs site.nameservers naming the management node, a running named, and an xCAT network that
 * holds 10.99.0.0/24 (where the nodes' addresses are), or makedns ignores the nodes.
 */

import { Resolver } from "node:dns/promises";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { XcatClient } from "../../src/client";
import * as runtime from "../../src/provider/runtime";
import { configureForRealXcat, realXcatAdmin, realXcatUrl } from "./real-xcat-support";

const env = process.env;
const KIND = "xcat:Node";
const NODES = [1, 2, 3, 4, 5].map((n) => `nsr0${n}`);
const ipOf = (node: string) => `10.99.0.${Number(node.slice(-2)) + 10}`;

async function dnsAnswer(name: string): Promise<string[]> {
  const resolver = new Resolver({ timeout: 5000, tries: 1 });
  resolver.setServers([env.XCAT_E2E_DNS_SERVER ?? ""]);
  return resolver.resolve4(name).catch(() => []);
}

const hostsLines = (node: string) =>
  readFileSync(env.XCAT_E2E_HOSTS_FILE ?? "", "utf8")
    .split("\n")
    .filter((line) => line.split(/\s+/).includes(node))
    .map((line) => line.trim().replace(/\s+/g, " "));

describe.skipIf(!realXcatUrl)("name services on a real management node", () => {
  // Made in beforeAll: a skipped describe still runs its body, and no URL is no client.
  let admin: XcatClient;
  beforeAll(() => {
    admin = realXcatAdmin();
  });
  const created = new Map<string, Record<string, unknown>>();

  afterAll(async () => {
    await Promise.all(
      [...created].map(([id, outs]) => runtime.delete(KIND, id, outs).catch(() => undefined)),
    );
    await admin?.close();
  });

  it("writes hosts lines and DNS records for 5 new nodes, and removes 2 nodes' records with them", async () => {
    await configureForRealXcat({ "xcat:nameServices": "hosts,dns" });
    await Promise.all(
      NODES.map(async (name) => {
        const checked = await runtime.check(
          KIND,
          {},
          {
            name,
            groups: ["all"],
            attributes: { ip: ipOf(name), mac: `52:54:00:99:00:${name.slice(-2)}` },
          },
        );
        expect(checked.failures).toBeUndefined();
        const { id, outs } = await runtime.create(KIND, checked.inputs);
        created.set(id, outs as Record<string, unknown>);
      }),
    );
    if (env.XCAT_E2E_HOSTS_FILE) {
      for (const node of NODES)
        expect(hostsLines(node)).toEqual([`${ipOf(node)} ${node} ${node}.cluster.test`]);
    }
    if (env.XCAT_E2E_DNS_SERVER) {
      for (const node of NODES) expect(await dnsAnswer(`${node}.cluster.test`)).toEqual([ipOf(node)]);
    }

    const gone = NODES.slice(0, 2);
    await Promise.all(
      gone.map(async (id) => {
        await runtime.delete(KIND, id, created.get(id) ?? {});
        created.delete(id);
      }),
    );
    expect((await admin.nodes.getMany(NODES, { attrs: ["ip"] })).size).toBe(3);
    if (env.XCAT_E2E_DNS_SERVER) {
      for (const node of gone) expect(await dnsAnswer(`${node}.cluster.test`)).toEqual([]);
      for (const node of NODES.slice(2))
        expect(await dnsAnswer(`${node}.cluster.test`)).toEqual([ipOf(node)]);
    }
    // No REST route runs makehosts -d (xcatws.cgi master:153-163): the deleted nodes' lines stay.
    if (env.XCAT_E2E_HOSTS_FILE) for (const node of gone) expect(hostsLines(node)).toHaveLength(1);
  }, 1_200_000);
});
