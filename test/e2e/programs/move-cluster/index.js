// One cluster, described once: a group that holds the BMC settings, 20 nodes, their power and
// their OS, and 4 spare nodes as one NodeSet from the site's CSV inventory (node,ip,mac,bmc).
// Nothing here names a backend: `xcat:backend` in the stack config decides whether it goes to
// xCAT or to Confluent (test/e2e/confluent-move.test.ts runs it on both).
// Stack config: osimage (an xCAT image or a Confluent profile), bmcPassword (secret), and
// withPostscripts (the Group also sets xCAT's postscripts, which Confluent has no place for).
"use strict";
const { readFileSync } = require("node:fs");
const pulumi = require("@pulumi/pulumi");
const xcat = require("pulumi-xcat");

const config = new pulumi.Config();
const withPostscripts = config.getBoolean("withPostscripts") ?? false;

const compute = new xcat.Group("compute", {
  name: "mv-compute",
  attributes: {
    mgt: "ipmi",
    bmcusername: "admin",
    bmcpassword: config.requireSecret("bmcPassword"),
    ...(withPostscripts ? { postscripts: "confignetwork" } : {}),
  },
});

const two = (n) => String(n).padStart(2, "0");
const nodes = [];
for (let n = 1; n <= 20; n += 1) {
  nodes.push(
    new xcat.Node(`mv${two(n)}`, {
      name: `mv${two(n)}`,
      groups: [compute.name, "all"],
      attributes: {
        ip: `10.20.0.${n}`,
        mac: `52:54:00:20:00:${two(n)}`,
        bmc: `127.0.10.${100 + n}`,
      },
    }),
  );
}

const names = nodes.map((node) => node.name);
const power = new xcat.PowerState("power", { nodes: names, power: "on" }, { dependsOn: nodes });
new xcat.Deployment(
  "os",
  {
    nodes: names,
    osimage: config.require("osimage"),
    batchSize: 20,
    canary: 0,
    pollSeconds: 1,
    timeoutMinutes: 2,
  },
  { dependsOn: [power] },
);

// The spares: one resource, each node's own values from its CSV row (issue #38 item 4: NodeSet on
// either backend).
new xcat.NodeSet("spares", {
  groups: ["mv-spare", "all"],
  attributes: { mgt: "ipmi", usercomment: "spare" },
  csv: readFileSync("inventory/spares.csv", "utf8"),
});

exports.nodeCount = nodes.length;
