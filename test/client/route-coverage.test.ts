/**
 * Every route of src/contract/routes.ts has a client method of the same name (route id
 * "nodes.getPower" ↔ client.nodes.getPower), and calling it sends that route's method and path.
 */

import { describe, expect, it } from "vitest";
import type { XcatClient } from "../../src/client";
import { ROUTES } from "../../src/contract/routes";
import { EMULATOR_DEFAULT_PASSWORD } from "../../src/emulator";
import { mockXcat } from "./support/mock-xcat";

type Call = (client: XcatClient) => Promise<unknown>;

// One sample call per route id. The mock answers every request with an empty success, which all
// methods accept (except tokens.create, answered below).
const SAMPLES: Readonly<Record<string, Call>> = {
  "tokens.create": (c) => c.tokens.create({ username: "root", password: EMULATOR_DEFAULT_PASSWORD }),
  "nodes.list": (c) => c.nodes.list(),
  "nodes.get": (c) => c.nodes.get("n01"),
  "nodes.update": (c) => c.nodes.update("n01", { mgt: "ipmi" }),
  "nodes.create": (c) => c.nodes.create("n01", { groups: "all" }),
  "nodes.delete": (c) => c.nodes.delete("n01"),
  "nodes.getAttrs": (c) => c.nodes.getAttrs("n01", ["groups"]),
  "nodes.makeHosts": (c) => c.nodes.makeHosts("n01"),
  "nodes.makeDns": (c) => c.nodes.makeDns("n01"),
  "nodes.removeDns": (c) => c.nodes.removeDns("n01"),
  "nodes.makeDhcp": (c) => c.nodes.makeDhcp("n01"),
  "nodes.removeDhcp": (c) => c.nodes.removeDhcp("n01"),
  "nodes.nodestat": (c) => c.nodes.nodestat("n01"),
  "nodes.subnodes": (c) => c.nodes.subnodes("n01"),
  "nodes.getPower": (c) => c.nodes.getPower("n01"),
  "nodes.setPower": (c) => c.nodes.setPower("n01", "on"),
  "nodes.getEnergy": (c) => c.nodes.getEnergy("n01"),
  "nodes.setEnergy": (c) => c.nodes.setEnergy("n01", { cappingstatus: "on" }),
  "nodes.getEnergyAttrs": (c) => c.nodes.getEnergyAttrs("n01", ["cappingstatus"]),
  "nodes.getSp": (c) => c.nodes.getSp("n01", "ip"),
  "nodes.setSp": (c) => c.nodes.setSp("n01", "community", "public"),
  "nodes.getNextboot": (c) => c.nodes.getNextboot("n01"),
  "nodes.setNextboot": (c) => c.nodes.setNextboot("n01", "net"),
  "nodes.getBootstate": (c) => c.nodes.getBootstate("n01"),
  "nodes.setBootstate": (c) => c.nodes.setBootstate("n01", { state: "offline" }),
  "nodes.getVitals": (c) => c.nodes.getVitals("n01"),
  "nodes.getVitalsItems": (c) => c.nodes.getVitalsItems("n01", ["temp"]),
  "nodes.getInventory": (c) => c.nodes.getInventory("n01"),
  "nodes.getInventoryItems": (c) => c.nodes.getInventoryItems("n01", ["model"]),
  "nodes.getEventlog": (c) => c.nodes.getEventlog("n01"),
  "nodes.clearEventlog": (c) => c.nodes.clearEventlog("n01"),
  "nodes.getBeacon": (c) => c.nodes.getBeacon("n01"),
  "nodes.setBeacon": (c) => c.nodes.setBeacon("n01", "on"),
  "nodes.updating": (c) => c.nodes.updating("n01"),
  "nodes.filesyncing": (c) => c.nodes.filesyncing("n01"),
  "nodes.sw": (c) => c.nodes.sw("n01"),
  "nodes.postscript": (c) => c.nodes.postscript("n01", ["syslog"]),
  "nodes.nodeshell": (c) => c.nodes.nodeshell("n01", { command: "uptime" }),
  "nodes.nodecopy": (c) => c.nodes.nodecopy("n01", { src: ["/etc/hosts"], target: "/tmp" }),
  "nodes.changeVm": (c) => c.nodes.changeVm("n01", { memorySizeMb: 2048 }),
  "nodes.createVm": (c) => c.nodes.createVm("n01", { cpuCount: 2 }),
  "nodes.removeVm": (c) => c.nodes.removeVm("n01", { purge: true }),
  "nodes.cloneVm": (c) => c.nodes.cloneVm("n01", { toMaster: "m1" }),
  "nodes.migrateVm": (c) => c.nodes.migrateVm("n01", "host2"),
  "nodes.nodels": (c) => c.nodes.nodels("n01"),
  "osimages.list": (c) => c.osimages.list(),
  "osimages.copycds": (c) => c.osimages.copycds({ iso: "/iso/x.iso" }),
  "osimages.get": (c) => c.osimages.get("img"),
  "osimages.update": (c) => c.osimages.update("img", { osvers: "rhels8" }),
  "osimages.create": (c) => c.osimages.create("img", { imagetype: "linux" }),
  "osimages.delete": (c) => c.osimages.delete("img"),
  "osimages.getAttrs": (c) => c.osimages.getAttrs("img", ["osvers"]),
  "osimages.instance": (c) => c.osimages.instance("img", "gen"),
  "osimages.removeInstance": (c) => c.osimages.removeInstance("img"),
  "networks.list": (c) => c.networks.list(),
  "networks.makenetworks": (c) => c.networks.makenetworks(),
  "networks.get": (c) => c.networks.get("net1"),
  "networks.update": (c) => c.networks.update("net1", { gateway: "10.0.0.1" }),
  "networks.create": (c) => c.networks.create("net1", { net: "10.0.0.0", mask: "255.0.0.0" }),
  "networks.delete": (c) => c.networks.delete("net1"),
  "networks.getAttrs": (c) => c.networks.getAttrs("net1", ["net"]),
  "policy.list": (c) => c.policy.list(),
  "policy.get": (c) => c.policy.get("6"),
  "policy.update": (c) => c.policy.update("6", { rule: "allow" }),
  "policy.create": (c) => c.policy.create("6", { name: "alice", rule: "allow" }),
  "policy.delete": (c) => c.policy.delete("6"),
  "policy.getAttrs": (c) => c.policy.getAttrs("6", ["rule"]),
  "groups.list": (c) => c.groups.list(),
  "groups.get": (c) => c.groups.get("compute"),
  "groups.update": (c) => c.groups.update("compute", { mgt: "ipmi" }),
  "groups.getAttrs": (c) => c.groups.getAttrs("compute", ["members"]),
  "globalconf.get": (c) => c.globalconf.get(),
  "globalconf.getAttrs": (c) => c.globalconf.getAttrs(["domain"]),
  "globalconf.setAttrs": (c) => c.globalconf.setAttrs({ domain: "x.example" }),
  "globalconf.deleteAttrs": (c) => c.globalconf.deleteAttrs(["domain"]),
  "services.makeDns": (c) => c.services.makeDns(),
  "services.makeDhcp": (c) => c.services.makeDhcp(),
  "services.makeHosts": (c) => c.services.makeHosts(),
  "services.slpnodes": (c) => c.services.slpnodes(),
  "services.slpnodesOfType": (c) => c.services.slpnodesOfType("CMM"),
  "tables.getNodeRows": (c) => c.tables.getNodeRows(["nodetype"], "n01"),
  "tables.setNodeRows": (c) => c.tables.setNodeRows("n01", { nodetype: { arch: "x86_64" } }),
  "tables.getNodeRowsAttrs": (c) => c.tables.getNodeRowsAttrs(["nodetype"], "n01", ["arch"]),
  "tables.getAllRows": (c) => c.tables.getAllRows(["routes"]),
  "tables.getRows": (c) => c.tables.getRows("routes", { routename: "r1" }),
  "tables.setRows": (c) => c.tables.setRows("routes", { routename: "r1" }, { net: "10.1.0.0" }),
  "tables.deleteRows": (c) => c.tables.deleteRows("routes", { routename: "r1" }),
  "tables.getRowsAttrs": (c) => c.tables.getRowsAttrs("routes", { routename: "r1" }, ["net"]),
};

