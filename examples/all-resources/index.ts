// One of each pulumi-xcat resource type, wired together as a small cluster would be. The e2e
// tests apply it to the xCAT emulator, edit it by hand, and check what Pulumi reports.
// Connection: stack config xcat:url, xcat:username and xcat:password (secret).
// On a shared management node (docs/real-xcat-e2e.md) the tests set `prefix`, which goes in front
// of every object name and site key, a policy priority of their own, and `vm: false`: a real mkvm
// would contact the hypervisor.
import * as pulumi from "@pulumi/pulumi";
import * as xcat from "pulumi-xcat";

const config = new pulumi.Config();
const bmcPassword = config.requireSecret("bmcPassword");
// Not a password by its name, but kept as a secret: whatever the program makes secret stays
// encrypted in the state, under any attribute name.
const bmcUser = config.requireSecret("bmcUser");
const prefix = config.get("prefix") ?? "";
const withVm = config.getBoolean("vm") ?? true;
const priority = config.get("policyPriority") ?? "6.5";

const mgmt = new xcat.Network(`${prefix}mgmt`, {
  net: "10.0.0.0",
  mask: "255.255.0.0",
  attributes: { gateway: "10.0.0.254", mgtifname: "eth0" },
});

const domain = new xcat.GlobalConfAttribute(`${prefix}domain`, { value: "e2e.example.org" });

const image = new xcat.Osimage(`${prefix}rhels9-x86_64-netboot-compute`, {
  attributes: {
    imagetype: "linux",
    provmethod: "netboot",
    osvers: "rhels9.4",
    osarch: "x86_64",
    profile: "compute",
  },
});

const compute = new xcat.Group(`${prefix}compute`, {
  attributes: { mgt: "ipmi", netboot: "xnba", provmethod: image.name },
});

const cn001 = new xcat.Node(
  `${prefix}cn001`,
  {
    groups: [`${prefix}compute`, "all"],
    attributes: {
      ip: "10.0.0.1",
      mac: "52:54:00:00:00:01",
      bmc: "10.1.0.1",
      bmcusername: bmcUser,
      bmcpassword: bmcPassword,
    },
  },
  { dependsOn: [compute, mgmt] },
);

const kvmhost = new xcat.Node(`${prefix}kvmhost01`, {
  groups: [`${prefix}hypervisors`, "all"],
  attributes: { mgt: "ipmi", ip: "10.0.0.100" },
});
const vmNode = new xcat.Node(`${prefix}vm01`, {
  groups: [`${prefix}vms`, "all"],
  attributes: { mgt: "kvm", vmhost: kvmhost.name, ip: "10.0.0.201" },
});
const vm = withVm
  ? new xcat.VirtualMachine(`${prefix}vm01`, { node: vmNode.name, cpus: 2, memoryMiB: 4096, disksGiB: [20] })
  : undefined;

const ops = new xcat.Policy(`${prefix}ops-account`, {
  priority,
  attributes: { name: `${prefix}ops`, rule: "allow" },
});

const route = new xcat.TableRow(`${prefix}route-privnet`, {
  table: "routes",
  keys: { routename: `${prefix}privnet` },
  values: { net: "10.2.0.0", mask: "255.255.0.0", gateway: "10.0.0.254", ifname: "eth1" },
});

export const names = {
  network: mgmt.name,
  domain: domain.name,
  image: image.name,
  group: compute.name,
  node: cn001.name,
  vm: vm?.name,
  policy: ops.name,
  route: route.name,
};
export const nodeMgtInherited = cn001.allAttributes.apply((all) => all.mgt);
export const vmDisks = vm?.diskDevices;
