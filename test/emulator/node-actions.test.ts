/**
 * Node hardware and command resources against the simulated hardware (xcat-behavior.md §1.2,
 * §2.3, §3.1, §3.2, §9.7, §9.9; issue item 5).
 */
import { describe, expect, it } from "vitest";
import { MessagesByName, NodeActionResults, ObjectAttributeMaps } from "../../src/contract/envelope";
import { call, createNode, useEmulator } from "./helpers";

describe("node actions", () => {
  const env = useEmulator({ seed: 42 });

  it("setup", async () => {
    await createNode(env.xcat, "hw[1-2]", {
      groups: "rack1",
      mgt: "ipmi",
      ip: "10.0.1.1",
      netboot: "xnba",
    });
    await createNode(env.xcat, "plain", { groups: "misc" });
  });

  it("power: PUT changes state, GET reports it, the event log records it (§1.2)", async () => {
    expect((await call(env.xcat, "PUT", "/nodes/hw1/power", { body: { action: "off" } })).status).toBe(200);
    const off = await call(env.xcat, "GET", "/nodes/hw1/power");
    expect(NodeActionResults.parse(off.json)).toEqual({ hw1: { power: "off" } });
    const put = await call(env.xcat, "PUT", "/nodes/hw1/power", { body: { action: "on" } });
    expect(put.text).toBe("");
    expect((await call(env.xcat, "GET", "/nodes/hw1/power")).json).toEqual({ hw1: { power: "on" } });
    const log = NodeActionResults.parse((await call(env.xcat, "GET", "/nodes/hw1/eventlog")).json);
    const lines = log.hw1?.eventlog as string[];
    expect(lines.at(-1)).toMatch(/S0\/G0: working$/);
    expect(lines.at(-2)).toMatch(/soft-off$/);
  });

  it("power PUT without action is the CGI's 404 Missed Action, before authentication (§3.1, §8.1)", async () => {
    const reply = await call(env.xcat, "PUT", "/nodes/hw1/power?userName=x&userPW=y", {
      body: {},
      noAuth: true,
    });
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ error: "Missed Action.", errorcode: "2" });
  });

  it("an action ipmi.pm does not know is 403 naming the command and mgt (ipmi.pm:8338-8348; a real 2.19)", async () => {
    // Recorded on a real xCAT 2.19: PUT /nodes/bmcnode01/power {"action":"bogus"} ->
    // 403 {"error":["bmcnode01: Error: Unsupported command: rpower bogus when using mgt=ipmi."],"errorcode":"1"}
    const reply = await call(env.xcat, "PUT", "/nodes/hw1/power", { body: { action: "dance" } });
    expect(reply.status).toBe(403);
    expect(reply.json).toEqual({
      error: ["hw1: Error: Unsupported command: rpower dance when using mgt=ipmi."],
      errorcode: "1",
    });
  });

  it("bootstate of a node never set is offline: no boot configuration file (xnba.pm:62-92; a real 2.19)", async () => {
    // Recorded on a real xCAT 2.19 for a node with netboot=xnba that nodeset never touched:
    // GET /nodes/plain01/bootstate -> 200 {"plain01":{"bootstate":"offline"}}
    const reply = await call(env.xcat, "GET", "/nodes/hw2/bootstate");
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ hw2: { bootstate: "offline" } });
  });

  it("a node without netboot has no nodeset plugin: bootstate and nodeset are node errors (a real 2.19)", async () => {
    // Recorded on the real 2.19 (docs/xcat-behavior-found.md 3); the plugins by their
    // handled_commands: xnba.pm:29, pxe.pm:25, grub2.pm:32, onie.pm:33. Only the errors are shown.
    const refused = {
      error: [
        "plain: Unable to identify plugin for this command, check relevant tables: noderes.netboot=(grub2[-]?.*);nodehm.mgt;nodehm.mgt=switch",
      ],
      errorcode: "1",
    };
    expect((await call(env.xcat, "GET", "/nodes/hw2,plain/bootstate")).json).toEqual(refused);
    const set = await call(env.xcat, "PUT", "/nodes/hw2,plain/bootstate", { body: { state: "shell" } });
    expect(set.json).toEqual(refused);
    expect(env.xcat.state.getObject("node", "hw2")?.currstate).toBe("shell");
    await call(env.xcat, "PUT", "/nodes/hw2/bootstate", { body: { state: "offline" } });
  });

  it("a node without mgt has no plugin; unknown nodes are invalid noderanges (§3.2)", async () => {
    const noMgt = await call(env.xcat, "GET", "/nodes/plain/power");
    expect(noMgt.status).toBe(403);
    expect(noMgt.json).toEqual({
      error: [
        "plain: Unable to identify plugin for this command, check relevant tables: nodehm.power,mgt;nodehm.mgt;nodehm.mgt=openbmc;pduoutlet.pdu=.*",
      ],
      errorcode: "1",
    });
    const unknown = await call(env.xcat, "GET", "/nodes/hw1,ghost/power");
    expect(unknown.json).toEqual({
      error: ["Invalid nodes and/or groups in noderange: ghost"],
      errorcode: "1",
    });
  });

  it("groups work as noderanges for actions (§1.3)", async () => {
    const reply = await call(env.xcat, "GET", "/nodes/rack1/power");
    expect(Object.keys(NodeActionResults.parse(reply.json))).toEqual(["hw1", "hw2"]);
  });

  it("eventlog DELETE clears the log (§1.2)", async () => {
    expect((await call(env.xcat, "DELETE", "/nodes/hw1/eventlog")).status).toBe(200);
    const log = NodeActionResults.parse((await call(env.xcat, "GET", "/nodes/hw1/eventlog")).json);
    expect(log.hw1?.eventlog).toHaveLength(1);
    expect((log.hw1?.eventlog ?? [])[0]).toMatch(/Log area reset\/cleared$/);
  });

  it("vitals and inventory are stable across calls and derived from the node (issue item 5)", async () => {
    const a = await call(env.xcat, "GET", "/nodes/hw2/vitals");
    const b = await call(env.xcat, "GET", "/nodes/hw2/vitals");
    expect(a.json).toEqual(b.json);
    const temp = ObjectAttributeMaps.parse((await call(env.xcat, "GET", "/nodes/hw2/vitals/temp")).json);
    expect(Object.keys(temp.hw2 ?? {})).toEqual(["Ambient Temp", "CPU 1 Temp", "CPU 2 Temp"]);
    const inv = ObjectAttributeMaps.parse((await call(env.xcat, "GET", "/nodes/hw2/inventory/serial")).json);
    expect(inv.hw2?.["System Serial Number"]).toMatch(/^[0-9A-F]{8}$/);
    expect((await call(env.xcat, "GET", "/nodes/hw2/inventory")).status).toBe(200);
  });

  it("nextboot: set then read; without order is Missed Action (§1.2)", async () => {
    expect((await call(env.xcat, "GET", "/nodes/hw1/nextboot")).json).toEqual({
      hw1: { nextboot: "boot override inactive" },
    });
    await call(env.xcat, "PUT", "/nodes/hw1/nextboot", { body: { order: "net" } });
    expect((await call(env.xcat, "GET", "/nodes/hw1/nextboot")).json).toEqual({
      hw1: { nextboot: "Network" },
    });
    expect((await call(env.xcat, "PUT", "/nodes/hw1/nextboot", { body: {} })).status).toBe(404);
  });

  it("beacon: GET is an array of strings (§2.3)", async () => {
    await call(env.xcat, "PUT", "/nodes/hw1/beacon", { body: { action: "blink" } });
    expect((await call(env.xcat, "GET", "/nodes/hw1/beacon")).json).toEqual({ hw1: { beacon: ["blink"] } });
  });

  it("energy and sp: GET shows values, PUT sets them (both sp body forms, §1.2)", async () => {
    await call(env.xcat, "PUT", "/nodes/hw1/energy", { body: { cappingstatus: "on" } });
    const energy = ObjectAttributeMaps.parse(
      (await call(env.xcat, "GET", "/nodes/hw1/energy/cappingstatus")).json,
    );
    expect(energy).toEqual({ hw1: { cappingstatus: "on" } });
    expect((await call(env.xcat, "PUT", "/nodes/hw1/energy", { body: {} })).status).toBe(404);
    await call(env.xcat, "PUT", "/nodes/hw1/sp/community", { body: { value: "secret" } });
    await call(env.xcat, "PUT", "/nodes/hw1/sp/ip", { body: { ip: "10.9.9.9" } });
    expect((await call(env.xcat, "GET", "/nodes/hw1/sp/community")).json).toEqual({
      hw1: { "SP SNMP Community": "secret" },
    });
    expect((await call(env.xcat, "GET", "/nodes/hw1/sp/ip")).json).toEqual({ hw1: { "BMC IP": "10.9.9.9" } });
  });

  it("bootstate: nodeset osimage= and offline, answered as `bootstate` (§9.7)", async () => {
    await call(env.xcat, "PUT", "/nodes/hw1", { body: { mac: "42:00:00:00:00:01" } }); // destiny.pm:427-438
    await call(env.xcat, "PUT", "/osimages/img1", {
      body: {
        imagetype: "linux",
        provmethod: "install",
        osvers: "rhels8.8",
        osarch: "x86_64",
        profile: "compute",
      },
    });
    expect((await call(env.xcat, "PUT", "/nodes/hw1/bootstate", { body: { osimage: "img1" } })).status).toBe(
      200,
    );
    expect((await call(env.xcat, "GET", "/nodes/hw1/bootstate")).json).toEqual({
      hw1: { bootstate: "install rhels8.8-x86_64-compute" },
    });
    expect(env.xcat.state.getObject("node", "hw1")).toMatchObject({ provmethod: "img1", os: "rhels8.8" });
    await call(env.xcat, "PUT", "/nodes/hw1/bootstate", { body: { state: "offline" } });
    expect((await call(env.xcat, "GET", "/nodes/hw1/bootstate")).json).toEqual({
      hw1: { bootstate: "offline" },
    });
    expect((await call(env.xcat, "GET", "/nodes/hw1/nodestat")).json).toEqual({ hw1: { nodestat: "ping " } });
  });

  it("nodestat follows power (§9.7)", async () => {
    await call(env.xcat, "PUT", "/nodes/hw2/power", { body: { action: "off" } });
    expect((await call(env.xcat, "GET", "/nodes/hw2/nodestat")).json).toEqual({
      hw2: { nodestat: "noping" },
    });
  });

  it("nodeshell answers per node; unknown commands and powered-off nodes are node errors (§2.3)", async () => {
    const reply = await call(env.xcat, "POST", "/nodes/hw1/nodeshell", {
      body: { command: ["hostname", "echo $X"], ENV: { X: "hi" } },
    });
    expect(reply.status).toBe(201);
    expect(MessagesByName.parse(reply.json)).toEqual({ hw1: [" hw1", " hi"] });
    const bad = await call(env.xcat, "POST", "/nodes/hw1/nodeshell", { body: { command: "frobnicate" } });
    expect(bad.status).toBe(403);
    expect(bad.json).toEqual({ error: ["hw1: bash: frobnicate: command not found"], errorcode: "1" });
    const off = await call(env.xcat, "POST", "/nodes/hw2/nodeshell", { body: { command: "hostname" } });
    expect(off.status).toBe(403);
    const empty = await call(env.xcat, "POST", "/nodes/hw1/nodeshell", { body: {} });
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({ error: "Lack of operation data.", errorcode: 3 });
  });

  it("nodecopy records copies; src must be an array (§1.2, §3.1)", async () => {
    const reply = await call(env.xcat, "POST", "/nodes/hw1/nodecopy", {
      body: { src: ["/etc/hosts"], target: "/tmp" },
    });
    expect(reply.status).toBe(201);
    expect(reply.text).toBe("");
    expect(env.xcat.state.getRows("_emu_copies")).toEqual([
      { node: "hw1", src: "/etc/hosts", target: "/tmp" },
    ]);
    expect(
      (await call(env.xcat, "POST", "/nodes/hw1/nodecopy", { body: { src: "/etc/hosts", target: "/tmp" } }))
        .status,
    ).toBe(500);
  });

  it("updatenode resources answer S3 or S2 (§1.2)", async () => {
    const updating = await call(env.xcat, "POST", "/nodes/hw1/updating", { body: {} });
    expect(updating.status).toBe(201);
    expect(Array.isArray(updating.json)).toBe(true);
    const ps = await call(env.xcat, "POST", "/nodes/hw1/postscript", { body: { scripts: ["syslog"] } });
    expect(MessagesByName.parse(ps.json).hw1).toContain(" Running postscript: syslog");
    expect(
      (await call(env.xcat, "POST", "/nodes/hw1/postscript", { body: { scripts: "syslog" } })).status,
    ).toBe(500);
    expect(
      MessagesByName.safeParse((await call(env.xcat, "POST", "/nodes/hw1/sw", { body: {} })).json).success,
    ).toBe(true);
  });

  it("makehosts, then makedns; DNS needs the hosts entry first (§1.2)", async () => {
    const dnsFirst = await call(env.xcat, "POST", "/nodes/hw2/dns", { body: {} });
    expect(dnsFirst.status).toBe(403);
    expect((await call(env.xcat, "POST", "/nodes/hw2/host", { body: {} })).status).toBe(201);
    expect((await call(env.xcat, "POST", "/nodes/hw2/dns", { body: {} })).status).toBe(201);
    expect(env.xcat.state.getRows("_emu_dns")).toEqual([{ name: "hw2", ip: "10.0.1.1" }]);
    expect((await call(env.xcat, "DELETE", "/nodes/hw2/dns")).status).toBe(200);
    expect(env.xcat.state.getRows("_emu_dns")).toEqual([]);
  });

  it("makehosts skips a node it cannot resolve with a warning only: 201 (hosts.pm:360-411)", async () => {
    await createNode(env.xcat, "noip1", { groups: "all" });
    const reply = await call(env.xcat, "POST", "/nodes/noip1/host", { body: {} });
    expect(reply.status).toBe(201);
    expect(reply.text).toBe("");
    expect(env.xcat.state.getRows("_emu_etchosts").map((r) => r.name)).not.toContain("noip1");
    // An address that is not an IPv4 one is also only a warning (NetworkUtils.pm:2157-2184).
    await call(env.xcat, "PUT", "/nodes/noip1", { body: { ip: "10.0.01.5" } });
    expect((await call(env.xcat, "POST", "/nodes/noip1/host", { body: {} })).status).toBe(201);
    expect(env.xcat.state.getRows("_emu_etchosts").map((r) => r.name)).not.toContain("noip1");
    await call(env.xcat, "DELETE", "/nodes/noip1");
  });

  it("makedhcp writes entries only for nodes with a MAC (§1.2), with the address the name resolves to", async () => {
    await call(env.xcat, "PUT", "/nodes/hw1", { body: { mac: "42:00:00:00:00:01" } });
    expect((await call(env.xcat, "POST", "/nodes/hw1,hw2/dhcp", { body: {} })).status).toBe(201);
    // Not in /etc/hosts nor DNS yet: no fixed address (dhcp.pm master:782, :249), whatever hosts.ip holds.
    expect(env.xcat.state.getRows("_emu_dhcp")).toEqual([{ node: "hw1", mac: "42:00:00:00:00:01" }]);
    expect((await call(env.xcat, "POST", "/nodes/hw1/host", { body: {} })).status).toBe(201);
    expect((await call(env.xcat, "POST", "/nodes/hw1/dhcp", { body: {} })).status).toBe(201);
    expect(env.xcat.state.getRows("_emu_dhcp")).toEqual([
      { node: "hw1", mac: "42:00:00:00:00:01", ip: "10.0.1.1" },
    ]);
    expect((await call(env.xcat, "DELETE", "/nodes/hw1/dhcp")).status).toBe(200);
    expect(env.xcat.state.getRows("_emu_dhcp")).toEqual([]);
  });

  it("subnodes lists the VMs a host carries (§1.2)", async () => {
    await createNode(env.xcat, "vmx", { groups: "vms", mgt: "kvm", vmhost: "hw1" });
    const reply = await call(env.xcat, "GET", "/nodes/hw1/subnodes");
    expect(ObjectAttributeMaps.parse(reply.json)).toEqual({
      vmx: { objtype: "node", groups: "vms", mgt: "kvm", vmhost: "hw1" },
    });
  });

  it("nodels lists the noderange", async () => {
    expect((await call(env.xcat, "GET", "/nodes/rack1/nodels")).json).toEqual(["hw1", "hw2"]);
  });
});
