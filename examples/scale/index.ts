// A rack's worth of nodes from one loop: the reliability tests apply it to the emulator under
// injected faults, token expiry, a management-node restart and a killed `pulumi up`, and the soak
// test cycles it. Every attribute is derived from the node's index, so a test can compute the
// exact objects the program declares (see expectedScaleNodes in test/e2e/reliability/support.ts).
//
// Stack config: nodeCount (default 10), prefix (default "sc"), bmcPassword (secret, optional),
// adopt (default false: take nodes that already exist and make them match), image (optional: every
// node's provmethod, so changing it is an image roll).
// Connection: xcat:url, xcat:username and xcat:password (secret), as for every pulumi-xcat program.
import * as pulumi from "@pulumi/pulumi";
import * as xcat from "pulumi-xcat";

const config = new pulumi.Config();
const nodeCount = config.getNumber("nodeCount") ?? 10;
const prefix = config.get("prefix") ?? "sc";
const bmcPassword = config.getSecret("bmcPassword");
const adopt = config.getBoolean("adopt") ?? false;
const image = config.get("image");

const nodes: xcat.Node[] = [];
for (let i = 1; i <= nodeCount; i++) {
  const host = `${Math.floor(i / 250)}.${(i % 250) + 1}`;
  nodes.push(
    new xcat.Node(`${prefix}${String(i).padStart(3, "0")}`, {
      groups: ["scale", "all"],
      attributes: {
        mgt: "ipmi",
        ip: `10.20.${host}`,
        bmc: `10.21.${host}`,
        mac: `52:54:00:14:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 0xff).toString(16).padStart(2, "0")}`,
        ...(bmcPassword ? { bmcpassword: bmcPassword } : {}),
        ...(image ? { provmethod: image } : {}),
      },
      adopt,
    }),
  );
}

export const nodeNames = nodes.map((node) => node.name);
