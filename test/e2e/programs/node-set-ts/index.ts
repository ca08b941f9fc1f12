// Two racks as two NodeSets, their per-node values read from the site's CSV inventory files
// (node,ip,mac,bmc), for test/e2e/node-set.test.ts. Config `rack2Image` rolls rack 2's image.
import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as xcat from "pulumi-xcat";

const config = new pulumi.Config();

const rack1 = new xcat.NodeSet("rack1", {
  groups: ["rack1", "compute", "all"],
  attributes: { mgt: "ipmi", arch: "x86_64", provmethod: "rocky9-x86_64-netboot-compute" },
  csv: readFileSync("inventory/rack1.csv", "utf8"),
});

const rack2 = new xcat.NodeSet("rack2", {
  groups: ["rack2", "compute", "all"],
  attributes: {
    mgt: "ipmi",
    arch: "x86_64",
    provmethod: config.get("rack2Image") ?? "rocky9-x86_64-netboot-compute",
  },
  csv: readFileSync("inventory/rack2.csv", "utf8"),
});

// Config `duplicateIp`: a Node cn07 with that ip, which the policy pack refuses when a row holds it too.
const duplicateIp = config.get("duplicateIp");
if (duplicateIp !== undefined) {
  new xcat.Node("cn07", { groups: ["compute", "all"], attributes: { ip: duplicateIp } });
}

export const rack1Nodes = rack1.noderange;
export const rack2Nodes = rack2.noderange;
