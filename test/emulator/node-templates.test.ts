/**
 * `POST /nodes/{noderange}` with `options: {"--template": <name>}`: mkdef --template
 * (xCAT-server/lib/xcat/plugins/DBobjectdefs.pm:641-671, 677-730, 1370-1436) with the templates
 * xCAT ships (xCAT/templates/objects/node/*.stanza) or an existing node as the template.
 */
import { describe, expect, it } from "vitest";
import { call, createNode, useEmulator } from "./helpers";

describe("node templates", () => {
  const env = useEmulator();

  const mkdef = (name: string, body: Record<string, unknown>) =>
    call(env.xcat, "POST", `/nodes/${name}`, { body });

  it("a shipped template fills what the request leaves out; OPTIONAL values are dropped (:1412-1434)", async () => {
    const reply = await mkdef("kvm1", {
      ip: "10.0.0.31",
      vmhost: "hyp1",
      vmnics: "br0",
      vmmemory: "8192",
      options: { "--template": "x86_64kvmguest-template" },
    });
    expect([reply.status, reply.text]).toEqual([201, ""]);
    const node = env.xcat.state.getObject("node", "kvm1");
    expect(node).toMatchObject({
      arch: "x86_64",
      groups: "all",
      ip: "10.0.0.31",
      mgt: "kvm",
      netboot: "xnba",
      vmcpus: "2",
      vmhost: "hyp1",
      vmmemory: "8192",
      vmstorage: "dir:///var/lib/libvirt/images",
      usercomment: "the system X kvm node definition",
    });
    expect(node?.mac).toBeUndefined();
  });

  it("a MANDATORY attribute the request lacks is an error, nothing is created (:1425-1433)", async () => {
    const reply = await mkdef("bm1", { options: { "--template": "x86_64-template" }, ip: "10.0.0.41" });
    expect([reply.status, reply.json]).toEqual([
      403,
      { error: ['The attribute "bmc" must be specified!'], errorcode: "1" },
    ]);
    expect(env.xcat.state.getObject("node", "bm1")).toBeUndefined();
  });

  it("an existing node serves as the template when no shipped one has the name (:1370-1403)", async () => {
    await createNode(env.xcat, "proto", {
      groups: "all,rack2",
      mgt: "ipmi",
      bmc: "10.1.0.50",
      arch: "ppc64le",
    });
    expect((await mkdef("copy1", { bmc: "10.1.0.51", options: { "--template": "proto" } })).status).toBe(201);
    expect(env.xcat.state.getObject("node", "copy1")).toMatchObject({
      groups: "all,rack2",
      mgt: "ipmi",
      bmc: "10.1.0.51",
      arch: "ppc64le",
    });
    const missing = await mkdef("copy2", { options: { "--template": "nosuch" } });
    expect(missing.json).toEqual({
      error: ["Could not find the template object named 'nosuch' of type 'node'."],
      errorcode: "1",
    });
    const same = await mkdef("proto", { options: { "--template": "proto" } });
    expect(same.json).toEqual({
      error: ["The template node cannot be the same as the node to create."],
      errorcode: "1",
    });
  });

  it("an empty or a comma-separated template name is refused (:648-663)", async () => {
    expect((await mkdef("t1", { options: { "--template": "" } })).json).toEqual({
      error: ["no object definition template specified for mkdef --template!"],
      errorcode: "1",
    });
    expect((await mkdef("t1", { options: { "--template": "a,b" } })).json).toEqual({
      error: ["Only 1 template object definition should be specified for mkdef!"],
      errorcode: "1",
    });
  });
});
