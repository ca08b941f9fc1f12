// A rack on each of two xCAT management nodes, each a NodeSet whose `connection` input names its
// server, the per-node values read from the site's CSV inventories (node,ip,mac,bmc), for
// test/e2e/node-set-providers.test.ts. The stack's own xcat:url names a third server that no
// resource uses: a set that read or wrote there would have taken the stack's config for its own.
// Config `rackBImage` rolls rack B's image.
import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as xcat from "pulumi-xcat";

const config = new pulumi.Config();

const rackA = new xcat.NodeSet("rackA", {
  groups: ["rack-a", "all"],
  attributes: { mgt: "ipmi", provmethod: "rocky9-x86_64-netboot-compute" },
  csv: readFileSync("inventory/rack-a.csv", "utf8"),
  connection: { url: config.require("urlA"), username: "root", password: config.requireSecret("passwordA") },
});

const rackB = new xcat.NodeSet("rackB", {
  groups: ["rack-b", "all"],
  attributes: { mgt: "ipmi", provmethod: config.get("rackBImage") ?? "rocky9-x86_64-netboot-compute" },
  csv: readFileSync("inventory/rack-b.csv", "utf8"),
  connection: {
    url: config.require("urlB"),
    username: "admin-b",
    password: config.requireSecret("passwordB"),
  },
});

export const rackANodes = rackA.noderange;
export const rackBNodes = rackB.noderange;
