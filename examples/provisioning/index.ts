// Provisioning as code: two OS images, one deployed onto a noderange in batches, and the nodes
// held powered on. The nodes themselves are defined elsewhere (by hand, or an xcat.Node program).
//
//   nodes           noderange to deploy (default c[001-064])
//   image           which image to deploy: a or b (default a)
//   batchSize       nodes per batch (default 16)
//   timeoutMinutes  how long to wait for all nodes (default 10)
//   pollSeconds     seconds between status reads (default 10)
//   onDelete        keep or offline (default keep)
//   xcat:url, xcat:username, xcat:password (secret): where xCAT's REST API is
import * as pulumi from "@pulumi/pulumi";
import * as xcat from "pulumi-xcat";

const config = new pulumi.Config();
const nodes = config.get("nodes") ?? "c[001-064]";

const images = Object.fromEntries(
  (["a", "b"] as const).map((variant) => [
    variant,
    new xcat.Osimage(`rhels9.4-x86_64-install-compute-${variant}`, {
      attributes: {
        imagetype: "linux",
        provmethod: "install",
        profile: "compute",
        osname: "Linux",
        osvers: "rhels9.4",
        osarch: "x86_64",
      },
    }),
  ]),
);
const image = images[config.get("image") ?? "a"];
if (!image) throw new Error("image: a or b");

const deployment = new xcat.Deployment("compute", {
  nodes,
  osimage: image.name,
  batchSize: config.getNumber("batchSize") ?? 16,
  concurrency: 4,
  timeoutMinutes: config.getNumber("timeoutMinutes") ?? 10,
  pollSeconds: config.getNumber("pollSeconds") ?? 10,
  onDelete: (config.get("onDelete") ?? "keep") as "keep" | "offline",
});

const power = new xcat.PowerState("compute-on", { nodes, power: "on" }, { dependsOn: [deployment] });

export const deployed = deployment.nodeStates.apply(
  (states) => Object.values(states).filter((state) => state.deployed).length,
);
export const powered = power.powerStates.apply(
  (states) => Object.values(states).filter((state) => state === "on").length,
);
