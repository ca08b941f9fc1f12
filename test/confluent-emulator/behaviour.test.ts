/**
 * What confluent-emulator does that a recording cannot show: a deployment's progress in
 * simulated time (on a real cluster the node's installer reports it, selfservice.py:464-511; the
 * attribute shapes below were observed on a real 3.15.6 by posting /self/updatestatus as a node),
 * --fail-nodes / --hang-nodes, the data file across restarts, the seeded cluster, the command
 * line, session expiry and the default account.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startConfluentEmulator } from "../../src/confluent-emulator";
import { parseArgs } from "../../src/confluent-emulator/cli";
import type {
  ConfluentEmulatorOptions,
  RunningConfluentEmulator,
} from "../../src/confluent-emulator/options";

const running: RunningConfluentEmulator[] = [];
afterEach(async () => {
  for (const e of running.splice(0)) await e.close();
});

async function start(options: ConfluentEmulatorOptions = {}): Promise<RunningConfluentEmulator> {
  const e = await startConfluentEmulator(options);
  running.push(e);
  return e;
}

function api(e: RunningConfluentEmulator, user = "root", password = "cluster") {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${e.url}${path}`, {
      method,
      headers: {
        Accept: "application/json",
        Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`,
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : text,
    };
  };
}

/** The nodedeploy sequence (confluent_client/bin/nodedeploy:40-75, :215-225). */
async function deploy(call: ReturnType<typeof api>, range: string, profile: string) {
  expect(
    (await call("PUT", `/noderange/${range}/attributes/current`, { "deployment.apiarmed": "once" })).status,
  ).toBe(200);
  const pending = await call("PUT", `/noderange/${range}/attributes/current`, {
    "deployment.pendingprofile": profile,
    "deployment.state": "",
    "deployment.state_detail": "",
    "deployment.stagedprofile": "",
    "deployment.profile": "",
  });
  expect(pending.status).toBe(200);
  expect(
    (
      await call("PUT", `/noderange/${range}/boot/nextdevice`, {
        nextdevice: "network",
        bootmode: "uefi",
        persistent: false,
      })
    ).status,
  ).toBe(200);
  expect((await call("PUT", `/noderange/${range}/power/state`, { state: "boot" })).status).toBe(200);
}

function deploymentOf(attrs: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attrs ?? {}).filter(([k]) => k.startsWith("deployment.")));
}

/**
 * The deployment clock, set by hand: which step a deployment reached is decided by it alone, not
 * by how long the machine took between two requests (issue #40).
 */
let clock = 0;
const now = () => clock;

