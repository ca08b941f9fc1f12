import * as pulumi from "@pulumi/pulumi";
import { isSecretAttribute } from "../attributes";
import { tableRowId } from "../table-row-id";
import { ThinDynamicResource, thinProvider } from "../thin-provider";
import { isPlainObject } from "../validation";
import { type ConnectionArgs, connectionInput, registeredProps, resourceOptions } from "./common";
import { claimObject } from "./object-claims";

const provider = thinProvider("xcat:TableRow");

/** Inputs of {@link TableRow}. */
export interface TableRowArgs {
  /** The xCAT table, e.g. "routes". Changing it replaces the row. */
  readonly table: pulumi.Input<string>;
  /**
   * Exactly the table's key columns and their values: `{ node: "cn001" }` for node-keyed tables,
   * `{ routename: "r1" }` for routes. Changing them replaces the row.
   */
  readonly keys: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** The columns to manage. Removing one clears it. Columns named like passwords make `values` secret. */
  readonly values: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Take over a row that already exists with other values, and make it match. */
  readonly adopt?: pulumi.Input<boolean>;
  readonly connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * One row of an xCAT table, for what xCAT's objects do not cover (routes, passwd, …). Id and
 * `name`: `<table>:<key>=<value>[,<key>=<value>]` in the table's key-column order.
 *
 * @example
 * new xcat.TableRow("route-privnet", {
 *   table: "routes",
 *   keys: { routename: "privnet" },
 *   values: { net: "10.2.0.0", mask: "255.255.0.0", gateway: "10.0.0.254", ifname: "eth1" },
 * });
 */
export class TableRow extends ThinDynamicResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly table: pulumi.Output<string>;
  declare readonly keys: pulumi.Output<Record<string, string>>;
  declare readonly values: pulumi.Output<Record<string, string>>;

  constructor(name: string, args: TableRowArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = connectionInput(args.connection);
    const values = pulumi
      .output(args.values)
      .apply((v) => (Object.keys(v ?? {}).some(isSecretAttribute) ? pulumi.secret(v) : pulumi.output(v)));
    const inputs = opts?.id
      ? { connection }
      : { table: args.table, keys: args.keys, values, adopt: args.adopt, connection };
    const props = registeredProps(["name", "table", "keys", "values"], inputs);
    super(provider, name, props, resourceOptions(opts, []), "xcat", "TableRow");
    // Resource.get only reads: it claims nothing.
    if (!opts?.id) claimObject(this, "xcat:TableRow", name, "table row", claimedRow(args), args.connection);
  }

  /** Reads a row by its id, e.g. `routes:routename=privnet`. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): TableRow {
    return new TableRow(name, { table: "", keys: {}, values: {} }, { ...opts, id });
  }
}

/**
 * The row's id for the one-resource-per-row claim: at once when table and keys are plain
 * strings, else when they are known. Not a usable row (check reports it): no claim.
 */
function claimedRow(args: TableRowArgs): pulumi.Input<string> | undefined {
  const rowOf = (table: unknown, keys: unknown): string | undefined =>
    typeof table === "string" && isStringRecord(keys) ? tableRowId(table, keys) : undefined;
  const plain = rowOf(args.table, args.keys);
  if (plain !== undefined) return plain;
  return pulumi
    .all([args.table, args.keys])
    .apply(([table, keys]) => rowOf(table, keys)) as pulumi.Output<string>;
}

/** A map of key column to plain string value (an Output or a promise is not: its values are not strings). */
function isStringRecord(value: unknown): value is Record<string, string> {
  return isPlainObject(value) && Object.values(value).every((entry) => typeof entry === "string");
}
