// Five nodes in a group whose ip and bmc are xCAT regex values: xCAT expands them per node name
// (Table.pm transRegexAttrs), so r03n01 gets 10.3.3.1, r03n02 10.3.3.2, ... Each node's
// `allAttributes` must hold its own ip and bmc, as the server does.
import * as pulumi from "@pulumi/pulumi";
import * as xcat from "pulumi-xcat";

const config = new pulumi.Config();
const rack = config.get("rack") ?? "rack03";
const prefix = config.get("prefix") ?? "r03n";

const group = new xcat.Group(rack, {
  attributes: {
    mgt: "ipmi",
    ip: "|r(\\d+)n(\\d+)|10.3.($1+0).($2+0)|",
    bmc: "|r(\\d+)n(\\d+)|10.13.($1+0).($2+0)|",
  },
});

const nodes = [1, 2, 3, 4, 5].map(
  (n) =>
    new xcat.Node(
      `${prefix}0${n}`,
      { groups: [rack, "all"], attributes: { arch: "x86_64" } },
      { dependsOn: group },
    ),
);

export const reported = pulumi
  .all(nodes.map((node) => pulumi.all([node.name, node.allAttributes])))
  .apply((pairs) => Object.fromEntries(pairs.map(([name, all]) => [name, { ip: all.ip, bmc: all.bmc }])));
