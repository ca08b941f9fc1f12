#!/usr/bin/env node
// Sends the same sequence of requests (every route of src/contract/routes.ts, with typical and bad
// inputs) to a real xCAT management node and to a fresh emulator, and reports how many answers
// match: status and body, after the parts that depend on the machine are normalized (token ids
// and expiry, error lines in Perl's random hash order, other objects on the real node in list
// answers). Exchanges whose answer depends on the machine itself (its interfaces, resolvers,
// host name, hardware reachability) are sent but counted apart. Not part of npm test: it needs a
// management node that serves no production cluster; it creates objects named with a prefix and
// removes them at the end.
//
//   source <env with XCAT_E2E_URL, XCAT_E2E_USERNAME, XCAT_E2E_PASSWORD, XCAT_E2E_CA_CERT>
//   node scripts/compare-with-xcat.mjs [--xcat-version 2.19] [--prefix cmp] [--show-differences]
//
// Run `npm run build` first (it loads dist/). Exits 0; prints the share and each difference.
import { readFileSync } from "node:fs";
import https from "node:https";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { startEmulator } = require(join(repoRoot, "dist/emulator/index.js"));
const { values: args } = parseArgs({
  options: {
    "xcat-version": { type: "string", default: "2.19" },
    prefix: { type: "string", default: "cmp" },
    "show-differences": { type: "boolean", default: false },
  },
});

const { XCAT_E2E_URL: realUrl, XCAT_E2E_USERNAME: user, XCAT_E2E_PASSWORD: password } = process.env;
if (!realUrl || !user || !password) {
  console.error("Set XCAT_E2E_URL, XCAT_E2E_USERNAME and XCAT_E2E_PASSWORD (and XCAT_E2E_CA_CERT).");
  process.exit(2);
}
const ca = process.env.XCAT_E2E_CA_CERT ? readFileSync(process.env.XCAT_E2E_CA_CERT) : undefined;
const p = args.prefix;
const priority = "8.4321";

/**
 * [method, path, body (a string is sent as is), options]; `machine`: the answer depends on the
 * machine (counted apart); `list`: an answer listing names, compared on the prefixed ones only;
 * `rows`: table rows, compared on the rows of prefixed nodes only. BMC addresses are on
 * 127.0.10.x where nothing answers, so no request reaches hardware.
 */
