/**
 * A small cluster for the import suite on a real management node, written through the REST API
 * with every name behind the run's prefix, and removed again afterwards. It holds what the
 * emulator's `racks:RxN` seed holds (src/emulator/seed-cluster.ts), at a size a real xcatd
 * creates in seconds: racks of nodes whose IP comes from a regex on their group, a group with
 * inherited attributes, an irregular login node, an image, a network, a policy row and a site key.
 */
import type { XcatClient } from "../../../src/client";
import { rackCluster } from "../../../src/emulator/seed-cluster";

export interface RealCluster {
  readonly prefix: string;
  readonly nodes: string;
  readonly computeGroup: string;
  readonly racks: number;
  readonly perRack: number;
  readonly image: string;
  readonly network: string;
  readonly policyPriority: string;
  readonly siteKey: string;
  /** Secrets the generated program asks for (config key → value). */
  readonly secrets: Readonly<Record<string, string>>;
}

const two = (n: number) => String(n).padStart(2, "0");

/** The names of the cluster {@link seedRealCluster} writes, decided before anything is written. */
export function planRealCluster(prefix: string): RealCluster {
  const racks = 2;
  const perRack = 4;
  const compute = `${prefix}compute`;
  return {
    prefix,
    nodes: `${prefix}r[01-${two(racks)}]n[01-${two(perRack)}],${prefix}login01`,
    computeGroup: compute,
    racks,
    perRack,
    image: `${prefix}rhels8.6-x86_64-netboot-compute`,
    network: `${prefix}mgmt`,
    policyPriority: `7.${Math.floor(Math.random() * 9000 + 1000)}`,
    siteKey: `${prefix}ntpservers`,
    secrets: {
      [`${compute}-bmcpassword`]: "rack-bmc-secret",
      [`${prefix}login01-bmcpassword`]: "login-bmc-secret",
    },
  };
}

/**
 * Writes `cluster` through REST. Plan it first and hand the same plan to
 * {@link removeRealCluster} afterwards: a write that fails part way still leaves objects behind.
 */
export async function seedRealCluster(admin: XcatClient, cluster: RealCluster): Promise<void> {
  const { prefix, racks, perRack, image, computeGroup: compute } = cluster;
  // The emulator seed's image, under the prefixed name.
  const { imagename: _seedName, ...imageAttributes } = rackCluster(1, 1).osimage?.[0] ?? {};
  await admin.osimages.create(image, imageAttributes);
  await admin.networks.create(cluster.network, {
    net: "10.0.0.0",
    mask: "255.255.0.0",
    mgtifname: "eth1",
    gateway: "10.0.0.254",
  });
  for (let r = 1; r <= racks; r++) {
    await admin.nodes.create(`${prefix}r${two(r)}n[01-${two(perRack)}]`, {
      groups: `${compute},${prefix}rack${two(r)},all`,
    });
  }
  // Group values, one of them the regex every compute node's IP comes from (xcat-behavior.md 5.2).
  await admin.groups.update(compute, {
    ip: `|${prefix}r(\\d+)n(\\d+)|10.0.($1+0).($2+0)|`,
    mgt: "ipmi",
    netboot: "xnba",
    arch: "x86_64",
    os: "rhels8.6",
    provmethod: image,
    bmcusername: "ADMIN",
    bmcpassword: "rack-bmc-secret",
  });
  for (let r = 1; r <= racks; r++) {
    for (let n = 1; n <= perRack; n++) {
      await admin.nodes.update(`${prefix}r${two(r)}n${two(n)}`, { bmc: `10.1.${r}.${n}` });
    }
  }
  await admin.nodes.create(`${prefix}login01`, {
    groups: `${prefix}login,all`,
    ip: "10.0.200.1",
    bmc: "10.1.200.1",
    bmcusername: "ADMIN",
    bmcpassword: "login-bmc-secret",
    mgt: "ipmi",
    provmethod: image,
  });
  await admin.policy.create(cluster.policyPriority, {
    name: `${prefix}monitor`,
    commands: "nodels,lsdef",
    rule: "allow",
  });
  await admin.globalconf.setAttrs({ [cluster.siteKey]: "10.0.0.1" });
}

/** Removes what {@link seedRealCluster} wrote, whatever of it exists. */
export async function removeRealCluster(admin: XcatClient, cluster: RealCluster): Promise<void> {
  const attempts = [
    () => admin.nodes.delete(cluster.nodes),
    // A static group's own values live in the node-keyed tables under the group's name.
    ...["hosts", "nodehm", "noderes", "nodetype", "ipmi"].map(
      (table) => () => admin.tables.deleteRows(table, { node: cluster.computeGroup }),
    ),
    () => admin.osimages.delete(cluster.image),
    () => admin.networks.delete(cluster.network),
    () => admin.policy.delete(cluster.policyPriority),
    () => admin.globalconf.deleteAttrs([cluster.siteKey]),
  ];
  const failures: string[] = [];
  for (const attempt of attempts) {
    try {
      await attempt();
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  if (failures.length > 0) {
    throw new Error(
      `could not remove every object of the ${cluster.prefix} test cluster:\n${failures.join("\n")}`,
    );
  }
}
