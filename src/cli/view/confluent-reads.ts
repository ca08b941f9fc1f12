/**
 * What the view reads of a Confluent server per tick, batched for the whole cluster as on xCAT:
 * two requests however many nodes it holds (the first tick of a session opens it with Basic
 * authentication on the first request itself; real-confluent.md item 6).
 *
 * 1. `GET /noderange/everything/attributes/current`: every node's attributes, inherited ones
 *    marked with their group, in one answer (`everything` holds every node: configmanager.py
 *    3.15.6 lines 1400-1416; the read `nodedeploy <noderange>` makes, confluent_client/bin/
 *    nodedeploy 175-182);
 * 2. `GET /noderange/everything/power/state`: each node's power; a node whose BMC fails has its
 *    own `{"error": …}` in the 200 answer (item 14), shown on that node as its power problem.
 * A failed power read leaves power unknown with the reason; the drawing still comes.
 */
import type { ConfluentClient } from "../../client/confluent";
import { CONFLUENT_EVERYTHING_GROUP } from "../../contract/confluent/xcat-attribute-map";
import type { ConfluentClusterRead, ConfluentNodeAttributes } from "./confluent-nodes";

export async function readConfluentCluster(client: ConfluentClient): Promise<ConfluentClusterRead> {
  const attributes: ReadonlyMap<string, ConfluentNodeAttributes> = await client.nodes.getMany([
    CONFLUENT_EVERYTHING_GROUP,
  ]);
  const power = new Map<string, string>();
  const nodePowerProblems = new Map<string, string>();
  let powerProblem: string | undefined;
  if (attributes.size > 0) {
    try {
      for (const [node, result] of await client.nodes.getPower([CONFLUENT_EVERYTHING_GROUP])) {
        if ("value" in result) power.set(node, result.value);
        else nodePowerProblems.set(node, `Confluent's power read for the node failed: ${result.error}`);
      }
    } catch (error) {
      powerProblem = `the power read failed: ${(error as Error).message}`;
    }
  }
  return { attributes, power, nodePowerProblems, ...(powerProblem ? { powerProblem } : {}) };
}
