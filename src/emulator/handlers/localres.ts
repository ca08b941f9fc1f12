/**
 * GET /localres/... (xcatws.cgi:1271-1287): the CGI hands the path to xcatd's localrest plugin as
 * `<verb> <layers...>` (localreshdl, :2415-2445: `show` when the path ends in /detail,
 * `download` for /file, else `list`), and the plugin calls its sub `<verb>_<resource>`
 * (localrest.pm:74-130). It has two: list_adapters (the MN's interfaces, from
 * EmulatorOptions.mnInterfaces here) and download_credential (conserver's credential files, which
 * the emulated MN does not have). Any other name calls a sub that does not exist: the plugin dies
 * and xcatd reports the death (xcatd:3055-3066). The plugin's JSON text is passed through as is,
 * so `pretty` does not apply (localresout, :1828-1838).
 */
import { SERVICE_UNAVAILABLE } from "../../contract/messages";
import { type HandlerContext, type Output, text } from "../http/context";
import { WebError } from "../http/errors";
import { CommandError } from "../store/errors";
import { localresAdapters } from "../store/mn-interfaces";

export function localres(ctx: HandlerContext): Output {
  const layers = (ctx.pathParams.layers ?? "").split("/");
  const last = layers.at(-1);
  const verb = last === "detail" ? "show" : last === "file" ? "download" : "list";
  const args = [verb, ...layers.filter((layer) => layer !== "detail" && layer !== "file")];
  ctx.authorize("localrest", { args });
  if (args.length < 2) throw new CommandError(["Local rest api take at least two parameter."]);
  const [, resource, ...params] = args;
  const sub = `${verb}_${resource}`;
  if (sub === "list_adapters") return text(JSON.stringify(localresAdapters(ctx.store.services.interfaces)));
  if (sub === "download_credential") {
    if (params.length === 0) throw new CommandError(["Argmument error."]);
    throw new CommandError([`File resource for ${params[0]} unavailable.`]);
  }
  // localrest.pm:100 calls the missing sub and dies; xcatd's plugin runner rethrows the death
  // (xcatd:1975-1978), the connection ends, and the CGI answers 503 (xcatws.cgi:3429). Recorded
  // on a real 2.19: GET /localres/interface -> 503 with this text; cluster.log shows
  // "Undefined subroutine &xCAT_plugin::localrest::list_interface called at ... line 100."
  throw new WebError(503, SERVICE_UNAVAILABLE);
}
