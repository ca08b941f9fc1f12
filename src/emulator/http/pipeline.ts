/**
 * One request through xcatws.cgi's pipeline, in its order (xcat-behavior.md §1.1, §8.1): body
 * parsing (400) → debug → trailing slash → root list → unknown group (404) → route and method
 * (404/405) → handler checks → credentials and policy (401) → command errors (403) → 201 for any
 * POST, 200 otherwise. Transport concerns (sockets, TLS, faults) live in server.ts.
 */

import { RESOURCE_GROUPS, XCAT_CONTENT_TYPE } from "../../contract/envelope";
import { AUTHENTICATION_FAILURE, methodNotSupported } from "../../contract/messages";
import { expandNoderange } from "../../contract/noderange";
import type { RequestWork } from "../cost/request-cost";
import { CommandError } from "../store/errors";
import type { XcatStore } from "../store/store";
import type { AuthorizeOptions, CommandRecord, HandlerContext, Output } from "./context";
import { ApacheError, apachePage, authenticationFailure, unsupportedResource, WebError } from "./errors";
import { dataDumper, perlTrue, renderJson, xcoll, xmlEscape } from "./render";
import { type JsonDecoder, parseParams, type RequestParams } from "./request-params";
import { matchRoute } from "./router";

export interface PipelineRequest {
  readonly method: string;
  /** Decoded path below the /xcatws prefix ("" or starting with "/"). */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly contentType: string;
  readonly token: string | undefined;
  readonly body: string;
  /** The Perl JSON module the emulated CGI decodes bodies with (default JSON::XS). */
  readonly jsonDecoder?: JsonDecoder;
}

export interface PipelineResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  /** `METHOD /route/{pattern}` for stats. */
  readonly routeKey: string;
  /** What the request made xCAT do, for the cost model. */
  readonly work: RequestWork;
}

function authErrorText(messages: readonly string[]): boolean {
  return messages.some((m) => m.includes("Permission denied") || m.includes(AUTHENTICATION_FAILURE));
}

function debugBlock(req: PipelineRequest, params: RequestParams): string {
  return [
    `<p>DEBUG: generalparams:${dataDumper(params.general)}</p>`,
    `<p>DEBUG: paramhash:${dataDumper(Object.fromEntries(params.params))}</p>`,
    `<p>DEBUG: q->request_method: ${req.method}\n</p>`,
    `<p>DEBUG: pathInfo: ${req.path}\n</p>`,
    "\n",
  ].join("");
}

function commandXml(record: CommandRecord, req: PipelineRequest, params: RequestParams): string {
  const parts = ["<xcatrequest>"];
  if (params.general.userName !== undefined || params.general.userPW !== undefined) {
    parts.push(
      `<becomeuser><username>${xmlEscape(params.general.userName ?? "")}</username><password>${xmlEscape(
        params.general.userPW ?? "",
      )}</password></becomeuser>`,
    );
  }
  parts.push(`<command>${xmlEscape(record.command)}</command>`);
  if (record.noderange !== undefined) parts.push(`<noderange>${xmlEscape(record.noderange)}</noderange>`);
  for (const arg of record.args) parts.push(`<arg>${xmlEscape(arg)}</arg>`);
  if (req.token !== undefined) parts.push(`<tokens><tokenid>${xmlEscape(req.token)}</tokenid></tokens>`);
  parts.push("</xcatrequest>");
  return `<p>DEBUG: request xml=${parts.join("")}\n</p><p>DEBUG: response xml=<xcatresponse><serverdone></serverdone></xcatresponse>\n</p>`;
}

