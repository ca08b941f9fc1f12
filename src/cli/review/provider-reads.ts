/**
 * What review reads of the management nodes of a stack's explicit `pulumi:providers:xcat` (a
 * YAML, Python or Go stack with several management nodes): for each provider a plan needs
 * values of (plan-summary.ts providerReadsNeeded), one table read, as for the stack's own
 * (cluster-reads.ts), with the account its arguments hold in the state (provider-settings.ts).
 * A Confluent provider is not read (its values are not xCAT tables): its objects say "not read".
 */
import { XcatClient } from "../../client";
import { clientOptionsFor } from "../../provider/config";
import { explicitProviderSettings, exportStack } from "../provider-settings";
import type { ClusterFacts } from "./cluster-facts";
import { readClusterFacts, stackOf } from "./cluster-reads";
import type { ClusterReads } from "./plan-summary";

export async function readProviderFacts(
  preview: unknown,
  needed: ReadonlyMap<string, ClusterReads>,
): Promise<Map<string, ClusterFacts>> {
  const stack = stackOf(preview);
  if (stack === undefined) throw new Error("the preview names no stack");
  const settings = explicitProviderSettings(await exportStack(stack));
  const facts = new Map<string, ClusterFacts>();
  for (const [urn, reads] of needed) {
    const found = settings.get(urn);
    // A provider the plan creates is not in the state yet: its values are said to be not read.
    if (found === undefined || found.connection?.backend === "confluent") continue;
    const client = new XcatClient({ ...clientOptionsFor(found.connection, found), batching: found.batching });
    try {
      facts.set(urn, await readClusterFacts(client, reads.attributes));
    } finally {
      await client.close();
    }
  }
  return facts;
}
