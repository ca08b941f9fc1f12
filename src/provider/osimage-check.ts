/**
 * Whether an OS image named by a resource exists, for preview: one `lsdef -t osimage` listing per
 * management node and provider process, shared by every resource that names an image, so N
 * Deployments cost one read (plus one for each name not in the listing, to be sure before failing).
 */
import { isNotFound, type XcatClient } from "../client";
import { editDistance } from "./edit-distance";
import { isPlanned } from "./planned-objects";

const listings = new WeakMap<XcatClient, Promise<Set<string>>>();

function listing(client: XcatClient): Promise<Set<string>> {
  let names = listings.get(client);
  if (!names) {
    names = client.osimages.list().then((list) => new Set(list));
    // A failed listing is not kept: the next check asks again.
    names.catch(() => listings.delete(client));
    listings.set(client, names);
  }
  return names;
}

/** The existing name closest to `name` (a misspelling), if one is close enough to be meant. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(3, Math.ceil(name.length / 4)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Why `osimage` cannot be deployed, or `undefined` when xCAT has it or the program creates it
 * (an xcat.Osimage of that name checked in this run). Reads only.
 */
export async function missingOsimageProblem(
  client: XcatClient,
  osimage: string,
): Promise<string | undefined> {
  if (isPlanned("xcat:Osimage", osimage)) return undefined;
  const names = await listing(client);
  if (names.has(osimage)) return undefined;
  try {
    // Defined since the listing (by hand, or copycds during this run): not a misspelling.
    await client.osimages.get(osimage);
    names.add(osimage);
    return undefined;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const closest = closestName(osimage, names);
  return (
    `xCAT has no OS image '${osimage}' (lsdef -t osimage)` +
    (closest ? `; the closest existing image is '${closest}'` : `; it has ${names.size} image(s)`) +
    ". If this program defines the image, pass the Osimage's name (osimage: image.name) so that it is defined first."
  );
}
