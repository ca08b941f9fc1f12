/**
 * Nodes defined by hand on an emulator as nodeset wants them, for tests about rolls rather than
 * name services: a netboot method, a MAC and an address each (xnba.pm master:657-672 leaves out a
 * node without ip whose name does not resolve; destiny.pm refuses one without a MAC), on a site
 * whose DHCP runs elsewhere (site.dhcpsetup n), so nodeset asks for no reservation
 * (xnba.pm master:857-872).
 */
import { XcatClient } from "../../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator } from "../../../src/emulator";

export async function defineBootableNodes(emulator: RunningEmulator, noderange: string): Promise<void> {
  const admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
  try {
    await admin.globalconf.setAttrs({ dhcpsetup: "n" });
    await admin.nodes.create(noderange, {
      groups: "compute,all",
      mgt: "ipmi",
      netboot: "xnba",
      mac: "02:00:00:00:00:01",
      ip: "|\\D+(\\d+)$|10.9.0.($1+0)|",
    });
  } finally {
    await admin.close();
  }
}
