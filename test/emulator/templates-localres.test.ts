/**
 * The CGI's resources beyond its service description: /templates/node, /templates/node/all
 * (xcatws.cgi:1289-1316, lsdef in DBobjectdefs.pm) and /localres/... (xcatws.cgi:1271-1287,
 * localreshdl :2415-2445, the localrest plugin localrest.pm).
 */
import { describe, expect, it } from "vitest";
import { call, createNode, useEmulator } from "./helpers";

const KVM_GUEST = {
  // xCAT/templates/objects/node/x86_64kvmguest.stanza, objtype left out (DBobjectdefs.pm:4130-4133).
  arch: "x86_64",
  groups: "all",
  ip: "MANDATORY:the ip address of the kvm guest",
  mac: "OPTIONAL:the mac of the kvm guest",
  mgt: "kvm",
  netboot: "xnba",
  serialport: "0",
  serialspeed: "115200",
  usercomment: "the system X kvm node definition",
  vmcpus: "2",
  vmhost: "MANDATORY:the hostname or ip address of the KVM hypervisor",
  vmmemory: "4096",
  vmnicnicmodel: "virtio",
  vmnics: "MANDATORY:the hypervisor nics used to create the kvm guest network",
  vmstorage: "dir:///var/lib/libvirt/images",
};
const template = (name: string) => ({ body: { options: { "--template": name } } });

describe("/templates (xcatws.cgi:1289-1316)", () => {
  const env = useEmulator();

  it("plain lsdef with no node: nothing to display (xcat-behavior.md §9.3)", async () => {
    expect((await call(env.xcat, "GET", "/templates/node")).json).toEqual({
      info: "Could not find any object definitions to display.",
    });
  });

  it("GET /templates/node --template <name>: the shipped template's set attributes", async () => {
    // Listed with or without nodes: getDBtable answers an empty table with (undef), so lsdef never
    // finds the node type empty (DBobjUtils.pm:618-658, DBobjectdefs.pm:3992-4001).
    const reply = await call(env.xcat, "GET", "/templates/node", template("x86_64kvmguest-template"));
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ "x86_64kvmguest-template": KVM_GUEST });
    const two = await call(
      env.xcat,
      "GET",
      "/templates/node",
      template("x86_64kvmguest-template,hmc-template"),
    );
    expect(Object.keys(two.json as object)).toEqual(["hmc-template", "x86_64kvmguest-template"]);
  });

  it("an unknown template is lsdef's error (DBobjectdefs.pm:922-933): 403", async () => {
    const reply = await call(env.xcat, "GET", "/templates/node", template("nosuch"));
    expect(reply.status).toBe(403);
    expect(reply.json).toEqual({ error: ["Could not find nosuch in xCAT templates."], errorcode: "1" });
  });

  it("GET /templates/node/all --template '': the names of the shipped templates", async () => {
    const reply = await call(env.xcat, "GET", "/templates/node/all", template(""));
    expect(reply.json).toEqual([
      "cec-template",
      "hmc-template",
      "onieswitch",
      "ppc64le-openbmc-template",
      "ppc64le-template",
      "ppc64lekvmguest-template",
      "switch-template",
      "x86_64-template",
      "x86_64kvmguest-template",
    ]);
  });

  it("short listings under /templates/node are malformed for defout (418); other methods are 405", async () => {
    // `--template` without a name and plain lsdef both print `name  (node)` lines, which defout
    // (xcatws.cgi:1655-1658) cannot read as attributes.
    await createNode(env.xcat, "t1", { groups: "all" });
    expect((await call(env.xcat, "GET", "/templates/node", template(""))).status).toBe(418);
    expect((await call(env.xcat, "GET", "/templates/node")).status).toBe(418);
    const post = await call(env.xcat, "POST", "/templates/node", { body: {} });
    expect(post.status).toBe(405);
    expect(post.json).toEqual({
      error: "request method 'POST' is not supported on resource '/templates/node'",
      errorcode: "2",
    });
  });
});

describe("/localres (xcatws.cgi:1271-1287, localrest.pm)", () => {
  const env = useEmulator();

  it("GET /localres/adapters lists the MN's interfaces as the plugin encodes them, pretty or not", async () => {
    // list_adapters (localrest.pm:145-199): name and `ip -o addr`'s address/prefix; no MAC.
    const body = '[{"name":"eth0","ip":"10.0.0.1/16"},{"name":"eth1","ip":"192.168.122.10/24"}]\n';
    const reply = await call(env.xcat, "GET", "/localres/adapters?pretty=1");
    expect(reply.status).toBe(200);
    expect(reply.text).toBe(body);
    expect((await call(env.xcat, "GET", "/localres/adapters/")).text).toBe(body);
  });

  it("resources the plugin has no sub for die in it and end the connection (localrest.pm:100, xcatd:1975-1978): 503", async () => {
    // Recorded on a real xCAT 2.19: GET /localres/interface and /localres/interface/eth0 ->
    // 503 {"errorcode":"2","error":"communication with the xCAT server seems to have been ended prematurely"}
    const reply = await call(env.xcat, "GET", "/localres/interface");
    expect(reply.status).toBe(503);
    expect(reply.json).toEqual({
      error: "communication with the xCAT server seems to have been ended prematurely",
      errorcode: "2",
    });
    // /detail asks for show_<resource> (xcatws.cgi:2423-2424), which does not exist either.
    expect((await call(env.xcat, "GET", "/localres/adapters/detail")).status).toBe(503);
  });

  it("credential files: the emulated MN has no conserver credentials (localrest.pm:216-233)", async () => {
    const reply = await call(env.xcat, "GET", "/localres/credential/ca/file");
    expect(reply.status).toBe(403);
    expect(reply.json).toEqual({ error: ["File resource for ca unavailable."], errorcode: "1" });
  });

  it("only GET is served (405), and /localres itself matches no resource (404)", async () => {
    expect((await call(env.xcat, "PUT", "/localres/adapters", { body: {} })).status).toBe(405);
    expect((await call(env.xcat, "GET", "/localres")).json).toEqual({
      error: "Unsupported resource.",
      errorcode: "2",
    });
  });
});

describe("the MN's interfaces are configurable (EmulatorOptions.mnInterfaces)", () => {
  const env = useEmulator({ mnInterfaces: [{ name: "ens3", ip: "172.20.0.5", mask: "255.255.240.0" }] });

  it("localres and makenetworks both read them", async () => {
    expect((await call(env.xcat, "GET", "/localres/adapters")).text).toBe(
      '[{"name":"ens3","ip":"172.20.0.5/20"}]\n',
    );
    expect((await call(env.xcat, "POST", "/networks", { body: {} })).status).toBe(201);
    expect(env.xcat.state.getObject("network", "172_20_0_0-255_255_240_0")).toMatchObject({
      net: "172.20.0.0",
      mask: "255.255.240.0",
      mgtifname: "ens3",
      tftpserver: "172.20.0.5",
    });
  });
});
