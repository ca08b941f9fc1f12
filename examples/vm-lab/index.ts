// A VM's life in stages: set the stack config `stage` and run `pulumi up` after each.
//
//   stage 1  vm01: 2 CPUs, 4 GiB, one 20 GiB disk (mkvm)
//   stage 2  vm01's memory grows to 8 GiB (chvm, in place)
//   stage 3  vm01 gets a second, 10 GiB disk (chvm, in place)
//   stage 4  vm02 is cloned from the clone master `master` (default rhels9-golden, clonevm)
//   pulumi destroy removes both guests (rmvm -p) and their nodes.
import * as pulumi from "@pulumi/pulumi";
import * as xcat from "pulumi-xcat";

const config = new pulumi.Config();
const stage = config.getNumber("stage") ?? 1;
const master = config.get("master") ?? "rhels9-golden";

const host = new xcat.Node("kvmhost01", {
  groups: ["hypervisors", "all"],
  attributes: { mgt: "ipmi", ip: "10.0.0.30", hosttype: "kvm" },
});

const vm01Node = new xcat.Node("vm01", {
  groups: ["vms", "all"],
  attributes: { mgt: "kvm", vmhost: host.name, ip: "10.0.0.101" },
});
const vm01 = new xcat.VirtualMachine("vm01", {
  node: vm01Node.name,
  cpus: 2,
  memoryMiB: stage >= 2 ? 8192 : 4096,
  disksGiB: stage >= 3 ? [20, 10] : [20],
});

let vm02: xcat.VirtualMachine | undefined;
if (stage >= 4) {
  const vm02Node = new xcat.Node("vm02", {
    groups: ["vms", "all"],
    attributes: { mgt: "kvm", vmhost: host.name, ip: "10.0.0.102" },
  });
  vm02 = new xcat.VirtualMachine("vm02", {
    node: vm02Node.name,
    cpus: 2,
    memoryMiB: 4096,
    disksGiB: [30],
    cloneFrom: master,
  });
}

export const vm01Shape = pulumi
  .all([vm01.cpus, vm01.memoryMiB, vm01.disksGiB, vm01.diskDevices])
  .apply(([cpus, memoryMiB, disksGiB, devices]) => ({ cpus, memoryMiB, disksGiB, devices }));
export const vm02Disks = vm02?.disksGiB;
