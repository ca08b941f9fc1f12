/**
 * xCAT's own REST test cases (xcat2/xcat-core xCAT-test/autotest/testcase/restapi/<area>/cases*),
 * run through REST against a fresh emulator per case file as xcattest runs them
 * (./xcat-test/xcattest.ts) with restapitest (./xcat-test/restapitest.ts). The case files are read
 * from the xCAT source checkout (XCAT_CORE, default /tmp/xc); without it this file is skipped.
 * Run: `XCAT_CORE=/tmp/xc npx vitest run test/emulator/xcat-test-rest.test.ts`.
 *
 * Two passes:
 * - as written: the restapitest the cases were written for, which took missing credentials from
 *   its configuration and evaluated `cmdcheck: restapitest -o ... -O ...` (removed in xcat-core
 *   ac9979301, 2018). Every runnable case passes, except those that fail on a real MN too, listed
 *   with the reason in FAIL_ON_REAL_SERVICE.
 * - shipped: restapitest as it is at 7733d16f, which needs `-u`/`-p` and never compares `-o`: the
 *   cases that omit credentials or use `cmdcheck:` fail against any server; the others as above.
 *
 * Runnable: the case needs no hardware (`hcp:`, the lab's SLP-discovered CMMs and FSPs), no DNS
 * or DHCP daemon (makedns, makedhcp) and runs only restapitest and lsdef on the MN (lsdef through
 * ./xcat-test/lsdef-cli.ts). The top-level restapi/cases0 runs curl on a compute node through
 * xdsh (ssh), so it is out. The environment the cases were written for is set up first: the
 * compute node `$$CN` (virtualcn2, the only member of group all, as get_group_all expects), a
 * network `network1` (10.1.0.0/255.255.0.0, restapi/network/cases0), a network with mask
 * 255.0.0.0 (restapi/table/cases0 selects rows by it) and the images of a RHEL 6.5 copycds
 * (restapi/osimage/cases0 lists them before it runs copycds).
 */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EMULATOR_DEFAULT_PASSWORD } from "../../src/emulator";
import { call, createNode, useEmulator } from "./helpers";
import { parseCaseFile, shellWords, type TestCase } from "./xcat-test/case-file";
import { checkResult, parseJson, paths } from "./xcat-test/check-result";
import { runLsdef } from "./xcat-test/lsdef-cli";
import { type CommandRun, Restapitest, type RestapitestVersion } from "./xcat-test/restapitest";
import { runCase, substituteVariables } from "./xcat-test/xcattest";

const ROOT = join(process.env.XCAT_CORE ?? "/tmp/xc", "xCAT-test/autotest/testcase/restapi");
const FILES = [
  "node/cases0",
  "node/cases1",
  "global/cases0",
  "policy/cases0",
  "group/cases0",
  "osimage/cases0",
  "network/cases0",
  "service/cases0",
  "table/cases0",
];
const ACCOUNT = { user: "root", password: EMULATOR_DEFAULT_PASSWORD };
/** The xcattest configuration's variables (restapi.template: username, password, CN). */
const VARIABLES = { username: ACCOUNT.user, password: ACCOUNT.password, CN: "virtualcn2" };

/**
 * Cases that fail against a real MN too, as written; asserted to fail so that the list stays true.
 */
