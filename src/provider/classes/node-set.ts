import * as pulumi from "@pulumi/pulumi";
import { compactNoderange } from "../node-batches";
import { expandReports } from "../node-set-reports";
import { ThinDynamicResource, thinProvider } from "../thin-provider";
import { type ConnectionArgs, connectionInput, registeredProps, resourceOptions } from "./common";
import type { NodeAttributes } from "./node";

const provider = thinProvider("xcat:NodeSet");

/** Inputs of {@link NodeSet}. */
export interface NodeSetArgs {
  /** The groups every node of the set belongs to, in inheritance order (xCAT requires at least one). */
  readonly groups: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Attributes every node of the set gets (provmethod, mgt, netboot, …). Only the ones given are
   * managed; removing one clears it on every node. A change is one request for the whole set.
   */
  readonly attributes?: pulumi.Input<NodeAttributes>;
  /**
   * The nodes and the values of each, as a map of node name to attributes (ip, mac, bmc, …).
   * Give either `rows` or `csv`.
   */
  readonly rows?: pulumi.Input<Record<string, pulumi.Input<NodeAttributes>>>;
  /**
   * The nodes and the values of each as CSV text, header `node,<attribute>,...` (e.g.
   * `node,ip,mac,bmc`), one row per node; a blank cell sets nothing. Read it from the inventory
   * file a site keeps: `fs.readFileSync("inventory/rack1.csv", "utf8")`, `fn::readFile` in YAML.
   */
  readonly csv?: pulumi.Input<string>;
  /**
   * An xCAT noderange of node names, e.g. `r01n[01-20]`. With rows or csv, the rows must name
   * exactly these nodes; alone, the set is these nodes with the common values only.
   */
  readonly nodes?: pulumi.Input<string>;
  /**
   * Nodes (a noderange, e.g. `r01n07`) whose rows may leave the set without the nodes being deleted
   * on xCAT: moved to a `Node` (declared with `adopt: true`) or another NodeSet. A removed row of a
   * node not named here deletes the node.
   */
  readonly release?: pulumi.Input<string>;
  /** Take over nodes that already exist with other values, and make them match the program. */
  readonly adopt?: pulumi.Input<boolean>;
  readonly connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * Many xCAT nodes as one resource (a rack, an inventory file), with per-node truth: each node
 * holds `groups`, `attributes` and its own row; refresh and `preview --diff` name the node and
 * attribute that changed (`rows.r01n03.ip`). A common value changes with one PUT of the set's
 * noderange, removed rows go in one DELETE, a new row is one create. Id: the noderange at creation.
 *
 * @example
 * const rack1 = new xcat.NodeSet("rack1", {
 *   groups: ["rack1", "compute", "all"],
 *   attributes: { mgt: "ipmi", provmethod: "rocky9-x86_64-netboot-compute" },
 *   csv: fs.readFileSync("inventory/rack1.csv", "utf8"), // node,ip,mac,bmc
 * });
 */
export class NodeSet extends ThinDynamicResource {
  declare readonly groups: pulumi.Output<string[]>;
  /** The common attributes, as declared. */
  declare readonly attributes: pulumi.Output<Record<string, string>>;
  /**
   * Each node's own values as xCAT held them at the last update or refresh; a node whose common
   * value was changed by hand shows it here as its own.
   */
  declare readonly rows: pulumi.Output<Record<string, Record<string, string>>>;
  /** The set's nodes as xCAT's compact noderange, e.g. `r01n[01-20]`. */
  declare readonly noderange: pulumi.Output<string>;
  /**
   * Per node, everything xCAT reports for it, inherited values included, without passwords.
   * In TypeScript each node's report whole. The state (and so a YAML, Python or Go program,
   * whose provider returns the state's form) keeps per node only what neither its row in `rows`
   * nor `sharedAttributes` says: a node's whole report is its row, `sharedAttributes` over it,
   * then its own entry over those, where "" means the node does not report that row value.
   */
  declare readonly nodeAttributes: pulumi.Output<Record<string, Record<string, string>>>;
  /** What every node of the set reports alike (groups, common attributes, what the groups give). */
  declare readonly sharedAttributes: pulumi.Output<Record<string, string>>;

  constructor(name: string, args: NodeSetArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      // Every registered key costs the program four promises, each with a source-mapped stack
      // trace (registeredProps): `noderange` is derived from `rows` instead, as the provider
      // derives it, and `nodeAttributes` expanded from the state's form, each on first use.
      registeredProps(["groups", "attributes", "rows", "nodeAttributes", "sharedAttributes"], {
        groups: args.groups,
        attributes: args.attributes,
        rows: args.rows,
        csv: args.csv,
        nodes: args.nodes,
        release: args.release,
        adopt: args.adopt,
        connection: connectionInput(args.connection),
      }),
      resourceOptions(opts, []),
      "xcat",
      "NodeSet",
    );
    const own = this.nodeAttributes as pulumi.Output<unknown>;
    derivedOnFirstUse(this, "nodeAttributes", () =>
      pulumi
        .all([own, this.sharedAttributes, this.rows])
        .apply(([nodes, shared, rows]) => expandReports(nodes, shared, rows)),
    );
    derivedOnFirstUse(this, "noderange", () =>
      this.rows.apply((rows) =>
        rows === undefined ? (undefined as unknown as string) : compactNoderange(Object.keys(rows)),
      ),
    );
  }
}

/**
 * Defines `key` on `resource` as an output made by `make` the first time it is read (a program
 * that never reads it pays nothing for it), the same output at every later read.
 */
function derivedOnFirstUse(resource: object, key: string, make: () => pulumi.Output<unknown>): void {
  let made: pulumi.Output<unknown> | undefined;
  Object.defineProperty(resource, key, {
    configurable: true,
    enumerable: true,
    get: () => {
      made ??= make();
      return made;
    },
  });
}
