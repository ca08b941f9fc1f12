#!/usr/bin/env node
// Run after each build (`npm run build`, so also by `npm ci` through `prepare`): makes this
// checkout usable the way an installed copy of the package is.
//   node_modules/pulumi-xcat -> ..   Programs in this repository (the demo lab, examples) run with
//       the repository as their Pulumi project, and Pulumi's dynamic-provider host requires
//       `pulumi-xcat` from the project's node_modules.
//   node_modules/.bin/xcat-emulator, confluent-emulator, pulumi-xcat, pulumi-resource-xcat  npm links the bins of dependencies, never a package's own, so
//       without it `npx xcat-emulator` in the checkout goes through npx's own install first.
import { existsSync, lstatSync, mkdirSync, symlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const nodeModules = join(repoRoot, "node_modules");
// Not a development checkout (no dependencies installed here): nothing to link.
if (!existsSync(nodeModules)) process.exit(0);

function link(path, target) {
  try {
    lstatSync(path);
    return; // already there (a link, or a real install of the package)
  } catch {
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(target, path);
  }
}

link(join(nodeModules, "pulumi-xcat"), "..");
link(join(nodeModules, ".bin", "xcat-emulator"), "../pulumi-xcat/dist/emulator/cli.js");
link(join(nodeModules, ".bin", "confluent-emulator"), "../pulumi-xcat/dist/confluent-emulator/cli.js");
link(join(nodeModules, ".bin", "pulumi-xcat"), "../pulumi-xcat/dist/cli/main.js");
link(join(nodeModules, ".bin", "pulumi-resource-xcat"), "../pulumi-xcat/dist/native/main.js");