/** Handles one request against the store. Never throws for request problems. */
export function runPipeline(store: XcatStore, req: PipelineRequest): PipelineResponse {
  let routeKey = `${req.method} (unsupported)`;
  let work: RequestWork = {
    method: req.method,
    route: undefined,
    named: 0,
    listed: 0,
    returned: 0,
    attributes: undefined,
    succeeded: false,
  };
  const respond = (status: number, body: string, contentType = XCAT_CONTENT_TYPE): PipelineResponse => ({
    status,
    body,
    contentType,
    routeKey,
    work,
  });

  // 1. Body first: a bad body is 400 whatever the path, compact, before pretty is known.
  let params: RequestParams;
  try {
    params = parseParams(req.method, req.contentType, req.body, req.query, req.jsonDecoder);
  } catch (error) {
    if (error instanceof WebError) {
      return respond(error.status, renderJson({ error: error.message, errorcode: error.errorcode }, false));
    }
    throw error;
  }

  // 2. debug: HTML paragraphs ahead of whatever follows; debug=3 stops here without xcatd.
  const debug = perlTrue(params.general.debug) ? debugBlock(req, params) : "";
  if (params.general.debug === "3") return respond(200, debug);

  // 3. One trailing slash goes; pretty takes effect from here on.
  const path = req.path.endsWith("/") ? req.path.slice(0, -1) : req.path;
  const pretty = perlTrue(params.general.pretty);
  const emit = (status: number, value: unknown, extra = ""): PipelineResponse =>
    respond(status, debug + extra + renderJson(value, pretty));

  // 4. The root lists the resource groups, for any method and without authentication.
  if (path === "") {
    routeKey = `${req.method} /`;
    return emit(200, RESOURCE_GROUPS);
  }
  const group = path.split("/")[1] ?? "";
  if (!(RESOURCE_GROUPS as readonly string[]).includes(group)) {
    const e = unsupportedResource();
    return emit(e.status, { error: e.message, errorcode: e.errorcode });
  }

  const match = matchRoute(req.method, path);
  if (match.kind === "none") {
    const e = unsupportedResource();
    return emit(e.status, { error: e.message, errorcode: e.errorcode });
  }
  if (match.kind === "method") {
    routeKey = `${req.method} ${match.route.spec.path}`;
    return emit(405, { error: methodNotSupported(req.method, path), errorcode: "2" });
  }
  routeKey = `${req.method} ${match.route.spec.path}`;

  const commands: CommandRecord[] = [];
  const ctx: HandlerContext = {
    method: req.method,
    path,
    pathParams: match.pathParams,
    params: params.params,
    general: params.general,
    store,
    commands,
    authorize(command: string, options: AuthorizeOptions = {}) {
      commands.push({
        command,
        args: options.args ?? [],
        ...(options.noderange !== undefined ? { noderange: options.noderange } : {}),
      });
      const fail = (): never => {
        throw options.failure ? options.failure() : authenticationFailure();
      };
      const { userName, userPW } = params.general;
      const hasCredentials = userName !== undefined || userPW !== undefined;
      let user: string | undefined;
      if (hasCredentials) {
        if (!store.accounts.checkPassword(userName, userPW)) fail();
        user = userName;
      }
      if (command === "gettoken") return user ?? fail();
      if (req.token !== undefined) {
        // With both, both must be valid and the token's user wins (§4.1).
        user = store.accounts.verifyToken(req.token) ?? fail();
      }
      if (user === undefined) return fail();
      if (!options.skipPolicy && !store.accounts.isAllowed(user, command, (options.args ?? []).join(" ")))
        fail();
      return user;
    },
  };

  let output: Output;
  work = requestWork(store, req.method, match.route.spec.path, match.pathParams, undefined);
  try {
    store.tick();
    output = match.route.handler(ctx);
  } catch (error) {
    const trace = debug ? commands.map((c) => commandXml(c, req, params)).join("") : "";
    if (error instanceof WebError) {
      work = { ...work, succeeded: false };
      return emit(error.status, { error: error.message, errorcode: error.errorcode }, trace);
    }
    if (error instanceof CommandError) {
      if (authErrorText(error.messages) && !error.messages.every((m) => m === AUTHENTICATION_FAILURE)) {
        return emit(401, { error: AUTHENTICATION_FAILURE, errorcode: "2" }, trace);
      }
      return emit(403, { error: [...error.messages], errorcode: error.errorcode }, trace);
    }
    if (error instanceof ApacheError) {
      return respond(error.status, apachePage(error.status), "text/html; charset=iso-8859-1");
    }
    throw error;
  }
  work = requestWork(store, req.method, match.route.spec.path, match.pathParams, output);
  const trace = debug ? commands.map((c) => commandXml(c, req, params)).join("") : "";
  const status = req.method === "POST" ? 201 : 200;
  if (output.kind === "empty") return respond(status, debug + trace);
  // sendResponseMsg adds a newline to any content (xcatws.cgi:3318).
  if (output.kind === "text") return respond(status, `${debug}${trace}${output.text}\n`);
  const value = output.xcollable && perlTrue(params.general.xcoll) ? xcoll(output.value) : output.value;
  return emit(status, value, trace);
}

/** Path parameters that name the objects of a request (see routes.ts). */
const NAME_PARAMS = ["noderange", "imgname", "netname", "policy_priority", "groupname"];

/** What a routed request asks xCAT to do, for the cost model: objects named, objects answered. */
function requestWork(
  store: XcatStore,
  method: string,
  route: string,
  pathParams: Readonly<Record<string, string>>,
  output: Output | undefined,
): RequestWork {
  let named = 0;
  let listed = 0;
  for (const param of NAME_PARAMS) {
    const value = pathParams[param];
    if (value === undefined || value === "ALLRESOURCES" || value === "ALLNODES") continue;
    listed += value.split(",").length;
    if (param !== "noderange") named += value.split(",").length;
    else {
      try {
        named += expandNoderange(value, store.noderange).length;
      } catch {
        named += 1;
      }
    }
  }
  const attrs = pathParams.attrs;
  return {
    method,
    route,
    named,
    listed,
    returned: output === undefined ? 0 : answeredObjects(route, output),
    attributes: attrs === undefined || !route.includes("/attrs/") ? undefined : attrs.split(/[,;]/).length,
    succeeded: true,
  };
}

function answeredObjects(route: string, output: Output): number {
  if (output.kind !== "json") return 0;
  const value = output.value;
  if (Array.isArray(value)) return value.length;
  if (typeof value !== "object" || value === null) return 0;
  if (!route.startsWith("/tables/")) return Object.keys(value).length;
  return Object.values(value).reduce<number>(
    (rows, table) => rows + (Array.isArray(table) ? table.length : 0),
    0,
  );
}
