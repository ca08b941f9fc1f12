// Plain JavaScript, so nothing checks the inputs before pulumi-xcat does: each case is a mistake a
// user without TypeScript can make. Stack config `case` picks one; `pulumi preview` must fail
// with a message naming the resource and the field, and must not contact xCAT.
"use strict";
const pulumi = require("@pulumi/pulumi");
const xcat = require("pulumi-xcat");

const cases = {
  "node-name-slash": () => new xcat.Node("rack1/cn01", { groups: ["all"] }),
  "node-name-comma": () => new xcat.Node("cn-pair", { name: "cn01,cn02", groups: ["all"] }),
  "node-groups-string": () => new xcat.Node("cn01", { groups: "compute" }),
  "node-unknown-attribute": () => new xcat.Node("cn02", { groups: ["all"], attributes: { mgmt: "ipmi" } }),
  "node-attributes-string": () => new xcat.Node("cn03", { groups: ["all"], attributes: "mgt=ipmi" }),
  "network-mask": () => new xcat.Network("mgmt", { net: "10.0.0.0", mask: "255.0.255.0" }),
  "network-host-bits": () => new xcat.Network("ib0", { net: "10.3.0.1", mask: "255.255.255.0" }),
  "policy-priority-number": () =>
    new xcat.Policy("ops", { priority: 6, attributes: { name: "ops", rule: "allow" } }),
  "tablerow-unknown-table": () =>
    new xcat.TableRow("route-x", { table: "route", keys: { routename: "x" }, values: { net: "10.9.0.0" } }),
  "tablerow-wrong-keys": () =>
    new xcat.TableRow("route-y", {
      table: "routes",
      keys: { net: "10.9.0.0" },
      values: { gateway: "10.0.0.1" },
    }),
  "vm-zero-cpus": () =>
    new xcat.VirtualMachine("vm01", { node: "vm01", cpus: 0, memoryMiB: 2048, disksGiB: [20] }),
  "site-empty-value": () => new xcat.GlobalConfAttribute("domain", { value: "" }),
  // Two resources for one node: both would manage it, and deleting either deletes it.
  "node-claimed-twice": () => {
    new xcat.Node("cn10", { groups: ["all"] });
    new xcat.Node("cn10-again", { name: pulumi.output("cn10"), groups: ["compute", "all"] });
  },
  // The same with both names given as plain strings (claimed at once, without waiting for outputs).
  "node-claimed-twice-plain": () => {
    new xcat.Node("cn11", { groups: ["all"] });
    new xcat.Node("cn11-again", { name: "cn11", groups: ["compute", "all"] });
  },
  // Two rows for one route (keys known only as outputs for the second), and two guests for one VM
  // node: the same refusal as for nodes.
  "tablerow-claimed-twice": () => {
    const values = { net: "10.2.0.0", mask: "255.255.0.0", gateway: "10.0.0.254" };
    new xcat.TableRow("route-a", { table: "routes", keys: { routename: "privnet" }, values });
    new xcat.TableRow("route-b", { table: "routes", keys: { routename: pulumi.output("privnet") }, values });
  },
  "vm-claimed-twice": () => {
    new xcat.VirtualMachine("vm02", { node: "vm02", cpus: 2, memoryMiB: 2048, disksGiB: [20] });
    new xcat.VirtualMachine("vm02-again", { node: "vm02", cpus: 4, memoryMiB: 4096, disksGiB: [20] });
  },
  // An address no cluster can use (172.20.1.300), refused at preview naming the field.
  "node-bad-ip": () => new xcat.Node("cn05", { groups: ["all"], attributes: { ip: "172.20.1.300" } }),
  // A misspelt password attribute: refused with a hint, its value never printed nor stored.
  "node-misspelt-password": () =>
    new xcat.Node("cn04", { groups: ["all"], attributes: { mgt: "ipmi", bmcpasword: "Xyzzy-9f3c-bmc" } }),
};

const chosen = new pulumi.Config().require("case");
const make = cases[chosen];
if (!make) throw new Error(`unknown case '${chosen}'; known: ${Object.keys(cases).join(", ")}`);
make();
