/**
 * The listing reads drift makes on a management node besides the refresh.
 *
 * xCAT: five requests (and a token), however many objects it holds: the node, OS image and
 * network names (`GET /nodes`, `/osimages`, `/networks`), and every group and policy row with its
 * attributes (`GET /groups/ALLRESOURCES`, `/policy/ALLRESOURCES`), which drift needs to leave out
 * the groups that are only names and the policy rows xcatconfig creates.
 *
 * Confluent: one request, the nodes of its group of every node (`GET
 * /noderange/everything/nodes/`; `everything`: configmanager.py 3.15.6 lines 1400-1416). Confluent
 * has no OS image, network or policy objects of xCAT's kind, and its groups are not listed (a
 * Confluent group is a name nodes carry as much as an object), so only nodes are compared there.
 */
import { XcatClient } from "../../client";
import { ConfluentClient } from "../../client/confluent";
import {
  clientOptionsFor,
  confluentClientOptionsOf,
  ProviderConfigError,
  type ProviderSettings,
} from "../../provider/config";
import type { Listing } from "./unmanaged";

export async function readListing(client: XcatClient): Promise<Listing> {
  const [nodes, groups, osimages, networks, policies] = await Promise.all([
    client.nodes.list(),
    client.groups.getMany("ALLRESOURCES"),
    client.osimages.list(),
    client.networks.list(),
    client.policy.getMany("ALLRESOURCES"),
  ]);
  return { nodes, groups, osimages, networks, policies };
}

/** What a Confluent server holds that drift compares: its nodes. */
export async function readConfluentListing(client: ConfluentClient): Promise<Listing> {
  const nodes = await client.nodes.list("everything");
  return { nodes, groups: new Map(), osimages: [], networks: [], policies: new Map() };
}

/** A client for the Confluent server `settings` reach (their backend is `confluent`). */
export function confluentClientFor(settings: ProviderSettings): ConfluentClient {
  const connection = settings.connection;
  if (!connection?.username || !connection.password) {
    throw new ProviderConfigError(
      `no credentials for ${connection?.url ?? "the Confluent server"}: Confluent takes a user and password.`,
    );
  }
  return new ConfluentClient({
    ...confluentClientOptionsOf(connection, connection.username, connection.password, settings.urlAsGiven),
    ...(settings.requestTimeoutMs !== undefined ? { requestTimeoutMs: settings.requestTimeoutMs } : {}),
  });
}

/** Lists the management node `settings` reach, by their backend (xCAT unless `confluent`). */
export async function listManagementNode(settings: ProviderSettings): Promise<Listing> {
  const connection = settings.connection;
  if (connection?.backend === "confluent") {
    const client = confluentClientFor(settings);
    try {
      return await readConfluentListing(client);
    } finally {
      await client.close();
    }
  }
  const client = new XcatClient({ ...clientOptionsFor(connection, settings), batching: settings.batching });
  try {
    return await readListing(client);
  } finally {
    await client.close();
  }
}
