// The change test/e2e/review-cluster.test.ts reviews, on a cluster made by hand first.
// stage "base": the program takes over group rack03, group compute and node r02n01 as they are.
// stage "change": group rack03 is dropped (5 nodes inherit from it), r02n01 sets provmethod
// (it inherits rocky9.3 from compute), a Deployment covers r02n[01-10], and the hand-made node
// legacy01 is taken over with another IP.
"use strict";
const pulumi = require("@pulumi/pulumi");
const xcat = require("pulumi-xcat");

const stage = new pulumi.Config().require("stage");
const change = stage === "change";

new xcat.Group("compute", { adopt: true, attributes: { provmethod: "rocky9.3" } });
if (!change) {
  new xcat.Group("rack03", {
    adopt: true,
    attributes: { xcatmaster: "10.0.0.1", servicenode: "sn01", rack: "03" },
  });
}
new xcat.Node("r02n01", {
  adopt: true,
  groups: ["compute", "rack02", "all"],
  attributes: { ip: "10.2.0.1", ...(change ? { provmethod: "rocky9.4" } : {}) },
});
if (change) {
  new xcat.Deployment("rack02-image", { nodes: "r02n[01-10]", osimage: "rocky9.4-x86_64-netboot-compute" });
  new xcat.Node("legacy01", { adopt: true, groups: ["legacy", "all"], attributes: { ip: "10.66.0.6" } });
}
