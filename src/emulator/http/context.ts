/**
 * What a handler gets for one request, and what it returns. Handlers do the CGI's own checks
 * first (404 Missed Action, 400 Lack of operation data...), then call `authorize`, which is where
 * xcatd would check credentials and policy, so the order of errors is the real one (§8.1).
 */
import { invalidNoderange, NO_NODES_IN_NODERANGE } from "../../contract/messages";
import { expandNoderange } from "../../contract/noderange";
import { CommandError } from "../store/errors";
import type { XcatStore } from "../store/store";
import type { GeneralParam } from "./request-params";

/**
 * A successful result: no body (S0), a JSON value that xcoll may regroup, or text a plugin
 * encoded itself, which the CGI passes through whatever `pretty` says (localresout, xcatws.cgi:1828-1838).
 */
export type Output =
  | { readonly kind: "empty" }
  | { readonly kind: "json"; readonly value: unknown; readonly xcollable: boolean }
  | { readonly kind: "text"; readonly text: string };

export const empty = (): Output => ({ kind: "empty" });
export const json = (value: unknown, xcollable = true): Output => ({ kind: "json", value, xcollable });
export const text = (body: string): Output => ({ kind: "text", text: body });

/** The xcatd request a handler made, for debug output. */
export interface CommandRecord {
  readonly command: string;
  readonly noderange?: string;
  readonly args: readonly string[];
}

export interface AuthorizeOptions {
  readonly noderange?: string;
  readonly args?: readonly string[];
  /** Replaces the 401 of failed credentials, for the table GETs that report it as 403 (§3.2). */
  readonly failure?: () => Error;
  /** POST /tokens: credentials are checked but the policy table is not consulted (§4.2). */
  readonly skipPolicy?: boolean;
}

export interface HandlerContext {
  readonly method: string;
  /** Path below /xcatws after the trailing-slash rule. */
  readonly path: string;
  /** Path parameters by the names used in routes.ts ({noderange}, {attrs}, ...). */
  readonly pathParams: Readonly<Record<string, string>>;
  readonly params: ReadonlyMap<string, unknown>;
  readonly general: Partial<Record<GeneralParam, string>>;
  readonly store: XcatStore;
  /** Checks credentials and policy for a command; returns the user. Throws on failure. */
  authorize(command: string, options?: AuthorizeOptions): string;
  /** The last command authorized (debug output). */
  readonly commands: CommandRecord[];
}

/** The string value of a body key or query param, undefined when absent or an array/object. */
export function stringParam(ctx: HandlerContext, key: string): string | undefined {
  const value = ctx.params.get(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value === "object") return undefined;
  return String(value);
}

/** A noderange as lsdef/chdef/rmdef take it: expanded, unknown names kept (§1.3). */
export function definitionNames(ctx: HandlerContext, noderange: string): string[] {
  return expandNoderange(noderange, ctx.store.noderange);
}

/** A noderange as xcatd verifies it for action commands: every name must be a node or group. */
export function verifiedNodes(ctx: HandlerContext, noderange: string): string[] {
  const names = expandNoderange(noderange, ctx.store.noderange);
  const unknown = names.filter((n) => !ctx.store.index.isNode(n));
  if (unknown.length > 0) throw new CommandError([invalidNoderange(unknown)]);
  if (names.length === 0) throw new CommandError([NO_NODES_IN_NODERANGE]);
  return names;
}
