/**
 * One resource per xCAT object in a program. Two resources that name the same object (same kind,
 * same management node, same name) would both manage it: their attributes fight, and deleting
 * either deletes the object under the other. The program is refused when it runs, before the
 * engine sends anything, naming both resources.
 *
 * The registry is per process: a Pulumi program runs in one process, and the resource classes
 * run in it.
 */
import * as pulumi from "@pulumi/pulumi";
import { normalizeBaseUrl } from "../../client/base-url";
import type { ConnectionArgs } from "./common";

/** Pulumi name of the first resource that claimed each (kind, management node, name). */
const claims = new Map<string, string>();

/**
 * The management node a resource talks to: its own connection's URL, else the stack's `xcat:url`,
 * else `XCAT_URL`, normalised so that `https://mn` and `https://mn/xcatws/` are the same node.
 */
function managementNode(connectionUrl: unknown): string {
  const url =
    typeof connectionUrl === "string" && connectionUrl !== ""
      ? connectionUrl
      : (new pulumi.Config("xcat").get("url") ?? process.env.XCAT_URL ?? "");
  try {
    return normalizeBaseUrl(url).href;
  } catch {
    return url; // an invalid URL is reported by the provider; here it only has to compare
  }
}

/**
 * Records that `resource` manages the `kind` object named `objectName`; fails the program with a
 * message naming both resources when another resource of the program already claims it. Names
 * that are unknown (preview of a name computed by another resource) are checked when known.
 *
 * @example
 * ```ts
 * claimObject(this, "xcat:Node", "cn001", "node", args.name ?? name, args.connection);
 * ```
 */
export function claimObject(
  resource: pulumi.Resource,
  type: string,
  resourceName: string,
  kind: string,
  objectName: pulumi.Input<string> | undefined,
  connection: pulumi.Input<ConnectionArgs> | undefined,
): void {
  const claim = (name: unknown, connectionUrl: unknown): void => {
    // Not a usable name: check() reports it, naming the field.
    if (typeof name !== "string" || name === "") return;
    const node = managementNode(connectionUrl);
    const key = JSON.stringify([kind, node, name]);
    const first = claims.get(key);
    if (first === undefined) {
      claims.set(key, resourceName);
      return;
    }
    throw new pulumi.ResourceError(
      `${type} resources '${first}' and '${resourceName}' both manage the ${kind} '${name}' on ${node}. ` +
        "Two resources for one xCAT object overwrite each other's values, and deleting either deletes " +
        "the object. Keep one of them, or give each its own name. Nothing was sent to xCAT.",
      resource,
      true,
    );
  };
  // Usually the name and the connection are plain values: claim now, without the outputs (and
  // their promises) that waiting for them costs every resource of a large program.
  const plainUrl = connection === undefined ? undefined : plainValue(plainValue(connection)?.url);
  if (typeof objectName === "string" && (connection === undefined || typeof plainUrl === "string")) {
    try {
      claim(objectName, plainUrl);
    } catch (error) {
      // Reported as a failed apply, the same way as a claim on values known later.
      pulumi.output(undefined).apply(() => {
        throw error;
      });
    }
    return;
  }
  const url = pulumi.output(connection).apply((value) => (value as ConnectionArgs | undefined)?.url);
  pulumi.all([objectName, url]).apply(([name, connectionUrl]) => claim(name, connectionUrl));
}

/** A value given as itself (not an Output or a promise), or undefined. */
function plainValue<T>(value: pulumi.Input<T> | undefined): T | undefined {
  if (value === undefined || pulumi.Output.isInstance(value)) return undefined;
  if (typeof (value as { then?: unknown }).then === "function") return undefined;
  return value as T;
}
