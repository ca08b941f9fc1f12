/**
 * The listing reads drift makes on a management node besides the refresh: five requests (and a
 * token), however many objects it holds: the node, OS image and network names (`GET /nodes`,
 * `/osimages`, `/networks`), and every group and policy row with its attributes (`GET
 * /groups/ALLRESOURCES`, `/policy/ALLRESOURCES`), which drift needs to leave out the groups that
 * are only names and the policy rows xcatconfig creates.
 */
import type { XcatClient } from "../../client";
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
