#!/usr/bin/env node
// Checks compressNoderange (src/contract/noderange.ts) against xCAT's own noderange parser: node
// name sets are compressed by our code and expanded by perl-xCAT/xCAT/NodeRange.pm, run in Perl
// from an xCAT source checkout with the nodelist table replaced by a stub that lists the names.
// Each set is expanded twice: with verification and the names defined (as xcatd does for action
// endpoints: nodeset, rpower, nodels), and without verification and nothing defined (as mkdef,
// chdef and lsdef do). Not part of npm test: it needs Perl and xCAT's source.
//
//   node scripts/check-noderange-with-xcat.mjs [--xcat-source /tmp/xc] [--sets 2000]
//
// Run `npm run build` first (it loads dist/). Prints the first differences and exits 1 if any.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { compressNoderange } = require(join(repoRoot, "dist/contract/noderange.js"));
const { createRandom } = require(join(repoRoot, "dist/emulator/random.js"));
const { values: args } = parseArgs({
  options: {
    "xcat-source": { type: "string", default: "/tmp/xc" },
    sets: { type: "string", default: "2000" },
  },
});

// The stub table answers what NodeRange.pm asks of nodelist (every node, in group "all") and of
// nodegroup (no dynamic groups); reset_db drops NodeRange.pm's 5-second node cache per line.
const harness = `use strict;
package xCAT::Table;
our @NODES;
sub new { my ($class, $table) = @_; return bless { table => $table }, $class; }
sub _set_use_cache {}
sub _build_cache {}
sub getAllAttribs { return map { { node => $_, groups => 'all' } } @NODES; }
sub getAllEntries { return []; }
$INC{'xCAT/Table.pm'} = 1;
package main;
use lib '${resolve(args["xcat-source"], "perl-xCAT")}';
require xCAT::NodeRange;
$| = 1;
while (my $line = <STDIN>) {
  chomp $line;
  my ($verify, $range, $nodes) = split /\\t/, $line, 3;
  xCAT::NodeRange::reset_db();
  @xCAT::Table::NODES = split /,/, ($nodes // '');
  my @names = eval { xCAT::NodeRange::noderange($range, $verify, 0) };
  print join(',', sort @names), "\\t", join(',', xCAT::NodeRange::nodesmissed()), "\\t", ($@ // ''), "\\n";
}
`;
const dir = mkdtempSync(join(tmpdir(), "noderange-xcat-"));
writeFileSync(join(dir, "expand.pl"), harness);
const perl = spawn("perl", [join(dir, "expand.pl")], { stdio: ["pipe", "pipe", "inherit"] });
const answers = createInterface({ input: perl.stdout })[Symbol.asyncIterator]();

async function xcatExpand(verify, range, defined) {
  perl.stdin.write(`${verify ? 1 : 0}\t${range}\t${defined.join(",")}\n`);
  const { value = "" } = await answers.next();
  const [names = "", missing = "", error = ""] = value.split("\t");
  return { names, missing, error: error.trim() };
}

/**
 * Name shapes a site uses, and some xCAT parses in unusual ways: dashes (an odd count of `-` in a
 * range, NodeRange.pm:411-421), underscores, a leading number, a text tail, IP addresses, bare
 * numbers (NodeRange.pm:328, which only work for defined nodes).
 */
const SHAPES = [
  (a, b) => `r${a(2)}n${b(2)}`,
  (a) => `cn${a(3)}`,
  (a) => `n${a(0)}`,
  (a, b) => `sw-${a(1)}-p${b(2)}`,
  (a, b) => `rack_${a(2)}_x${b(0)}`,
  (a, b) => `${a(0)}n${b(2)}`,
  (a, b) => `gpu${a(2)}-${b(1)}-b`,
  (a, b) => `a--${a(0)}-n-${b(0)}`,
  (a, b) => `10.0.${a(0)}.${b(0)}`,
  (a) => `${a(0)}`,
];

function nameSet(random) {
  const pick = (n) => Math.floor(random() * n);
  const names = new Set();
  for (let s = 1 + pick(3); s > 0; s--) {
    const shape = SHAPES[pick(SHAPES.length)];
    const keep = random();
    const [aFrom, aTo, bTo] = [pick(12), 1 + pick(40), 1 + pick(20)];
    for (let a = aFrom; a <= aTo; a++) {
      for (let b = 1; b <= bTo; b++) {
        if (random() > keep) continue;
        names.add(
          shape(
            (width) => String(a).padStart(width, "0"),
            (width) => String(b).padStart(width, "0"),
          ),
        );
      }
    }
  }
  return [...names];
}

let differences = 0;
const sets = Number(args.sets);
try {
  for (let seed = 1; seed <= sets; seed++) {
    const names = nameSet(createRandom(seed));
    const range = compressNoderange(names);
    const want = [...names].sort().join(",");
    const checks = [["verified, names defined", await xcatExpand(true, range, names)]];
    // A bare number means node<N> unless a node of that name is defined (NodeRange.pm:328).
    if (!names.some((name) => /^\d+$/.test(name))) {
      checks.push(["unverified, nothing defined", await xcatExpand(false, range, [])]);
    }
    for (const [how, got] of checks) {
      if (got.names === want && got.missing === "" && got.error === "") continue;
      if (differences++ < 5)
        console.log(`seed ${seed} (${how}): ${range}\n  xCAT: ${JSON.stringify(got)}\n  want: ${want}`);
    }
  }
} finally {
  perl.stdin.end();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${sets} name sets compressed and expanded by xCAT's NodeRange.pm: ${differences} differences`);
process.exitCode = differences === 0 ? 0 : 1;
