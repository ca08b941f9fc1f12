// Two racks as two NodeSets, their per-node values read from the site's CSV inventory files
// (node,ip,mac,bmc), for test/e2e/node-set.test.ts. Config `rack2Image` rolls rack 2's image;
// config `standalone` names a node of rack 1 taken out of the set into a Node of its own, with
// its row's values (issue #38 item 6: the set releases it, the Node adopts it; unset, it goes back).
// Config `duplicateIp` adds a Node cn07 with that ip (the policy pack's refusal, issue #38 item 4).
import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as xcat from "pulumi-xcat";

const config = new pulumi.Config();

const rack2 = new xcat.NodeSet("rack2", {
  groups: ["rack2", "compute", "all"],
  attributes: {
    mgt: "ipmi",
    arch: "x86_64",
    provmethod: config.get("rack2Image") ?? "rocky9-x86_64-netboot-compute",
  },
  csv: readFileSync("inventory/rack2.csv", "utf8"),
});

const rack1Groups = ["rack1", "compute", "all"];
const rack1Common = { mgt: "ipmi", arch: "x86_64", provmethod: "rocky9-x86_64-netboot-compute" };
const standalone = config.get("standalone");
const [header = "", ...rows] = readFileSync("inventory/rack1.csv", "utf8").trimEnd().split("\n");
const ownRow = rows.find((row) => row.split(",")[0] === standalone);

const rack1 = new xcat.NodeSet("rack1", {
  groups: rack1Groups,
  attributes: rack1Common,
  csv: [header, ...rows.filter((row) => row !== ownRow)].join("\n"),
  // Its row leaves the set; the node stays, for the Node below.
  ...(standalone !== undefined ? { release: standalone } : {}),
});

if (standalone !== undefined && ownRow !== undefined) {
  const columns = header.split(",").slice(1);
  const cells = ownRow.split(",").slice(1);
  new xcat.Node(
    standalone,
    {
      groups: rack1Groups,
      attributes: {
        ...rack1Common,
        ...Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ""])),
      },
      // Takes the node over as it is: a read, no write.
      adopt: true,
    },
    // Going back into the set later removes this resource: the engine forgets it and leaves the node.
    { retainOnDelete: true },
  );
}

// Config `duplicateIp`: a Node cn07 with that ip, which the policy pack refuses when a row holds it too.
const duplicateIp = config.get("duplicateIp");
if (duplicateIp !== undefined) {
  new xcat.Node("cn07", { groups: ["compute", "all"], attributes: { ip: duplicateIp } });
}

export const rack1Nodes = rack1.noderange;
export const rack2Nodes = rack2.noderange;
