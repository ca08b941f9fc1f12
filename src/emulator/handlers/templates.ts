/**
 * GET /templates/node and /templates/node/all (xcatws.cgi:1289-1316): lsdef with the request's
 * `options` (`-a` added for /all, defhdl xcatws.cgi:2037-2104), its lines shaped by the CGI's
 * output handlers: defout (:1621-1683) for /templates/node, defout_remove_appended_type
 * (:1700-1719) for /all. Body keys other than `options` are not emulated (the CGI would pass them
 * to lsdef as `attr=value` operands, which lsdef reads as a noderange).
 */

import { empty, type HandlerContext, json, type Output } from "../http/context";
import { WebError } from "../http/errors";
import { toOperands } from "../http/operands";
import { lsdefTemplateLines } from "../store/template-listing";

/** The handler for /templates/node (`all` false) or /templates/node/all (`all` true). */
export function nodeTemplates(all: boolean) {
  return (ctx: HandlerContext): Output => {
    const { options } = toOperands(ctx.params);
    const args = all ? ["-a", ...options] : [...options];
    ctx.authorize("lsdef", { args });
    const at = options.indexOf("--template");
    const next = at >= 0 ? options[at + 1] : undefined;
    const template = at < 0 ? undefined : next !== undefined && !next.startsWith("-") ? next : "";
    const lines = lsdefTemplateLines({ all, template }, (type) => {
      const names = ctx.store.definitions.list(type);
      return names.length === 1 && names[0]?.startsWith("Could not find") ? [] : names;
    });
    return all ? namesOnly(lines) : objectsOf(lines);
  };
}

/** defout: `Object name:` blocks to `{name: {attr: value}}`; anything else malformed is a 418. */
function objectsOf(lines: readonly string[]): Output {
  let value: Record<string, Record<string, string>> | { info: string } | undefined;
  let name: string | undefined;
  for (const line of lines) {
    if (/Could not find any object definitions/.test(line)) {
      value = { info: line };
      break;
    }
    const header = /^Object name:\s+(\S+)/.exec(line) ?? /^(\S+):$/.exec(line);
    if (header) {
      name = header[1];
      continue;
    }
    const pair = /^\s*(\S+?)=(.*)$/.exec(line);
    if (!name || !pair) throw new WebError(418, "improperly formatted lsdef output from xcatd");
    const objects = (value ?? {}) as Record<string, Record<string, string>>;
    objects[name] = { ...objects[name], [pair[1] ?? ""]: pair[2] ?? "" };
    value = objects;
  }
  return value ? json(value) : empty();
}

/** defout_remove_appended_type: the names of `name (type)` lines. */
function namesOnly(lines: readonly string[]): Output {
  const names: string[] = [];
  for (const line of lines) {
    const typed = /^(\S*)\s+\(.*\)$/.exec(line);
    if (typed) names.push(typed[1] ?? "");
    else if (/Could not find any object definitions/.test(line)) {
      names.push(line);
      break;
    }
  }
  return names.length > 0 ? json(names) : empty();
}
