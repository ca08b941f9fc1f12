/**
 * Resources xcatws.cgi serves beyond its service description, so beyond src/contract/routes.ts
 * (which the client follows): the node templates (xcatws.cgi:1289-1316) and the MN's local
 * resources (xcatws.cgi:1271-1287). The emulator serves them as the CGI does; the client has no
 * methods for them.
 */
import type { RouteSpec } from "../../contract/routes";

export const UNDESCRIBED_ROUTES: readonly RouteSpec[] = [
  { id: "templates.node", method: "GET", path: "/templates/node", command: "lsdef" },
  { id: "templates.nodeAll", method: "GET", path: "/templates/node/all", command: "lsdef -a" },
  // The CGI's matcher is ^/localres(/[^/]*)+$: any path below /localres, handed to localrest.
  { id: "localres.get", method: "GET", path: "/localres/{layers*}", command: "localrest" },
];
