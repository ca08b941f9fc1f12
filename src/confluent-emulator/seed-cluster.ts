/**
 * A cluster to try the Confluent backend on without building one: racks of nodes in `compute`
 * and `rackRR` groups, the BMC credentials on `compute`, each node's BMC and MAC, and its address
 * from an expression on the group (Confluent's equivalent of an xCAT regex row).
 */
import type { ConfluentConfig } from "./store/config-store";

const two = (n: number) => String(n).padStart(2, "0");
const hex = (n: number) => n.toString(16).padStart(2, "0");

export function parseSeedCluster(spec: string): { racks: number; perRack: number } {
  if (spec === "demo-600") return { racks: 20, perRack: 30 };
  const m = /^racks:(\d+)x(\d+)$/.exec(spec);
  if (!m) throw new Error(`seed cluster: expected racks:RxN or demo-600, got ${spec}`);
  const racks = Number(m[1]);
  const perRack = Number(m[2]);
  if (!(racks >= 1 && racks <= 250 && perRack >= 1 && perRack <= 250)) {
    throw new Error(`seed cluster: racks and nodes per rack must be 1..250, got ${racks}x${perRack}`);
  }
  return { racks, perRack };
}

export function applySeedCluster(config: ConfluentConfig, spec: string): void {
  const { racks, perRack } = parseSeedCluster(spec);
  config.setGroupAttributes(
    "compute",
    {
      "hardwaremanagement.method": "ipmi",
      "console.method": "ipmi",
      "secret.hardwaremanagementuser": { value: "ADMIN" },
      "secret.hardwaremanagementpassword": { value: "rack-bmc-secret" },
      "net.ipv4_address": { expression: "10.0.{n1}.{n2}" },
    },
    true,
  );
  for (let r = 1; r <= racks; r++) {
    const rack = `rack${two(r)}`;
    config.setGroupAttributes(rack, { "location.rack": String(r) }, true);
    const nodes: Record<string, Record<string, unknown>> = {};
    for (let n = 1; n <= perRack; n++) {
      nodes[`r${two(r)}n${two(n)}`] = {
        groups: ["compute", rack],
        "hardwaremanagement.manager": `10.1.${r}.${n}`,
        "net.hwaddr": `52:54:00:${hex(r)}:00:${hex(n)}`,
        "location.u": String(n),
      };
    }
    config.setNodeAttributes(nodes, true);
  }
}