const EXCHANGES = [
  ["POST", "/tokens", { userName: user, userPW: password }],
  ["POST", "/tokens", { userName: user, userPW: "wrong" }],
  ["GET", "/nodes", undefined, { auth: "wrong", list: true }],
  ["GET", "/", undefined],
  ["GET", "/nosuchresource", undefined],
  ["PUT", `/groups/${p}grp`, { mgt: "ipmi", netboot: "xnba", bmcusername: "ADMIN" }],
  ["PUT", `/groups/${p}plain`, { usercomment: "plain" }],
  ["POST", `/nodes/${p}n[1-3]`, { groups: `${p}grp`, usercomment: "c" }],
  ["POST", `/nodes/${p}nb`, { groups: `${p}plain` }],
  ["GET", "/nodes", undefined, { list: true }],
  ["GET", `/nodes/${p}n1`],
  ["GET", `/nodes/${p}n[1-3]/attrs/groups,mgt,netboot`],
  ["GET", `/nodes/${p}n1/attrs/nosuchattr`],
  ["GET", `/nodes/${p}none/attrs/nosuchattr`],
  ["GET", `/nodes/${p}none`],
  ["GET", `/nodes/${p}n1,${p}none`],
  ["PUT", `/nodes/${p}n1`, { usercomment: "x", ip: "10.99.0.1" }],
  ["PUT", `/nodes/${p}n1`, { ip: "" }],
  ["GET", `/nodes/${p}n1/attrs/ip,usercomment`],
  ["PUT", `/nodes/${p}n1`, { nosuchattr: "1" }],
  ["PUT", `/nodes/${p}n1`, { bmc: "127.0.10.201" }],
  ["PUT", `/nodes/${p}nb`, { bmc: "127.0.10.202", usercomment: "y" }],
  ["PUT", `/nodes/${p}nb`, { bmc: "127.0.10.202", bmcpassword: "p", usercomment: "y" }],
  ["GET", `/nodes/${p}nb/attrs/bmc,usercomment`],
  ["PUT", `/nodes/${p}n4`, { mgt: "ipmi" }],
  ["POST", `/nodes/${p}n5`, {}],
  ["POST", `/nodes/${p}n1`, { groups: `${p}grp` }],
  ["POST", `/nodes/${p}n6`, { groups: `${p}grp`, nosuchattr: "1" }],
  ["GET", `/nodes/${p}n6`],
  ["PUT", `/nodes/${p}n1`, '{"usercomment":'],
  ["PUT", `/nodes/${p}n1`, "abc"],
  ["PUT", `/nodes/${p}n1`, "[1,2]"],
  ["PUT", `/nodes/${p}n1`, '{"a":1,}'],
  ["PUT", `/nodes/${p}n1`, '{"a":tru}'],
  ["PUT", `/nodes/${p}n1`, {}],
  ["DELETE", `/nodes/${p}none`],
  ["GET", `/nodes/${p}n1/bootstate`],
  ["GET", `/nodes/${p}nb/bootstate`],
  ["GET", `/nodes/${p}n1,${p}nb/bootstate`],
  ["PUT", `/nodes/${p}nb/bootstate`, { osimage: `${p}img` }],
  ["PUT", `/nodes/${p}n1/bootstate`, { osimage: `${p}noimg` }],
  ["PUT", `/nodes/${p}n1/bootstate`, { action: "install" }],
  ["GET", `/nodes/${p}nb/power`],
  ["PUT", `/nodes/${p}nb/power`, { action: "on" }],
  ["PUT", `/nodes/${p}nb/power`, {}],
  ["PUT", `/nodes/${p}n1/power`, { action: "dance" }],
  ["GET", `/nodes/${p}n1/power`, undefined, { machine: true }],
  ["GET", `/nodes/${p}nb/vitals`],
  ["GET", `/nodes/${p}nb/vitals/temp`],
  ["GET", `/nodes/${p}nb/inventory`],
  ["GET", `/nodes/${p}nb/inventory/serial`],
  ["GET", `/nodes/${p}nb/eventlog`],
  ["DELETE", `/nodes/${p}nb/eventlog`],
  ["GET", `/nodes/${p}nb/beacon`],
  ["PUT", `/nodes/${p}nb/beacon`, { action: "on" }],
  ["GET", `/nodes/${p}nb/energy`],
  ["GET", `/nodes/${p}nb/energy/cappingstatus`],
  ["PUT", `/nodes/${p}nb/energy`, { cappingstatus: "on" }],
  ["GET", `/nodes/${p}nb/sp/ip`],
  ["PUT", `/nodes/${p}nb/sp/ip`, { value: "10.1.0.9" }],
  ["GET", `/nodes/${p}nb/nextboot`],
  ["PUT", `/nodes/${p}nb/nextboot`, { order: "net" }],
  ["GET", `/nodes/${p}nb/subnodes`],
  ["GET", `/nodes/${p}nb/nodestat`, undefined, { machine: true }],
  ["GET", `/nodes/${p}n[1-3]/nodels`],
  ["GET", `/nodes/${p}n1/nosuchresource`],
  ["POST", `/nodes/${p}nb/host`, undefined, { machine: true }],
  ["POST", `/nodes/${p}nb/dns`, undefined, { machine: true }],
  ["POST", `/nodes/${p}nb/dhcp`, undefined, { machine: true }],
  ["POST", `/nodes/${p}nb/nodeshell`, {}],
  ["POST", `/nodes/${p}nb/nodecopy`, {}],
  ["POST", `/nodes/${p}nb/postscript`, { scripts: "notanarray" }],
  ["POST", `/nodes/${p}nb/vm`, {}],
  ["PUT", `/nodes/${p}nb/vm`, { cpucount: "2" }],
  ["DELETE", `/nodes/${p}nb/vm`],
  ["POST", `/nodes/${p}nb/vmclone`, {}],
  ["POST", `/nodes/${p}nb/vmmigrate`, {}],
  [
    "PUT",
    `/osimages/${p}img`,
    { imagetype: "linux", provmethod: "netboot", osvers: "rhels9.4", osarch: "x86_64", profile: "compute" },
  ],
  ["GET", `/osimages/${p}img`],
  ["GET", `/osimages/${p}img/attrs/osvers,nosuchattr`],
  ["GET", `/osimages/${p}img/attrs/osvers,profile`],
  ["GET", "/osimages", undefined, { list: true }],
  ["POST", `/osimages/${p}img2`, {}],
  ["POST", `/osimages/${p}img2`, { imagetype: "linux", nosuchattr: "1" }],
  ["POST", "/osimages", { iso: `/tmp/${p}nosuch.iso` }],
  ["POST", `/osimages/${p}img/instance`, { action: "gen" }, { machine: true }],
  ["POST", `/osimages/${p}noimg/instance`, { action: "gen" }],
  ["POST", `/osimages/${p}img/instance`, { action: "pack" }, { machine: true }],
  ["DELETE", `/osimages/${p}img/instance`],
  ["PUT", `/nodes/${p}nb/bootstate`, { osimage: `${p}img` }],
  ["DELETE", `/osimages/${p}img`],
  ["DELETE", `/osimages/${p}img2`],
  ["DELETE", `/osimages/${p}img`],
  ["POST", `/networks/${p}net`, { net: "10.98.0.0", mask: "255.255.0.0" }],
  ["POST", `/networks/${p}net`, { net: "10.98.0.0", mask: "255.255.0.0" }],
  ["POST", `/networks/${p}net2`, { net: "10.97.0.0" }],
  ["GET", `/networks/${p}net`],
  ["PUT", `/networks/${p}net`, { gateway: "10.98.0.254" }],
  ["GET", `/networks/${p}net/attrs/gateway,net,nosuchattr`],
  ["GET", `/networks/${p}net/attrs/gateway,net`],
  ["GET", "/networks", undefined, { list: true }],
  ["POST", "/networks", {}, { machine: true }],
  ["DELETE", `/networks/${p}net`],
  ["DELETE", `/networks/${p}net`],
  ["POST", `/policy/${priority}`, { name: `${p}user`, rule: "allow" }],
  ["GET", `/policy/${priority}`],
  ["GET", `/policy/${priority}/attrs/name,rule`],
  ["PUT", `/policy/${priority}`, { rule: "deny" }],
  ["GET", "/policy/1"],
  ["GET", "/policy/1.2", undefined, { machine: true }],
  ["GET", "/policy", undefined, { list: true }],
  ["DELETE", `/policy/${priority}`],
  ["DELETE", `/policy/${priority}`],
  ["GET", `/groups/${p}grp`],
  ["GET", `/groups/${p}grp/attrs/grouptype,members,mgt`],
  ["GET", `/groups/${p}none`],
  ["GET", "/groups", undefined, { list: true }],
  ["DELETE", `/groups/${p}plain`],
  ["GET", "/globalconf/attrs/xcatdport,xcatiport"],
  ["GET", "/globalconf", undefined, { machine: true }],
  ["PUT", `/globalconf/attrs/${p}key`, { [`${p}key`]: "v" }],
  ["GET", `/globalconf/attrs/${p}key`],
  ["DELETE", `/globalconf/attrs/${p}key`],
  ["GET", `/globalconf/attrs/${p}key`],
  ["GET", "/tables/nosuchtable/rows"],
  ["GET", `/tables/nodelist/nodes/${p}n1`],
  ["GET", `/tables/nodelist,noderes/nodes/${p}n1/groups,netboot`],
  ["PUT", `/tables/noderes/nodes/${p}n1`, { noderes: { xcatmaster: "10.0.0.1" } }],
  ["PUT", `/tables/noderes/nodes/${p}n1`, { noderes: { nosuchcolumn: "1" } }],
  ["GET", `/tables/noderes/nodes/${p}n1/xcatmaster`],
  ["GET", "/tables/site/rows/key=xcatdport"],
  ["GET", "/tables/site/rows/key=xcatdport/value"],
  ["GET", "/tables/postscripts/rows/node=xcatdefaults"],
  ["GET", "/tables/postscripts/rows/node=xcatdefaults/postscripts,postbootscripts"],
  ["PUT", `/tables/site/rows/key=${p}k2`, { value: "v2" }],
  ["GET", `/tables/site/rows/key=${p}k2`],
  ["DELETE", `/tables/site/rows/key=${p}k2`],
  ["GET", `/tables/site/rows/key=${p}k2`],
  ["GET", "/services/slpnodes", undefined, { machine: true }],
  ["GET", "/localres/interface"],
  ["GET", "/localres/adapters/detail"],
  // What `pulumi-xcat review`, Deployment and PowerState send, in the client's own forms:
  // review's one table read, Deployment's image check, status reads, nodeset/rsetboot/rpower and
  // the destroy's nodeset offline and rpower off, PowerState's node list and rpower.
  [
    "PUT",
    `/osimages/${p}dimg`,
    { imagetype: "linux", provmethod: "netboot", osvers: "rhels9.4", osarch: "x86_64", profile: "compute" },
  ],
  [
    "POST",
    `/nodes/${p}d[1-2]`,
    {
      groups: `${p}dgrp`,
      mgt: "ipmi",
      netboot: "xnba",
      ip: "|\\D+(\\d+)$|10.96.0.($1+0)|",
      mac: "|\\D+(\\d+)$|02:00:00:00:00:0($1+0)|",
      bmc: "|\\D+(\\d+)$|127.0.10.2($1+0)|",
    },
  ],
  ["POST", `/nodes/${p}d3`, { groups: `${p}dgrp`, netboot: "xnba", mac: "02:00:00:00:00:03" }],
  ["POST", `/nodes/${p}d4`, { groups: `${p}dgrp`, netboot: "xnba", ip: "10.96.0.4" }],
  ["GET", "/tables/hosts,nodelist,noderes,nodetype/rows", undefined, { rows: true }],
  ["GET", `/osimages/${p}dimg`],
  ["GET", `/osimages/${p}dnoimg`],
  ["GET", `/nodes/${p}d[1-2]/attrs/provmethod,status,statustime`],
  ["PUT", `/nodes/${p}d3/bootstate`, { osimage: `${p}dimg` }],
  ["PUT", `/nodes/${p}d4/bootstate`, { osimage: `${p}dimg` }],
  ["PUT", `/nodes/${p}d3,${p}d4/bootstate`, { osimage: `${p}dimg` }],
  ["GET", `/nodes/${p}d3,${p}d4/attrs/provmethod,os,currstate`],
  // The MN has no DHCP server and the BMCs do not exist: machine-dependent.
  ["PUT", `/nodes/${p}d[1-2]/bootstate`, { osimage: `${p}dimg` }, { machine: true }],
  ["PUT", `/nodes/${p}d[1-2]/nextboot`, { order: "net" }, { machine: true }],
  ["PUT", `/nodes/${p}d[1-2]/power`, { action: "boot" }, { machine: true }],
  ["GET", `/nodes/${p}d[1-2]/attrs/status,statustime`],
  ["GET", `/nodes/${p}d[1-2]/attrs/groups`],
  ["PUT", `/nodes/${p}d[1-2]/bootstate`, { state: "offline" }, { machine: true }],
  ["PUT", `/nodes/${p}d[1-2]/power`, { action: "off" }, { machine: true }],
  ["GET", `/nodes/${p}d[1-2]/power`, undefined, { machine: true }],
  ["DELETE", `/nodes/${p}d[1-4]`],
  ["DELETE", `/osimages/${p}dimg`],
  ["DELETE", `/tables/nodegroup/rows/groupname=${p}dgrp`],
  ["DELETE", `/nodes/${p}n[1-6],${p}nb`],
  ["GET", `/nodes/${p}n1`],
  ["DELETE", `/tables/nodegroup/rows/groupname=${p}grp`],
  ["DELETE", `/tables/nodegroup/rows/groupname=${p}plain`],
];

