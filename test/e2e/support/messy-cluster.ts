/**
 * A hand-made, realistically messy cluster (issue #27): two racks of 12 nodes whose ip and bmc
 * come from regex values of their rack groups, site settings of the admin's own, and the typos
 * a real cluster collects: a node in an undefined group `rack1`, `bmc=10.1.1.O9` (letter O), a
 * duplicate IP, a MAC duplicated in another case, `installnic=eht0`. Its defaults are the
 * emulator's fresh management node (xcatconfig's values).
 */
import type { XcatClient } from "../../../src/client";

const pad = (n: number) => String(n).padStart(2, "0");
const mac = (rack: number, n: number) => `52:54:00:0${rack}:00:${n.toString(16).padStart(2, "0")}`;

/** What the seed holds that an import must report, by node. */
export const MESSY = {
  duplicateIp: { value: "10.0.1.7", nodes: ["r01n07", "r01n08"] },
  duplicateMac: { value: mac(2, 11), nodes: ["r02n11", "r02n12"] },
  undefinedGroup: { group: "rack1", node: "r02n03", closest: "rack01" },
  malformedBmc: { value: "10.1.1.O9", node: "r01n09" },
  mistypedNic: { value: "eht0", node: "r02n10" },
  site: { domain: "hpc.example.org", timezone: "Europe/Berlin", consoleondemand: "yes" },
} as const;

export async function seedMessyCluster(client: XcatClient): Promise<void> {
  for (const [key, value] of Object.entries(MESSY.site)) await client.globalconf.setAttrs({ [key]: value });
  await client.groups.update("compute", { mgt: "ipmi", netboot: "xnba", arch: "x86_64", installnic: "eth0" });
  for (const rack of [1, 2]) {
    await client.groups.update(`rack0${rack}`, {
      mgt: "ipmi",
      ip: "|r(\\d+)n(\\d+)|10.0.($1+0).($2+0)|",
      bmc: "|r(\\d+)n(\\d+)|10.1.($1+0).($2+0)|",
    });
  }
  for (const rack of [1, 2]) {
    for (let n = 1; n <= 12; n++) {
      const name = `r0${rack}n${pad(n)}`;
      const groups = name === MESSY.undefinedGroup.node ? "compute,rack1,all" : `compute,rack0${rack},all`;
      const attributes: Record<string, string> = { groups, mac: mac(rack, n) };
      if (name === MESSY.undefinedGroup.node) {
        // Outside its rack group, it sets its addresses itself.
        attributes.ip = `10.0.2.${n}`;
        attributes.bmc = `10.1.2.${n}`;
      }
      if (name === MESSY.duplicateIp.nodes[1]) attributes.ip = MESSY.duplicateIp.value;
      if (name === MESSY.malformedBmc.node) attributes.bmc = MESSY.malformedBmc.value;
      if (name === MESSY.duplicateMac.nodes[1]) attributes.mac = MESSY.duplicateMac.value.toUpperCase();
      if (name === MESSY.mistypedNic.node) attributes.installnic = MESSY.mistypedNic.value;
      await client.nodes.create(name, attributes);
    }
  }
}
