// Provisioning as code: two OS images, one deployed onto a noderange in batches, and the nodes
// held powered on. The nodes themselves are defined elsewhere (by hand, or an xcat.Node program).
//
//   nodes           noderange to deploy (default c[001-064])
//   image           which image to deploy: a or b (default a)
//   osimage         an image name instead of image a or b (to try a misspelt one)
//   batchSize       nodes per batch (default 16)
//   concurrency     batches at the same time (default 4)
//   canary          nodes that must boot the image before the others start (default 1)
//   maxFailures     failed nodes after which no new batch starts (default 1)
//   timeoutMinutes  how long to wait for all nodes (default 10)
//   pollSeconds     seconds between status reads (default 10)
//   cancelGraceSeconds  how long a cancel still watches the batches in flight (default 60)
//   stuckMinutes    after how long without a status change the roll says why a node may be stuck (default 10)
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

const canary = config.getNumber("canary");
const maxFailures = config.getNumber("maxFailures");
const cancelGraceSeconds = config.getNumber("cancelGraceSeconds");
const stuckMinutes = config.getNumber("stuckMinutes");
const deployment = new xcat.Deployment("compute", {
  nodes,
  osimage: config.get("osimage") ?? image.name,
  batchSize: config.getNumber("batchSize") ?? 16,
  concurrency: config.getNumber("concurrency") ?? 4,
  // Unset: the Deployment's defaults (canary 1, maxFailures 1).
  ...(canary === undefined ? {} : { canary }),
  ...(maxFailures === undefined ? {} : { maxFailures }),
  // Unset: the Deployment's defaults (60 s, 10 min).
  ...(cancelGraceSeconds === undefined ? {} : { cancelGraceSeconds }),
  ...(stuckMinutes === undefined ? {} : { stuckMinutes }),
  timeoutMinutes: config.getNumber("timeoutMinutes") ?? 10,
  pollSeconds: config.getNumber("pollSeconds") ?? 10,
  onDelete: (config.get("onDelete") ?? "keep") as "keep" | "offline",
});

const power = new xcat.PowerState("compute-on", { nodes, power: "on" }, { dependsOn: [deployment] });

/** Nodes that booted the deployment's image (a node a stopped roll did not reach keeps its old one). */
export const deployed = pulumi
  .all([deployment.nodeStates, deployment.osimage])
  .apply(
    ([states, osimage]) => Object.values(states).filter((s) => s.deployed && s.osimage === osimage).length,
  );
export const powered = power.powerStates.apply(
  (states) => Object.values(states).filter((state) => state === "on").length,
);
