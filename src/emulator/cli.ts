#!/usr/bin/env node
/**
 * xcat-emulator: runs the emulated xCAT REST service until SIGINT/SIGTERM. A thin wrapper over
 * startEmulator(); the first line on stdout is always `xcat-emulator listening on <base URL>` (the
 * command's lifecycle: emulator-kit/run-command.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isXcatVersion, NEWEST_XCAT_VERSION, XCAT_VERSIONS } from "../contract/xcat-versions";
import { readCommandLine, readCommonOption, runEmulatorCommand, UsageError } from "../emulator-kit";
import { EMULATOR_DEFAULT_PASSWORD, EMULATOR_DEFAULT_USER } from "./default-account";
import type { EmulatorOptions } from "./options";
import { startEmulator } from "./start-emulator";
import { type MnInterface, parseMnInterface } from "./store/mn-interfaces";

const USAGE = `Usage: xcat-emulator [options]

Emulates the xCAT REST web service (xcatws) on a local port.

Options:
  --port N            TCP port (default 8443; 0 picks a free port)
  --host ADDR         address to listen on (default 127.0.0.1)
  --https             serve HTTPS with a self-signed certificate generated at start
  --cert FILE         PEM certificate to serve HTTPS with (needs --key)
  --key FILE          PEM private key of --cert
  --data FILE         SQLite file keeping the data across restarts (default: in memory)
  --user NAME         account name (default root)
  --password PW       account password (default ${EMULATOR_DEFAULT_PASSWORD})
  --fault-rate R      fraction 0..1 of requests hitting a transient fault (503, 408, dropped)
  --latency MIN-MAX   random delay added per request, in milliseconds
  --token-ttl SECONDS token validity, overriding site.tokenexpiredays
  --seed N            seed for faults and generated data (default 1)
  --boot-seconds S    seconds a node takes from power-on to booted (default 30)
  --cost-model xcat   each request costs what a real xCAT management node takes (~0.3 s of CPU
                      plus per-object work; see docs/large-stacks.md); default none
  --mn-cpus N         CPUs of the emulated management node for the cost model (default 2)
  --fail-nodes LIST   comma-separated nodes whose installation fails
  --hang-nodes LIST   comma-separated nodes that hang in the installer
  --mn-interface NAME=IP/PREFIX[,GATEWAY]
                      an interface of the emulated management node, for makenetworks and
                      GET /localres/adapters (repeatable; replaces the default eth0
                      10.0.0.1/16,10.0.0.254 and eth1 192.168.122.10/24,192.168.122.1)
  --seed-cluster SPEC add a cluster to try \`pulumi-xcat import\` on: racks:RxN (R racks of N
                      nodes plus login, KVM and VM nodes), demo-600 (= racks:20x30) or a JSON file
  --xcat-version V    the xCAT release to behave as where releases differ: 2.16.5, 2.17.0,
                      2.18.2 or 2.19 (default 2.19; see docs/xcat-versions.md)
  --json-decoder M    the Perl JSON module whose messages a malformed body gets: JSON::XS
                      (default; what JSON.pm uses when it is installed) or JSON::PP
  --help              show this help
`;

/** Parses the command line into emulator options (exported for tests). */
export function parseArgs(argv: readonly string[]): {
  options: EmulatorOptions;
  help: boolean;
  cert?: string;
  key?: string;
} {
  const options: { -readonly [K in keyof EmulatorOptions]: EmulatorOptions[K] } = { port: 8443 };
  let cert: string | undefined;
  let key: string | undefined;
  let https = false;
  const interfaces: MnInterface[] = [];
  const { help } = readCommandLine(argv, (option) => {
    if (readCommonOption(option, options)) return;
    switch (option.flag) {
      case "--https":
        https = true;
        break;
      case "--cert":
        cert = option.value();
        break;
      case "--key":
        key = option.value();
        break;
      case "--fault-rate":
        options.faultRate = option.number((n) => n >= 0 && n <= 1);
        break;
      case "--latency": {
        const text = option.value();
        const m = /^(\d+)-(\d+)$/.exec(text);
        if (!m || Number(m[1]) > Number(m[2]))
          throw new UsageError(`invalid value for --latency: ${text} (expected MIN-MAX)`);
        options.latencyMs = [Number(m[1]), Number(m[2])];
        break;
      }
      case "--token-ttl":
        options.tokenTtlSeconds = option.number((n) => n > 0);
        break;
      case "--seed":
        options.seed = option.number((n) => Number.isInteger(n));
        break;
      case "--cost-model": {
        const model = option.value();
        if (model !== "xcat" && model !== "none")
          throw new UsageError(`invalid value for --cost-model: ${model} (expected xcat or none)`);
        options.costModel = model;
        break;
      }
      case "--mn-cpus":
        options.mnCpus = option.number((n) => n > 0);
        break;
      case "--mn-interface": {
        const text = option.value();
        try {
          interfaces.push(parseMnInterface(text));
        } catch (error) {
          throw new UsageError(`invalid value for --mn-interface: ${(error as Error).message}`);
        }
        break;
      }
      case "--seed-cluster":
        options.seedCluster = option.value();
        break;
      case "--xcat-version": {
        const version = option.value();
        if (!isXcatVersion(version)) {
          throw new UsageError(
            `invalid value for --xcat-version: ${version} (one of ${XCAT_VERSIONS.join(", ")})`,
          );
        }
        options.xcatVersion = version;
        break;
      }
      case "--json-decoder": {
        const decoder = option.value();
        if (decoder !== "JSON::XS" && decoder !== "JSON::PP") {
          throw new UsageError(`invalid value for --json-decoder: ${decoder} (JSON::XS or JSON::PP)`);
        }
        options.jsonDecoder = decoder;
        break;
      }
      default:
        throw option.unknown();
    }
  });
  if (help) return { options, help };
  if (interfaces.length > 0) {
    const names = interfaces.map((nic) => nic.name);
    const twice = names.find((name, i) => names.indexOf(name) !== i);
    if (twice !== undefined) throw new UsageError(`--mn-interface names ${twice} twice`);
    options.mnInterfaces = interfaces;
  }
  if ((cert === undefined) !== (key === undefined)) throw new UsageError("--cert and --key go together");
  if (cert !== undefined && key !== undefined) {
    options.https = { cert: readFileSync(cert, "utf8"), key: readFileSync(key, "utf8") };
  } else if (https) {
    options.https = true;
  }
  return { options, help: false, ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}

if (require.main === module) {
  runEmulatorCommand({
    name: "xcat-emulator",
    usage: USAGE,
    parse: parseArgs,
    async start(parsed) {
      const { options } = parsed;
      const emulator = await startEmulator(options);
      const lines = [`xcat-emulator listening on ${emulator.url}`];
      lines.push(
        `account: ${options.user ?? EMULATOR_DEFAULT_USER} / ${options.password ?? EMULATOR_DEFAULT_PASSWORD}`,
      );
      if (emulator.caCertPem) {
        const file = join(tmpdir(), `xcat-emulator-ca-${process.pid}.pem`);
        writeFileSync(file, emulator.caCertPem);
        lines.push(`CA certificate: ${file}`);
      } else if (parsed.cert) {
        lines.push(`certificate: ${parsed.cert}`);
      }
      lines.push(`data: ${options.dataFile ?? "in memory"}`);
      lines.push(`xCAT version: ${options.xcatVersion ?? NEWEST_XCAT_VERSION}`);
      return { lines, close: () => emulator.close() };
    },
  });
}