function pathPattern(template: string): RegExp {
  const literal = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
  const body = template
    .split(/\{[a-z_]+\}/)
    .map(literal)
    .join("[^/?]+");
  return new RegExp(`^/xcatws${body}(\\?.*)?$`);
}

describe("route coverage", () => {
  it("has a sample for exactly the contract's routes", () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(ROUTES.map((r) => r.id).sort());
  });

  it("has a client method named after every route id", () => {
    const { client } = mockXcat(() => ({ status: 200 }));
    const c = client() as unknown as Record<string, Record<string, unknown>>;
    const missing = ROUTES.filter((r) => {
      const [namespace, method] = r.id.split(".") as [string, string];
      return typeof c[namespace]?.[method] !== "function";
    }).map((r) => r.id);
    expect(missing).toEqual([]);
  });

  for (const route of ROUTES) {
    it(`${route.id} sends ${route.method} ${route.path}`, async () => {
      const { client, calls } = mockXcat((request) => {
        if (request.path.startsWith("/xcatws/tokens")) {
          return { status: 201, body: { token: { id: "t-0001", expire: "never" } } };
        }
        // policy.create reads first and must find nothing.
        if (route.id === "policy.create" && request.method === "GET") {
          return {
            status: 403,
            body: { error: ["Could not find an object named '6' of type 'policy'."], errorcode: "1" },
          };
        }
        return { status: request.method === "POST" ? 201 : 200 };
      });
      const sample = SAMPLES[route.id];
      expect(sample).toBeDefined();
      await sample?.(client());
      const pattern = pathPattern(route.path);
      expect(calls.some((call) => call.method === route.method && pattern.test(call.path))).toBe(true);
    });
  }
});
