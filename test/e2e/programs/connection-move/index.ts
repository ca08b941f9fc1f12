// Four nodes on the server that stack config `target` names: `a` is the stack's own connection
// (xcat:url, …), `b` another xCAT management node and `c` a Confluent server, each given as the
// nodes' `connection` input. Changing `target` moves the nodes: created on the new server,
// deleted from the old (test/e2e/provider-move.test.ts).
import * as pulumi from "@pulumi/pulumi";
import * as xcat from "pulumi-xcat";

const config = new pulumi.Config();
const target = config.require("target");

const connections: Record<string, xcat.ConnectionArgs | undefined> = {
  a: undefined,
  b: { url: config.require("urlB"), username: "admin-b", password: config.requireSecret("passwordB") },
  c: {
    url: config.require("urlC"),
    username: "admin-c",
    password: config.requireSecret("passwordC"),
    backend: "confluent",
  },
};
if (!(target in connections)) throw new Error(`target must be a, b or c, got ${target}`);
const connection = connections[target];

export const nodeNames = [1, 2, 3, 4].map(
  (i) =>
    new xcat.Node(`tc0${i}`, {
      groups: ["all"],
      attributes: { ip: `10.36.1.${i}`, mgt: "ipmi", bmc: `127.0.10.${60 + i}` },
      ...(connection ? { connection } : {}),
    }).name,
);
