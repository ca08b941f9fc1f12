/**
 * Seed data for trying `pulumi-xcat import` without a production cluster: a cluster of regular
 * racks (`r01n01`..), group values (one a regex), irregular nodes, a KVM host with guests, an
 * image, two networks, policy rows and site settings, written straight into the tables as
 * `mkdef`/`chdef` would have left them. A preset (`racks:20x30`, `demo-600`) or a JSON file
 * `{ "tables": { "<table>": [ { column: value } ] } }`.
 */
import { readFileSync } from "node:fs";
import type { Database } from "./store/database";

/** Table rows to insert, per table. */
export type ClusterSeed = Readonly<Record<string, ReadonlyArray<Readonly<Record<string, string>>>>>;

const two = (n: number) => String(n).padStart(2, "0");
const hex = (n: number) => n.toString(16).padStart(2, "0");

/** `racks` racks of `perRack` nodes, plus the irregular rest of a realistic cluster. */
export function rackCluster(racks: number, perRack: number): ClusterSeed {
  if (!(racks >= 1 && racks <= 250 && perRack >= 1 && perRack <= 250)) {
    throw new Error(`seed cluster: racks and nodes per rack must be 1..250, got ${racks}x${perRack}`);
  }
  const nodelist: Record<string, string>[] = [];
  const ipmi: Record<string, string>[] = [
    { node: "compute", username: "ADMIN", password: "rack-bmc-secret" },
  ];
  const mac: Record<string, string>[] = [];
  const hosts: Record<string, string>[] = [
    // Every compute node's IP comes from this regex on its group (xcat-behavior.md 5.2).
    { node: "compute", ip: "|r(\\d+)n(\\d+)|10.0.($1+0).($2+0)|" },
  ];
  const nodehm: Record<string, string>[] = [
    { node: "compute", mgt: "ipmi" },
    { node: "login", mgt: "ipmi" },
  ];
  const noderes: Record<string, string>[] = [{ node: "compute", netboot: "xnba" }];
  const nodetype: Record<string, string>[] = [
    { node: "compute", arch: "x86_64", os: "rhels8.6", provmethod: "rhels8.6-x86_64-netboot-compute" },
  ];
  const vm: Record<string, string>[] = [];
  for (let r = 1; r <= racks; r++) {
    for (let n = 1; n <= perRack; n++) {
      const node = `r${two(r)}n${two(n)}`;
      nodelist.push({ node, groups: `compute,rack${two(r)},all` });
      ipmi.push({ node, bmc: `10.1.${r}.${n}` });
      mac.push({ node, mac: `52:54:00:${hex(r)}:00:${hex(n)}` });
    }
  }
  for (const [node, ip, bmc] of [
    ["login01", "10.0.200.1", "10.1.200.1"],
    ["login02", "10.0.200.2", "10.1.200.7"],
  ] as const) {
    nodelist.push({ node, groups: "login,all" });
    hosts.push({ node, ip });
    ipmi.push({ node, bmc, username: "ADMIN", password: "login-bmc-secret" });
    nodetype.push({ node, arch: "x86_64", os: "rhels8.6", provmethod: "rhels8.6-x86_64-netboot-compute" });
  }
  nodelist.push({ node: "kvmhost01", groups: "service,all" });
  hosts.push({ node: "kvmhost01", ip: "10.0.250.10" });
  nodehm.push({ node: "kvmhost01", mgt: "ipmi" });
  ipmi.push({ node: "kvmhost01", bmc: "10.1.250.10" });
  for (const [node, ip] of [
    ["vm01", "10.0.251.1"],
    ["vm02", "10.0.251.2"],
  ] as const) {
    nodelist.push({ node, groups: "vms,all" });
    hosts.push({ node, ip });
    nodehm.push({ node, mgt: "kvm" });
    vm.push({ node, host: "kvmhost01" });
  }
  return {
    nodelist,
    ipmi,
    mac,
    hosts,
    nodehm,
    noderes,
    nodetype,
    vm,
    osimage: [
      {
        imagename: "rhels8.6-x86_64-netboot-compute",
        imagetype: "linux",
        provmethod: "netboot",
        profile: "compute",
        osname: "Linux",
        osvers: "rhels8.6",
        osarch: "x86_64",
      },
    ],
    networks: [
      { netname: "mgmt", net: "10.0.0.0", mask: "255.255.0.0", mgtifname: "eth1", gateway: "10.0.0.254" },
      { netname: "bmc", net: "10.1.0.0", mask: "255.255.0.0", mgtifname: "eth2" },
    ],
    policy: [
      { priority: "6", name: "ops", rule: "allow" },
      { priority: "7", name: "monitor", commands: "nodels,lsdef", rule: "allow" },
    ],
    site: [
      { key: "ntpservers", value: "10.0.0.1" },
      { key: "dhcpinterfaces", value: "eth1" },
    ],
  };
}

/** A preset name (`racks:RxN`, `demo-600` = 20 racks of 30) or the path of a JSON seed file. */
export function loadClusterSeed(spec: string): ClusterSeed {
  if (spec === "demo-600") return rackCluster(20, 30);
  const racks = /^racks:(\d+)x(\d+)$/.exec(spec);
  if (racks) return rackCluster(Number(racks[1]), Number(racks[2]));
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(spec, "utf8"));
  } catch (error) {
    throw new Error(
      `seed cluster '${spec}' is neither a preset (racks:RxN, demo-600) nor a readable JSON file: ${(error as Error).message}`,
    );
  }
  const tables = (parsed as { tables?: unknown }).tables;
  if (typeof tables !== "object" || tables === null)
    throw new Error(`seed cluster ${spec}: no "tables" object`);
  return tables as ClusterSeed;
}

/** Writes the seed's rows, each one as `tabch` would (upsert on the table's keys). */
export function applyClusterSeed(db: Database, seed: ClusterSeed): void {
  db.transaction(() => {
    for (const [table, rows] of Object.entries(seed)) {
      const schema = db.schema(table);
      if (!schema) throw new Error(`seed cluster: unknown table '${table}'`);
      for (const row of rows) {
        const keys = Object.fromEntries(schema.keys.map((key) => [key, row[key] ?? ""]));
        const values = Object.fromEntries(
          Object.entries(row).filter(([column]) => !schema.keys.includes(column)),
        );
        db.upsert(table, keys, values);
      }
    }
  });
}
