import type * as pulumi from "@pulumi/pulumi";
import { ThinDynamicResource, thinProvider } from "../thin-provider";
import { type ConnectionArgs, connectionInput, registeredProps, resourceOptions } from "./common";

const provider = thinProvider("xcat:Deployment");

/** Inputs of {@link Deployment}. */
export interface DeploymentArgs {
  /** A noderange or group (`r01n[01-16]`, `compute`), or a list of node names (e.g. Node names). */
  readonly nodes: pulumi.Input<string | pulumi.Input<string>[]>;
  /** The image to deploy (an Osimage's `name`). Changing it deploys every node again (an update). */
  readonly osimage: pulumi.Input<string>;
  /** `booted` (default): wait until every node reports booted; `none`: send the actions and return. */
  readonly waitFor?: pulumi.Input<"booted" | "none">;
  /** How long to wait for the nodes in all, in minutes (default 60). */
  readonly timeoutMinutes?: pulumi.Input<number>;
  /** Nodes per batch: one nodeset, rsetboot and rpower request each (default 100). */
  readonly batchSize?: pulumi.Input<number>;
  /** Batches deployed at the same time (default 2). */
  readonly concurrency?: pulumi.Input<number>;
  /**
   * The first nodes that must boot the image before any other node starts (default 1 with
   * `waitFor: "booted"`, 0 with `"none"`); if one fails, the roll stops there.
   */
  readonly canary?: pulumi.Input<number>;
  /** No new batch starts once this many nodes of a roll have failed (default 1). */
  readonly maxFailures?: pulumi.Input<number>;
  /** Seconds between status reads of a booting batch (default 10). */
  readonly pollSeconds?: pulumi.Input<number>;
  /** On delete: `keep` (default) leaves the OS running; `offline` runs nodeset offline and powers off. */
  readonly onDelete?: pulumi.Input<"keep" | "offline">;
  /**
   * After a cancel (Ctrl-C, SIGTERM to pulumi), how long the batches in flight are still watched,
   * in seconds (default 60; 0: one last read). Nodes that boot by then are recorded as deployed,
   * the others as not deployed, and the operation ends.
   */
  readonly cancelGraceSeconds?: pulumi.Input<number>;
  /**
   * After how many minutes without a status change the roll reports why its nodes may be stuck,
   * from what the management node says of them (default 10).
   */
  readonly stuckMinutes?: pulumi.Input<number>;
  /**
   * Take over the nodes that already booted `osimage` without touching them (recorded as done)
   * and deploy only the others; preview shows which (default false). Read on create only: what
   * `pulumi-xcat import` writes for nodes it found running an image.
   */
  readonly adopt?: pulumi.Input<boolean>;
  readonly connection?: pulumi.Input<ConnectionArgs>;
}

/** What became of one node. A node is done when it booted the deployment's `osimage`. */
export interface DeploymentNodeState {
  readonly status: string;
  readonly statusTime: string;
  readonly osimage: string;
  readonly deployed: boolean;
}

/**
 * An OS image deployed onto nodes: nodeset osimage, rsetboot net, rpower boot, then waiting until
 * each node reports `booted`. Nodes that fail or time out fail the resource, naming each one and
 * its last status; the next `up` retries only them. The roll starts with a canary, and starts no
 * new batch after `maxFailures` failed nodes or a cancel (Ctrl-C); the nodes it did not reach keep
 * their record and the next `up` continues with them. Id: the noderange.
 *
 * @example
 * new xcat.Deployment("compute", { nodes: "r01n[01-16]", osimage: image.name }, { dependsOn: nodes });
 */
export class Deployment extends ThinDynamicResource {
  declare readonly nodes: pulumi.Output<string | string[]>;
  declare readonly osimage: pulumi.Output<string>;
  /** Per node: last status, the time it was reached, the image, and whether the node is done. */
  declare readonly nodeStates: pulumi.Output<Record<string, DeploymentNodeState>>;

  constructor(name: string, args: DeploymentArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = connectionInput(args.connection);
    const inputs = opts?.id
      ? { connection }
      : {
          nodes: args.nodes,
          osimage: args.osimage,
          waitFor: args.waitFor,
          timeoutMinutes: args.timeoutMinutes,
          batchSize: args.batchSize,
          concurrency: args.concurrency,
          canary: args.canary,
          maxFailures: args.maxFailures,
          pollSeconds: args.pollSeconds,
          onDelete: args.onDelete,
          cancelGraceSeconds: args.cancelGraceSeconds,
          stuckMinutes: args.stuckMinutes,
          adopt: args.adopt,
          connection,
        };
    super(
      provider,
      name,
      registeredProps(["nodes", "osimage", "nodeStates"], inputs),
      resourceOptions(opts, []),
      "xcat",
      "Deployment",
    );
  }

  /** Reads the deployment of a noderange without managing it. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Deployment {
    return new Deployment(name, { nodes: id, osimage: "" }, { ...opts, id });
  }
}
