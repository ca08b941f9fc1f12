/**
 * A node's values as the node holds them, where lsdef reports more (contract/node-inheritance.ts
 * has the rules and their xCAT sources):
 *
 * - Compared with the program: a node's postscripts/postbootscripts without the xcatdefaults
 *   scripts lsdef puts in front (`default,own`, DBobjUtils.pm ~3845-3885). A program declares
 *   the node's own scripts; compared with lsdef's whole value they never matched, and declaring
 *   the whole value gave a copied node the defaults twice.
 * - Taken by `Resource.get` / `pulumi import`: only what the node does not inherit from its
 *   groups, xCAT's defaults or its image (nodeset's os/arch/profile), so the snippet
 *   `pulumi import` prints pins none of those on the node. Nor the node's provmethod when the
 *   node booted an image the server has: nodeset wrote it (destiny.pm:294-319), and a Node that
 *   pinned it would fight a later Deployment of a new image (issue #36 item 5). A read by id
 *   cannot declare the Deployment that takes it over, so it says so in a line under the resource.
 *
 * The xcatdefaults row is read once per client (one request, only when a resource manages
 * scripts or a node is imported), by the path a real xcatd answers (docs/xcat-behavior-found.md
 * §1: a keyed read naming its columns).
 */
import type { XcatClient } from "../client";
import { isNotFound } from "../client/errors";
import {
  DEFAULTED_SCRIPTS,
  declaredAttributes,
  ownAttributes,
  splitGroups,
  withoutDefaultScripts,
  XCATDEFAULTS,
} from "../contract/node-inheritance";
import { sayLine } from "./provider-lines";

type Attributes = Record<string, string>;

const defaultsByClient = new WeakMap<XcatClient, Promise<Attributes>>();

/** The xcatdefaults row's postscripts and postbootscripts (empty when the row is absent). */
export function defaultScripts(client: XcatClient): Promise<Attributes> {
  let read = defaultsByClient.get(client);
  if (!read) {
    read = client.tables
      .getRows("postscripts", { node: XCATDEFAULTS }, [...DEFAULTED_SCRIPTS])
      .then(([row]) => {
        const values: Attributes = {};
        for (const column of DEFAULTED_SCRIPTS) if (row?.[column]) values[column] = row[column];
        return values;
      });
    // A failed read is not kept: the next resource asks again.
    read.catch(() => defaultsByClient.delete(client));
    defaultsByClient.set(client, read);
  }
  return read;
}

/** `reported` with the managed scripts as the node holds them (without xCAT's defaults in front). */
export async function nodeOwnReported(
  client: XcatClient,
  reported: Attributes,
  managed: readonly string[],
): Promise<Attributes> {
  const scripts = DEFAULTED_SCRIPTS.filter((name) => managed.includes(name) && reported[name] !== undefined);
  if (scripts.length === 0) return reported;
  const defaults = await defaultScripts(client);
  const own = { ...reported };
  for (const name of scripts) own[name] = withoutDefaultScripts(reported[name] ?? "", defaults[name]);
  return own;
}

/** What a node declares itself: its groups and the values it does not inherit (see above). */
export async function nodeImportedAttributes(
  client: XcatClient,
  name: string,
  reported: Attributes,
): Promise<Attributes> {
  const groups = new Map<string, Attributes>();
  for (const group of splitGroups(reported.groups)) {
    // A group that only nodes name has no definition to read (xcat-behavior.md §5.2).
    const attributes = await getIfExists(() => client.groups.get(group));
    if (attributes) groups.set(group, declaredAttributes(attributes));
  }
  const images = new Map<string, Attributes>();
  const image = reported.provmethod;
  if (image !== undefined && image !== "") {
    const attributes = await getIfExists(() => client.osimages.get(image));
    if (attributes) images.set(image, attributes);
  }
  const own = ownAttributes(name, reported, { groups, defaults: await defaultScripts(client), images });
  if (image !== undefined && images.has(image) && own.provmethod === image && reported.status === "booted") {
    delete own.provmethod;
    sayLine(
      `xcat:Node ${name}: provmethod ${image} left out of the import: nodeset wrote it and the node booted ` +
        `it. To manage the node's image, declare an xcat.Deployment of ${image} over it with adopt: true ` +
        "(pulumi-xcat import writes one); it takes the node over without deploying it again.",
    );
  }
  return { ...(reported.groups !== undefined ? { groups: reported.groups } : {}), ...own };
}

async function getIfExists(read: () => Promise<Attributes>): Promise<Attributes | undefined> {
  try {
    return await read();
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