const FAIL_ON_REAL_SERVICE: Record<string, string> = {
  // '{"name":"root1",,"commands":"rpower"}' is not JSON: the CGI answers 400 before anything else
  // (xcatws.cgi:3473-3480), rc 144.
  post_policy: "malformed body",
  // put_policy_attr renames policy 1 (root allow) to root1: no rule lets root in any more, so xcatd
  // denies every later request of root (xcatd:2900-2903 makes the REST user the peer, xcatd.pm:107-190
  // finds no rule): 401, rc 145. put_policy_attr_changeback, which would restore it, is denied too.
  get_policy_attr_for_put: "root locked out by put_policy_attr",
  put_policy_attr_changeback: "root locked out by put_policy_attr",
  get_policy_attr_for_post: "root locked out by put_policy_attr",
  delete_policy: "root locked out by put_policy_attr",
  get_policy_attrs: "root locked out by put_policy_attr",
  // A successful POST answers 201 (xcatws.cgi:1487 STATUS_CREATED), and the image exists already
  // (put_images_attr created it with chdef), so mkdef fails: 403, rc 147.
  create_images: "expects 200 from a POST; mkdef of an existing image",
  get_images_for_post: "follows create_images: profile never set",
  // The file defines delete_images twice; xcattest keeps the last definition for the name
  // (xcattest:985-990), so the first delete_images removes the statelite-service instance and
  // the install-hpc image stays.
  get_images_all_for_delete: "delete_images runs its second definition",
  // Expected output names another image with broken JSON ('{"sles11.2-ppc64-install-compute":{osarch":...}').
  get_images_attr: "malformed expected output",
  // copycds defines no diskless service image (only compute.*pkglist is globbed,
  // SvrUtils.pm:1263-1288), so genimage/packimage/imgexport find no image (genimage.pm:142-145):
  // 403, rc 147, where the case expects 200 (a successful POST would be 201 anyway).
  post_images_attr_genimage: "no statelite-service image; expects 200 from a POST",
  post_images_attr_packimage: "no statelite-service image; expects 200 from a POST",
  post_images_attr_exportimage: "no statelite-service image; expects 200 from a POST",
  // rmimage derives /install/netboot/rhels6.5/x86_64/service from the name and finds no such
  // directory (rmimage.pm:136-179): 403, rc 147.
  delete_images: "no statelite-service image directory",
  // A GET answers 200, never 201.
  post_networks_attr: "expects 201 from a GET",
};

/** Why a case cannot run here, or undefined. */
function notRunnable(c: TestCase): string | undefined {
  if (c.hcp !== undefined) return `needs ${c.hcp} hardware`;
  const commands = c.steps.map((s) => shellWords(s.cmd)[0] ?? "");
  if (!commands.every((cmd) => cmd === "restapitest" || cmd === "lsdef"))
    return "runs other commands on the MN";
  const resources = c.steps.map((s) => {
    const words = shellWords(s.cmd);
    return words[words.indexOf("-r") + 1] ?? "";
  });
  if (resources.some((r) => /\/(dns|dhcp)$/.test(r))) return "needs the DNS/DHCP daemons";
  if (resources.some((r) => r.startsWith("/services/slpnodes"))) return "needs the lab's SLP hardware";
  return undefined;
}

/** The shipped restapitest fails whatever the server does: no credentials, or a cmdcheck (-o only). */
function failsWithShippedRestapitest(c: TestCase): boolean {
  return c.steps.some(
    (s) =>
      s.cmdchecks.length > 0 || (shellWords(s.cmd)[0] === "restapitest" && !shellWords(s.cmd).includes("-u")),
  );
}

/**
 * The cases of a file in the order xcattest runs them when given the file's case names: a name
 * defined twice runs its last definition each time (xcattest:985-990).
 */
function casesInRunOrder(text: string): TestCase[] {
  const cases = parseCaseFile(text);
  const last = new Map(cases.map((c) => [c.name, c]));
  return cases.map((c) => last.get(c.name) ?? c);
}

/** Sets up what the cases expect to find on the MN (see the file comment). */
async function setUpEnvironment(env: { xcat: Parameters<typeof call>[0] }): Promise<void> {
  await createNode(env.xcat, VARIABLES.CN, { groups: "all", mgt: "ipmi", bmc: "10.1.0.12", ip: "10.1.0.2" });
  const net = { net: "10.1.0.0", mask: "255.255.0.0", gateway: "10.1.0.1" };
  expect((await call(env.xcat, "POST", "/networks/network1", { body: net })).status).toBe(201);
  const wide = { net: "10.0.0.0", mask: "255.0.0.0", gateway: "10.0.0.254" };
  expect((await call(env.xcat, "POST", "/networks/wide", { body: wide })).status).toBe(201);
  const iso = { iso: "/iso/RHEL6.5-20131111.0-Server-x86_64-DVD1.iso" };
  expect((await call(env.xcat, "POST", "/osimages", { body: iso })).status).toBe(201);
}

/** The MN's shell for the cases: restapitest of the given version, and lsdef. */
function shell(baseUrl: string, version: RestapitestVersion): (line: string) => Promise<CommandRun> {
  const restapitest = new Restapitest(baseUrl, version, ACCOUNT);
  return async (line) => {
    const [command, ...args] = shellWords(line);
    if (command === "restapitest") return restapitest.run(args);
    if (command === "lsdef") return runLsdef(baseUrl, args, ACCOUNT);
    throw new Error(`not reproduced on the MN: ${line}`);
  };
}

const fileCases = (file: string) =>
  existsSync(join(ROOT, file)) ? casesInRunOrder(readFileSync(join(ROOT, file), "utf8")) : [];

