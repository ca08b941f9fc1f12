/**
 * What the view reads of an xCAT management node per tick, batched for the whole cluster: two
 * requests however many nodes it holds (plus a token when the client needs a new one).
 *
 * 1. `GET /tables/<tables>/rows`: the raw rows of the node tables holding {@link VIEW_ATTRIBUTES}
 *    (tabutils.pm getTablesAllRowAttribs, every row, nothing inherited), so each value is worked
 *    out as xCAT does with the group it comes from (review's ClusterFacts); the node list is the
 *    nodelist table's rows;
 * 2. `GET /nodes/<noderange>/power` (rpower stat) for every node, the noderange compressed
 *    (`r01n[01-32],r02n[01-32]`).
 * A failed power read leaves power unknown with the reason; the drawing still comes.
 */
import type { TableRows, XcatClient } from "../../client";
import { compareStrings, compressNoderange } from "../../contract/noderange";
import { ClusterFacts, tablesFor } from "../review/cluster-facts";

/** The node attributes the view reads, shows on a click, and places by. */
export const VIEW_ATTRIBUTES = [
  "groups",
  "status",
  "statustime",
  "appstatus",
  "provmethod",
  "os",
  "arch",
  "profile",
  "netboot",
  "rack",
  "unit",
  "room",
  "chassis",
  "slotid",
  "height",
  "mgt",
  "bmc",
  "bmcusername",
  "bmcpassword",
  "ip",
  "mac",
  "installnic",
  "primarynic",
  "xcatmaster",
  "serial",
  "mtm",
] as const;

export interface ClusterRead {
  readonly nodes: readonly string[];
  readonly facts: ClusterFacts;
  /** Power per node (`on`, `off`, or what rpower said). */
  readonly power: ReadonlyMap<string, string>;
  /** Why power is not known, when the read failed. */
  readonly powerProblem?: string;
}

/** The names of the nodes in raw table rows: the nodelist table's keys. */
export function nodeNames(rows: TableRows): string[] {
  const names = (rows.nodelist ?? []).map((row) => row.node).filter((name): name is string => !!name);
  return [...new Set(names)].sort(compareStrings);
}

/** Reads the cluster; `alsoAttributes` (those the stack's Nodes recorded) add their tables to the same request. */
export async function readCluster(
  client: XcatClient,
  alsoAttributes: Iterable<string> = [],
): Promise<ClusterRead> {
  const rows = await client.tables.getAllRows(tablesFor([...VIEW_ATTRIBUTES, ...alsoAttributes]));
  const nodes = nodeNames(rows);
  const power = new Map<string, string>();
  let powerProblem: string | undefined;
  if (nodes.length > 0) {
    try {
      for (const [node, state] of Object.entries(await client.nodes.getPower(compressNoderange(nodes)))) {
        power.set(node, state);
      }
    } catch (error) {
      powerProblem = `the power read failed: ${(error as Error).message}`;
    }
  }
  return { nodes, facts: new ClusterFacts(rows), power, ...(powerProblem ? { powerProblem } : {}) };
}
