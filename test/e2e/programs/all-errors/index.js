// Four mistakes in one plain JavaScript program (no type checker in the way), and one valid node:
// one preview must name all four, fail, and send nothing to xCAT (test/e2e/all-errors.test.ts).
"use strict";
const xcat = require("pulumi-xcat");

// A misspelt attribute (bmc).
new xcat.Node("cn01", { groups: ["all"], attributes: { mgt: "ipmi", bcm: "127.0.10.1" } });
// An address no network has, on a node whose mgt is a number.
new xcat.Node("cn02", { groups: ["all"], attributes: { ip: "10.0.0.300", mgt: 5 } });
// A mask that is not contiguous.
new xcat.Network("mgmt", { net: "10.0.0.0", mask: "255.0.255.0" });
// A misspelt group attribute (members).
new xcat.Group("compute", { attributes: { membrs: "cn01,cn02" } });
// Valid: registered as usual.
new xcat.Node("cn03", { groups: ["all"], attributes: { mgt: "ipmi", bmc: "127.0.10.3", ip: "10.0.0.3" } });
