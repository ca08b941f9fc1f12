/**
 * Node resources that run commands on or for nodes: host, dns, dhcp, updating, filesyncing, sw,
 * postscript, nodeshell, nodecopy, nodels (xcat-behavior.md §1.2, infoout in §2.3).
 */
import { empty, type HandlerContext, json, type Output, verifiedNodes } from "../http/context";
import { internalServerError, lackOfOperationData } from "../http/errors";
import { perlString } from "../http/operands";
import { CommandError } from "../store/errors";
import type { NodeLines } from "../store/remote-commands";

function noderange(ctx: HandlerContext): string {
  return ctx.pathParams.noderange ?? "";
}

function onNodes<T>(ctx: HandlerContext, command: string, args: string[], fn: (nodes: string[]) => T): T {
  ctx.authorize(command, { noderange: noderange(ctx), args });
  return fn(verifiedNodes(ctx, noderange(ctx)));
}

/** infoout for nodeshell/postscript/sw: `{node: [" line", ...]}`; no lines at all is `null`. */
function grouped(lines: NodeLines): Output {
  const out: Record<string, string[]> = {};
  for (const [node, nodeLines] of lines) {
    const kept = nodeLines.filter((l) => l.trim() !== "");
    if (kept.length > 0) out[node] = kept;
  }
  return json(Object.keys(out).length > 0 ? out : null);
}

/** infoout for updating/filesyncing: the flat list of `node: text` lines. */
function flat(lines: NodeLines): Output {
  const out: string[] = [];
  for (const [node, nodeLines] of lines) for (const l of nodeLines) out.push(`${node}:${l}`);
  return out.length > 0 ? json(out) : empty();
}

export function makeHosts(ctx: HandlerContext): Output {
  onNodes(ctx, "makehosts", [], (nodes) => ctx.store.services.makehosts(nodes));
  return empty();
}

export function makeDns(ctx: HandlerContext): Output {
  onNodes(ctx, "makedns", [], (nodes) => ctx.store.services.makedns(nodes));
  return empty();
}

export function removeDns(ctx: HandlerContext): Output {
  onNodes(ctx, "makedns", ["-d"], (nodes) => ctx.store.services.makedns(nodes, true));
  return empty();
}

export function makeDhcp(ctx: HandlerContext): Output {
  onNodes(ctx, "makedhcp", [], (nodes) => ctx.store.services.makedhcp(nodes));
  return empty();
}

export function removeDhcp(ctx: HandlerContext): Output {
  onNodes(ctx, "makedhcp", ["-d"], (nodes) => ctx.store.services.makedhcp(nodes, true));
  return empty();
}

export function updating(ctx: HandlerContext): Output {
  return flat(onNodes(ctx, "updatenode", [], (nodes) => ctx.store.remote.update(nodes, "all")));
}

export function filesyncing(ctx: HandlerContext): Output {
  return flat(onNodes(ctx, "updatenode", ["-F"], (nodes) => ctx.store.remote.update(nodes, "files")));
}

export function software(ctx: HandlerContext): Output {
  return grouped(onNodes(ctx, "updatenode", ["-S"], (nodes) => ctx.store.remote.update(nodes, "software")));
}

/** updatenode -P a,b: `scripts` must be an array, or the Perl script dies (500). */
export function postscript(ctx: HandlerContext): Output {
  const scripts = ctx.params.get("scripts");
  if (!Array.isArray(scripts)) throw internalServerError();
  const names = scripts.map(perlString);
  return grouped(
    onNodes(ctx, "updatenode", ["-P", names.join(",")], (nodes) =>
      ctx.store.remote.update(nodes, "scripts", names),
    ),
  );
}

function commandText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return Array.isArray(value) ? value.map(perlString).join(";") : perlString(value);
}

/** xdsh: `command` and `raw` (arrays joined with ';' or strings), `ENV` as K=V (§1.2). */
export function nodeshell(ctx: HandlerContext): Output {
  const command = [commandText(ctx.params.get("command")), commandText(ctx.params.get("raw"))]
    .filter((c): c is string => c !== undefined && c !== "")
    .join(";");
  if (ctx.params.size === 0) throw lackOfOperationData();
  const env = new Map<string, string>();
  const envParam = ctx.params.get("ENV");
  if (envParam && typeof envParam === "object" && !Array.isArray(envParam)) {
    for (const [k, v] of Object.entries(envParam as Record<string, unknown>)) env.set(k, perlString(v));
  }
  return grouped(onNodes(ctx, "xdsh", [command], (nodes) => ctx.store.remote.shell(nodes, command, env)));
}

/**
 * xdcp <src...> <target>: `src` must be an array (500 otherwise). With neither `src` nor `target`
 * the CGI sends xdcp no arguments (xcatws.cgi master:2267-2273) and xdsh.pm's preprocess dies
 * dereferencing them (xdsh.pm:294 at 2.16.5 to master); xcatd reports the death with the request's
 * nodes (xcatd master:2105-2117), as the real 2.19 answered.
 */
export function nodecopy(ctx: HandlerContext): Output {
  const src = ctx.params.get("src");
  if (src === undefined && ctx.params.get("target") === undefined) {
    onNodes(ctx, "xdcp", [], (nodes) => {
      throw new CommandError([
        `xdsh: Can't use an undefined value as an ARRAY reference at /opt/xcat/lib/perl/xCAT_plugin/xdsh.pm line 294. [nodes: ${nodes.join(",")}]`,
      ]);
    });
  }
  if (!Array.isArray(src)) throw internalServerError();
  const sources = src.map(perlString);
  const target = perlString(ctx.params.get("target") ?? "");
  onNodes(ctx, "xdcp", [...sources, target], (nodes) => ctx.store.remote.copy(nodes, sources, target));
  return empty();
}

/** nodels: the node names of the range, sorted. */
export function nodels(ctx: HandlerContext): Output {
  return json(onNodes(ctx, "nodels", [], (nodes) => nodes));
}