describe("deployment in simulated time", () => {
  it("moves pendingprofile to stagedprofile, then profile, as a node's status reports do", async () => {
    const e = await start({ bootSeconds: 0.6, now });
    const call = api(e);
    await call("POST", "/nodegroups/", { name: "compute" });
    await call("POST", "/noderange/", {
      name: "n1,n2",
      groups: ["compute"],
      "hardwaremanagement.manager": "10.1.0.1",
      "net.ipv4_address": "10.0.0.{n1}",
    });
    await deploy(call, "compute", "rocky-9.4-x86_64-default");
    // Booted: the installer has fetched its key (apiarmed once is used up), nothing staged yet.
    expect(deploymentOf(e.state.nodeAttributes("n1"))).toEqual({
      "deployment.apiarmed": { value: "" },
      "deployment.pendingprofile": { value: "rocky-9.4-x86_64-default" },
      "deployment.profile": { value: "" },
      "deployment.stagedprofile": { value: "" },
      "deployment.state": { value: "" },
      "deployment.state_detail": { value: "" },
    });
    clock += 450;
    await call("GET", "/nodes/"); // any request moves the clock's effects in
    expect(deploymentOf(e.state.nodeAttributes("n1"))).toMatchObject({
      "deployment.client_ip": { value: "10.0.0.1" },
      "deployment.pendingprofile": { value: "" },
      "deployment.stagedprofile": { value: "rocky-9.4-x86_64-default" },
      "deployment.profile": { value: "" },
    });
    clock += 300;
    const after = await call("GET", "/noderange/compute/attributes/current");
    expect(after.status).toBe(200);
    for (const node of ["n1", "n2"]) {
      expect(deploymentOf(e.state.nodeAttributes(node))).toMatchObject({
        "deployment.pendingprofile": { value: "" },
        "deployment.stagedprofile": { value: "" },
        "deployment.profile": { value: "rocky-9.4-x86_64-default" },
      });
    }
    // The one-time network boot was used: the next boot is from the default device.
    const next = await call("GET", "/nodes/n1/boot/nextdevice");
    expect(next.body).toMatchObject({ nextdevice: { value: "default" } });
  });

  it("fails --fail-nodes (deployment.state failed) and leaves --hang-nodes pending", async () => {
    const e = await start({ bootSeconds: 0.3, failNodes: ["n2"], hangNodes: ["n3"], now });
    const call = api(e);
    await call("POST", "/noderange/", { name: "n1,n2,n3", "hardwaremanagement.manager": "10.1.0.1" });
    await deploy(call, "n1,n2,n3", "ubuntu-22.04-x86_64-default");
    clock += 400;
    await call("GET", "/nodes/");
    expect(deploymentOf(e.state.nodeAttributes("n1"))["deployment.profile"]).toEqual({
      value: "ubuntu-22.04-x86_64-default",
    });
    expect(deploymentOf(e.state.nodeAttributes("n2"))).toMatchObject({
      "deployment.state": { value: "failed" },
      "deployment.pendingprofile": { value: "ubuntu-22.04-x86_64-default" },
      "deployment.profile": { value: "" },
    });
    expect(deploymentOf(e.state.nodeAttributes("n3"))).toMatchObject({
      "deployment.state": { value: "" },
      "deployment.pendingprofile": { value: "ubuntu-22.04-x86_64-default" },
      "deployment.profile": { value: "" },
    });
  });

  it("does not deploy without a network boot, and locks autolock nodes when done", async () => {
    const e = await start({ bootSeconds: 0.2, now });
    const call = api(e);
    await call("POST", "/noderange/", { name: "n1,n2", "hardwaremanagement.manager": "10.1.0.1" });
    await call("PUT", "/nodes/n2/deployment/lock", { lock: "autolock" });
    await call("PUT", "/noderange/n1,n2/attributes/current", {
      "deployment.pendingprofile": "rocky-9.4-x86_64-default",
    });
    await call("PUT", "/nodes/n2/boot/nextdevice", { nextdevice: "network" });
    await call("PUT", "/noderange/n1,n2/power/state", { state: "on" });
    clock += 300;
    await call("GET", "/nodes/");
    expect(deploymentOf(e.state.nodeAttributes("n1"))["deployment.pendingprofile"]).toEqual({
      value: "rocky-9.4-x86_64-default",
    });
    expect(deploymentOf(e.state.nodeAttributes("n2"))["deployment.profile"]).toEqual({
      value: "rocky-9.4-x86_64-default",
    });
    expect((await call("GET", "/nodes/n2/deployment/lock")).body).toMatchObject({
      lock: { value: "locked" },
    });
  });

  it("lists the profiles given, and reads a missing one's info as the real server does (500)", async () => {
    const e = await start({ deploymentProfiles: ["sles-15-x86_64-default"] });
    const call = api(e);
    expect((await call("GET", "/deployment/profiles/")).body).toMatchObject({
      _links: { item: [{ href: "sles-15-x86_64-default/" }] },
    });
    const missing = await call("GET", "/deployment/profiles/nosuch/info");
    expect(missing.status).toBe(500);
    expect(missing.body).toBe(
      "500 - [Errno 2] No such file or directory: '/var/lib/confluent/public/os/nosuch/profile.yaml'",
    );
  });
});

