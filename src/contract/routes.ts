/**
 * Every operation of the xCAT REST service description (../shared/xcat-rest-api.md), one row each:
 * a stable id, the HTTP method, the path template below the base URL (…/xcatws) and the xCAT
 * command behind it. The emulator's router serves exactly these rows (a test checks that), and the
 * client's methods are checked against them, so neither can miss an operation unnoticed.
 *
 * Path parameters use the service description's names: {noderange}, {imgname}, {netname},
 * {policy_priority}, {groupname}, {attrs} (a comma-separated attribute list), {tablelist},
 * {keys} (comma-separated name=value pairs), {item} (one keyword such as an sp setting).
 */

export type HttpMethod = "GET" | "PUT" | "POST" | "DELETE";

export interface RouteSpec {
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** The xCAT command the real service runs for it (for documentation and coverage reports). */
  readonly command: string;
}

const route = (id: string, method: HttpMethod, path: string, command: string): RouteSpec => ({
  id,
  method,
  path,
  command,
});

export const ROUTES: readonly RouteSpec[] = [
  route("tokens.create", "POST", "/tokens", "gettoken"),

  route("nodes.list", "GET", "/nodes", "lsdef"),
  route("nodes.get", "GET", "/nodes/{noderange}", "lsdef"),
  route("nodes.update", "PUT", "/nodes/{noderange}", "chdef"),
  route("nodes.create", "POST", "/nodes/{noderange}", "mkdef"),
  route("nodes.delete", "DELETE", "/nodes/{noderange}", "rmdef"),
  route("nodes.getAttrs", "GET", "/nodes/{noderange}/attrs/{attrs}", "lsdef"),
  route("nodes.makeHosts", "POST", "/nodes/{noderange}/host", "makehosts"),
  route("nodes.makeDns", "POST", "/nodes/{noderange}/dns", "makedns"),
  route("nodes.removeDns", "DELETE", "/nodes/{noderange}/dns", "makedns -d"),
  route("nodes.makeDhcp", "POST", "/nodes/{noderange}/dhcp", "makedhcp"),
  route("nodes.removeDhcp", "DELETE", "/nodes/{noderange}/dhcp", "makedhcp -d"),
  route("nodes.nodestat", "GET", "/nodes/{noderange}/nodestat", "nodestat"),
  route("nodes.subnodes", "GET", "/nodes/{noderange}/subnodes", "rscan"),
  route("nodes.getPower", "GET", "/nodes/{noderange}/power", "rpower stat"),
  route("nodes.setPower", "PUT", "/nodes/{noderange}/power", "rpower"),
  route("nodes.getEnergy", "GET", "/nodes/{noderange}/energy", "renergy"),
  route("nodes.setEnergy", "PUT", "/nodes/{noderange}/energy", "renergy"),
  route("nodes.getEnergyAttrs", "GET", "/nodes/{noderange}/energy/{attrs}", "renergy"),
  route("nodes.getSp", "GET", "/nodes/{noderange}/sp/{item}", "rspconfig"),
  route("nodes.setSp", "PUT", "/nodes/{noderange}/sp/{item}", "rspconfig"),
  route("nodes.getNextboot", "GET", "/nodes/{noderange}/nextboot", "rsetboot stat"),
  route("nodes.setNextboot", "PUT", "/nodes/{noderange}/nextboot", "rsetboot"),
  route("nodes.getBootstate", "GET", "/nodes/{noderange}/bootstate", "nodeset stat"),
  route("nodes.setBootstate", "PUT", "/nodes/{noderange}/bootstate", "nodeset"),
  route("nodes.getVitals", "GET", "/nodes/{noderange}/vitals", "rvitals"),
  route("nodes.getVitalsItems", "GET", "/nodes/{noderange}/vitals/{item}", "rvitals"),
  route("nodes.getInventory", "GET", "/nodes/{noderange}/inventory", "rinv"),
  route("nodes.getInventoryItems", "GET", "/nodes/{noderange}/inventory/{item}", "rinv"),
  route("nodes.getEventlog", "GET", "/nodes/{noderange}/eventlog", "reventlog"),
  route("nodes.clearEventlog", "DELETE", "/nodes/{noderange}/eventlog", "reventlog clear"),
  route("nodes.getBeacon", "GET", "/nodes/{noderange}/beacon", "rbeacon stat"),
  route("nodes.setBeacon", "PUT", "/nodes/{noderange}/beacon", "rbeacon"),
  route("nodes.updating", "POST", "/nodes/{noderange}/updating", "updatenode"),
  route("nodes.filesyncing", "POST", "/nodes/{noderange}/filesyncing", "updatenode -F"),
  route("nodes.sw", "POST", "/nodes/{noderange}/sw", "updatenode -S"),
  route("nodes.postscript", "POST", "/nodes/{noderange}/postscript", "updatenode -P"),
  route("nodes.nodeshell", "POST", "/nodes/{noderange}/nodeshell", "xdsh"),
  route("nodes.nodecopy", "POST", "/nodes/{noderange}/nodecopy", "xdcp"),
  route("nodes.changeVm", "PUT", "/nodes/{noderange}/vm", "chvm"),
  route("nodes.createVm", "POST", "/nodes/{noderange}/vm", "mkvm"),
  route("nodes.removeVm", "DELETE", "/nodes/{noderange}/vm", "rmvm"),
  route("nodes.cloneVm", "POST", "/nodes/{noderange}/vmclone", "clonevm"),
  route("nodes.migrateVm", "POST", "/nodes/{noderange}/vmmigrate", "rmigrate"),
  route("nodes.nodels", "GET", "/nodes/{noderange}/nodels", "nodels"),

  route("osimages.list", "GET", "/osimages", "lsdef"),
  route("osimages.copycds", "POST", "/osimages", "copycds"),
  route("osimages.get", "GET", "/osimages/{imgname}", "lsdef"),
  route("osimages.update", "PUT", "/osimages/{imgname}", "chdef"),
  route("osimages.create", "POST", "/osimages/{imgname}", "mkdef"),
  route("osimages.delete", "DELETE", "/osimages/{imgname}", "rmdef"),
  route("osimages.getAttrs", "GET", "/osimages/{imgname}/attrs/{attrs}", "lsdef"),
  route("osimages.instance", "POST", "/osimages/{imgname}/instance", "genimage/packimage/imgexport"),
  route("osimages.removeInstance", "DELETE", "/osimages/{imgname}/instance", "rmimage"),

  route("networks.list", "GET", "/networks", "lsdef"),
  route("networks.makenetworks", "POST", "/networks", "makenetworks"),
  route("networks.get", "GET", "/networks/{netname}", "lsdef"),
  route("networks.update", "PUT", "/networks/{netname}", "chdef"),
  route("networks.create", "POST", "/networks/{netname}", "mkdef"),
  route("networks.delete", "DELETE", "/networks/{netname}", "rmdef"),
  route("networks.getAttrs", "GET", "/networks/{netname}/attrs/{attrs}", "lsdef"),

  route("policy.list", "GET", "/policy", "lsdef"),
  route("policy.get", "GET", "/policy/{policy_priority}", "lsdef"),
  route("policy.update", "PUT", "/policy/{policy_priority}", "chdef"),
  route("policy.create", "POST", "/policy/{policy_priority}", "chdef"),
  route("policy.delete", "DELETE", "/policy/{policy_priority}", "rmdef"),
  route("policy.getAttrs", "GET", "/policy/{policy_priority}/attrs/{attrs}", "lsdef"),

  route("groups.list", "GET", "/groups", "lsdef"),
  route("groups.get", "GET", "/groups/{groupname}", "lsdef"),
  route("groups.update", "PUT", "/groups/{groupname}", "chdef"),
  route("groups.getAttrs", "GET", "/groups/{groupname}/attrs/{attrs}", "lsdef"),

  route("globalconf.get", "GET", "/globalconf", "lsdef -t site"),
  route("globalconf.getAttrs", "GET", "/globalconf/attrs/{attrs}", "lsdef -t site -i"),
  route("globalconf.setAttrs", "PUT", "/globalconf/attrs/{attrs}", "chdef -t site"),
  route("globalconf.deleteAttrs", "DELETE", "/globalconf/attrs/{attrs}", "chdef -t site attr="),

  route("services.makeDns", "POST", "/services/dns", "makedns -n"),
  route("services.makeDhcp", "POST", "/services/dhcp", "makedhcp -n"),
  route("services.makeHosts", "POST", "/services/host", "makehosts"),
  route("services.slpnodes", "GET", "/services/slpnodes", "lsslp -z"),
  route("services.slpnodesOfType", "GET", "/services/slpnodes/{item}", "lsslp -z -s"),

  route("tables.getNodeRows", "GET", "/tables/{tablelist}/nodes/{noderange}", "getTablesNodesAttribs"),
  route("tables.setNodeRows", "PUT", "/tables/{tablelist}/nodes/{noderange}", "setNodesAttribs"),
  route(
    "tables.getNodeRowsAttrs",
    "GET",
    "/tables/{tablelist}/nodes/{noderange}/{attrs}",
    "getTablesNodesAttribs",
  ),
  route("tables.getAllRows", "GET", "/tables/{tablelist}/rows", "getTablesAllRowAttribs"),
  route("tables.getRows", "GET", "/tables/{tablelist}/rows/{keys}", "getAttribs"),
  route("tables.setRows", "PUT", "/tables/{tablelist}/rows/{keys}", "setAttribs"),
  route("tables.deleteRows", "DELETE", "/tables/{tablelist}/rows/{keys}", "delEntries"),
  route("tables.getRowsAttrs", "GET", "/tables/{tablelist}/rows/{keys}/{attrs}", "getAttribs"),
];

/** The route with this id; throws for an unknown id, which is a programming error. */
export function routeById(id: string): RouteSpec {
  const found = ROUTES.find((r) => r.id === id);
  if (!found) throw new Error(`unknown xCAT route id '${id}'`);
  return found;
}