function request(base, method, path, body, auth, caCert) {
  const url = new URL(`${base}${path}`);
  url.searchParams.set("userName", user);
  url.searchParams.set("userPW", auth ?? password);
  const data = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  const client = url.protocol === "https:" ? https : require("node:http");
  return new Promise((resolveReply, reject) => {
    const req = client.request(
      url,
      {
        method,
        ...(caCert ? { ca: caCert } : {}),
        // Apache hands a chunked body to the CGI as no body at all: always send the length.
        headers:
          data === undefined
            ? {}
            : { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) },
        timeout: 900_000,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolveReply({ status: res.statusCode, text }));
      },
    );
    req.on("error", reject);
    if (data !== undefined) req.write(data);
    req.end();
  });
}

/**
 * The management node's host name, as xcatd names itself in `xcatdsource` (xcatd puts it in
 * every table answer); nodeset's plugins also end a failure with it ("... on <host>.").
 */
async function hostNameOf(base, caCert) {
  const reply = await request(
    base,
    "GET",
    "/tables/site/rows/key=xcatdport/value",
    undefined,
    undefined,
    caCert,
  );
  return /"xcatdsource":"([^"]+)"/.exec(reply.text)?.[1];
}

/** The parts of an answer that do not depend on the machine, as a comparable string. */
function normalize(text, options, hostName) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return text.trim();
  }
  const walk = (v) => {
    if (Array.isArray(v)) {
      const items = v.map(walk);
      if (options.list) return items.filter((i) => typeof i !== "string" || i.startsWith(p)).sort();
      if (options.rows) {
        return items
          .filter((row) => typeof row?.node === "string" && row.node.startsWith(p))
          .sort((a, b) => (a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
      }
      // Lines of one error answer come in Perl's hash order on a real node.
      return items.every((i) => typeof i === "string") ? [...items].sort() : items;
    }
    // "Failed to generate xnba configurations for some node(s) on <host>. ..." (xnba.pm:747).
    if (typeof v === "string" && hostName) return v.replaceAll(` on ${hostName}. `, " on <mn>. ");
    if (v && typeof v === "object") {
      const out = {};
      for (const key of Object.keys(v).sort()) {
        if (options.list && key !== "error" && !key.startsWith(p) && typeof v[key] === "object") continue;
        out[key] = walk(v[key]);
      }
      if (out.token && typeof out.token === "object") out.token = { expire: "<expire>", id: "<id>" };
      // The management node's host name, and group members in Perl's hash order.
      if (typeof out.xcatdsource === "string") out.xcatdsource = "<mn>";
      if (typeof out.members === "string") out.members = out.members.split(",").sort().join(",");
      return out;
    }
    return v;
  };
  return JSON.stringify(walk(value));
}

// The emulator takes the same account, so the bodies that carry it are the same.
const emulator = await startEmulator({ user, password, xcatVersion: args["xcat-version"] });
const results = [];
const [realHost, emulatorHost] = [await hostNameOf(realUrl, ca), await hostNameOf(emulator.url)];
try {
  for (const [method, path, body, options = {}] of EXCHANGES) {
    const [real, emu] = [
      await request(realUrl, method, path, body, options.auth, ca),
      await request(emulator.url, method, path, body, options.auth),
    ];
    const same =
      real.status === emu.status &&
      normalize(real.text, options, realHost) === normalize(emu.text, options, emulatorHost);
    results.push({ method, path, body, options, real, emu, same });
    process.stderr.write(same ? "." : options.machine ? "m" : "x");
  }
} finally {
  await emulator.close();
}
process.stderr.write("\n");
const independent = results.filter((r) => !r.options.machine);
const matched = independent.filter((r) => r.same).length;
const machine = results.filter((r) => r.options.machine);
console.log(
  `xCAT at ${realUrl} vs emulator ${args["xcat-version"]}: ${matched}/${independent.length} machine-independent exchanges match (${((100 * matched) / independent.length).toFixed(1)}%); machine-dependent: ${machine.filter((r) => r.same).length}/${machine.length} match`,
);
for (const r of results.filter((x) => !x.same && (args["show-differences"] || !x.options.machine))) {
  const body = r.body === undefined ? "" : ` ${typeof r.body === "string" ? r.body : JSON.stringify(r.body)}`;
  console.log(`\n${r.options.machine ? "(machine) " : ""}${r.method} ${r.path}${body}`);
  console.log(`  real ${r.real.status} ${r.real.text.trim().slice(0, 400)}`);
  console.log(`  emu  ${r.emu.status} ${r.emu.text.trim().slice(0, 400)}`);
}