describe("hardware", () => {
  it("a node without a manager times out like one whose name reaches no BMC", async () => {
    const e = await start();
    const call = api(e);
    await call("POST", "/noderange/", { name: "n1,n2" });
    await call("PUT", "/nodes/n2/attributes/current", { "hardwaremanagement.manager": "10.1.0.2" });
    expect(await call("GET", "/nodes/n1/power/state")).toEqual({
      status: 504,
      body: { error: "Unreachable Target - timeout" },
    });
    const range = await call("PUT", "/noderange/n1,n2/power/state", { state: "on" });
    expect(range.body).toMatchObject({
      databynode: [{ n1: { error: "timeout", errorcode: 504 } }, { n2: { state: { value: "on" } } }],
    });
    expect(e.state.power("n2")).toBe("on");
  });

  it("an unknown hardwaremanagement.method is an unhandled error naming the node (core.py BadPlugin)", async () => {
    const e = await start();
    const call = api(e);
    await call("POST", "/nodes/", {
      name: "n1",
      "hardwaremanagement.method": "nosuchplugin",
      bmc: "10.1.0.1",
    });
    expect(await call("GET", "/nodes/n1/power/state")).toEqual({
      status: 500,
      body: "500 - n1: nosuchplugin is not a supported plugin",
    });
  });
});

describe("server", () => {
  it("keeps nodes, groups, secrets and power across a restart on the same data file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cfe-data-"));
    try {
      const dataFile = join(dir, "confluent.sqlite");
      const first = await start({ dataFile });
      const call1 = api(first);
      await call1("POST", "/nodegroups/", { name: "compute", bmcpass: "s3cret" });
      await call1("POST", "/nodes/", { name: "n1", groups: "compute", bmc: "10.1.0.1" });
      await call1("PUT", "/nodes/n1/power/state", { state: "on" });
      await first.close();
      const second = await start({ dataFile, deploymentProfiles: ["other"] });
      const n1 = second.state.nodeAttributes("n1");
      expect(n1?.groups).toEqual(["compute", "everything"]);
      expect(n1?.["secret.hardwaremanagementpassword"]).toEqual({ inheritedfrom: "compute", isset: true });
      expect(second.state.power("n1")).toBe("on");
      // Profiles were seeded with the file; later options do not reseed them.
      expect((await api(second)("GET", "/deployment/profiles/")).body).toMatchObject({
        _links: { item: [{ href: "rocky-9.4-x86_64-default/" }, { href: "ubuntu-22.04-x86_64-default/" }] },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("seeds racks of nodes with expressions for their addresses", async () => {
    const e = await start({ seedCluster: "racks:2x3" });
    expect(e.state.nodeNames()).toEqual(["r01n01", "r01n02", "r01n03", "r02n01", "r02n02", "r02n03"]);
    expect(e.state.nodeAttributes("r02n03")).toMatchObject({
      groups: ["compute", "rack02", "everything"],
      "net.ipv4_address": { expression: "10.0.{n1}.{n2}", inheritedfrom: "compute", value: "10.0.2.3" },
      "secret.hardwaremanagementpassword": { inheritedfrom: "compute", isset: true },
      "hardwaremanagement.manager": { value: "10.1.2.3" },
    });
  });

  it("answers 401 to a wrong password and accepts the default account root / cluster", async () => {
    const e = await start();
    expect((await api(e, "root", "wrong")("GET", "/nodes/")).status).toBe(401);
    expect((await api(e)("GET", "/nodes/")).status).toBe(200);
  });

  it("parses its command line", () => {
    expect(
      parseArgs([
        "--port",
        "0",
        "--boot-seconds=2",
        "--fail-nodes",
        "n1,n2",
        "--hang-nodes",
        "n3",
        "--seed-cluster",
        "racks:1x2",
        "--deployment-profiles",
        "a,b",
        "--user",
        "admin",
        "--password",
        "pw",
        "--data",
        "x.sqlite",
      ]).options,
    ).toEqual({
      port: 0,
      bootSeconds: 2,
      failNodes: ["n1", "n2"],
      hangNodes: ["n3"],
      seedCluster: "racks:1x2",
      deploymentProfiles: ["a", "b"],
      user: "admin",
      password: "pw",
      dataFile: "x.sqlite",
    });
    expect(() => parseArgs(["--seed-cluster", "lots"])).toThrow(/racks:RxN/);
    expect(() => parseArgs(["--bogus"])).toThrow(/unknown option/);
  });
});
