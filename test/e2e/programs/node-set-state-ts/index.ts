// A rack of 3 as a NodeSet whose program reads what the set reports, for
// test/e2e/node-set-state.test.ts: each node's whole report (`nodeAttributes`, expanded by the
// class from the state's compact form), what all nodes share, and the noderange.
import * as xcat from "pulumi-xcat";

const rack = new xcat.NodeSet("rack", {
  groups: ["state-rack", "all"],
  attributes: { mgt: "ipmi", arch: "x86_64", provmethod: "rocky9-x86_64-netboot-compute" },
  rows: {
    ss01: { ip: "10.8.0.1", bmc: "127.0.10.91" },
    ss02: { ip: "10.8.0.2", bmc: "127.0.10.92" },
    ss03: { ip: "10.8.0.3", bmc: "127.0.10.93" },
  },
});

export const nodes = rack.noderange;
export const ss02 = rack.nodeAttributes.apply((reports) => reports.ss02);
export const reportedNodes = rack.nodeAttributes.apply((reports) => Object.keys(reports));
export const shared = rack.sharedAttributes;