describe.skipIf(!existsSync(ROOT))("xCAT-test REST cases against the emulator", () => {
  it("counts: every case is runnable, failing on the real service with a reason, or out with a reason", () => {
    const all = FILES.flatMap((file) => parseCaseFile(readFileSync(join(ROOT, file), "utf8")));
    const runnable = all.filter((c) => notRunnable(c) === undefined);
    const failing = runnable.filter((c) => FAIL_ON_REAL_SERVICE[c.name] !== undefined);
    expect({ total: all.length, runnable: runnable.length, failOnRealService: failing.length }).toEqual({
      total: 83,
      runnable: 66,
      failOnRealService: 16,
    });
    // Every name in the list is a runnable case of these files.
    for (const name of Object.keys(FAIL_ON_REAL_SERVICE)) expect(runnable.map((c) => c.name)).toContain(name);
  });

  for (const version of ["as-written", "shipped"] as const) {
    describe(`restapitest ${version}`, () => {
      for (const file of FILES) {
        describe(file, () => {
          const env = useEmulator();
          const cases = fileCases(file);
          // One MN per file: restapitest's saved result (/tmp/testrestapiresult) carries over.
          let mn: (line: string) => Promise<CommandRun> = () => Promise.reject(new Error("no MN"));
          it("sets up the environment the cases expect", async () => {
            await setUpEnvironment(env);
            mn = shell(env.xcat.url, version);
          });
          for (const c of cases.filter((one) => notRunnable(one) === undefined)) {
            const real = FAIL_ON_REAL_SERVICE[c.name];
            const shipped = version === "shipped" && failsWithShippedRestapitest(c);
            const label = real
              ? ` (fails on the real service: ${real})`
              : shipped
                ? " (fails with the shipped restapitest: no -u/-p, or cmdcheck)"
                : "";
            it(`${c.name}${label}`, async () => {
              const failure = await runCase(c, mn, VARIABLES);
              if (real || shipped) expect(failure).not.toBe("");
              else expect(failure).toBe("");
            });
          }
          const out = cases.filter((one) => notRunnable(one));
          it.skip(`not runnable here: ${out.map((one) => `${one.name} (${notRunnable(one)})`).join(", ") || "none"}`, () => {});
        });
      }
    });
  }
});

describe("restapitest's check_result (restapitest:233-545)", () => {
  const pretty =
    '{\n   "net1":{\n      "gateway":"10.1.0.1",\n      "usercomment":"REST API TEST",\n      "net":"10.1.0.0"\n   }\n}\n';
  it("reads pretty bodies into key:key:value paths; a value with a space reads as its key", () => {
    expect(paths(parseJson(pretty))).toEqual([
      "net1:gateway:10.1.0.1",
      "net1:usercomment:usercomment",
      "net1:net:10.1.0.0",
    ]);
    expect(paths(parseJson('[\n   "all",\n   "rack1"\n]\n'))).toEqual([
      "all:restapiarray",
      "rack1:restapiarray",
    ]);
  });
  it("compares the first expected path: == needs an equal one, != none, =~ a matching one", () => {
    expect(checkResult('{"net1":{"net":"10.1.0.0"}}', "==", pretty)).toBe(0);
    expect(checkResult('{"net1":{"net":"10.1.0.0"}}', "!=", pretty)).toBe(1);
    expect(checkResult('{"net1":{"net":"10.1"}}', "=~", pretty)).toBe(0);
    expect(checkResult('["rack1"]', "==", '[\n   "all"\n]\n')).toBe(1);
    // A malformed inner object reads as "" (no rule applies), leaving the path "net1:", which
    // equals any path of net1: get_images_attr fails only because it names another image.
    expect(checkResult('{"net1":{net":"10.1.0.0"}}', "==", pretty)).toBe(0);
    expect(checkResult('{"net2":{net":"10.1.0.0"}}', "==", pretty)).toBe(1);
  });
});

// Keeps substituteVariables' contract visible: a case naming a variable the configuration lacks
// is not run by xcattest (getvar's "miss attribute").
describe("xcattest variables", () => {
  it("replaces $$name from the configuration and refuses a missing one", () => {
    expect(substituteVariables("-r /nodes/$$CN -u $$username", VARIABLES)).toBe(
      "-r /nodes/virtualcn2 -u root",
    );
    expect(() => substituteVariables("$$SN", VARIABLES)).toThrow("miss attribute SN");
  });
});
