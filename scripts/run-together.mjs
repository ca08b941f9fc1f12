#!/usr/bin/env node
/**
 * Runs shell commands at the same time and fails when any fails: `npm test`'s checks (the two
 * type-checks and the linter), each a single process that uses one core, so on the 2-core
 * machines here running them together takes the time of the longest instead of their sum.
 * Each command's output is printed whole when it ends, so outputs do not interleave.
 *
 *   node scripts/run-together.mjs "<command>" "<command>" ...
 */
import { spawn } from "node:child_process";

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/run-together.mjs "<command>" ["<command>" ...]');
  process.exit(2);
}

function run(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("error", (error) => resolve({ command, code: 1, output: Buffer.from(`${error.message}\n`) }));
    child.on("close", (code, signal) =>
      resolve({ command, code: code ?? (signal ? 1 : 0), output: Buffer.concat(output) }),
    );
  }).then((result) => {
    process.stdout.write(`> ${result.command}\n`);
    process.stdout.write(result.output);
    if (result.code !== 0) process.stdout.write(`${result.command} failed (exit ${result.code})\n`);
    return result.code;
  });
}

const codes = await Promise.all(commands.map(run));
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
