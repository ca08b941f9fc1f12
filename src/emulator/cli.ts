#!/usr/bin/env node
/**
 * xcat-emulator: runs the emulated xCAT REST service until SIGINT/SIGTERM. A thin wrapper over
 * startEmulator(); the first line on stdout is always `xcat-emulator listening on <base URL>`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isXcatVersion, NEWEST_XCAT_VERSION, XCAT_VERSIONS } from "../contract/xcat-versions";
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

class UsageError extends Error {}

function number(flag: string, text: string | undefined, check: (n: number) => boolean): number {
  const n = Number(text);
  if (text === undefined || text === "" || !Number.isFinite(n) || !check(n)) {
    throw new UsageError(`invalid value for ${flag}: ${text ?? "(missing)"}`);
  }
  return n;
}

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
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || (inline === undefined && v.startsWith("--")))
        throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--help":
      case "-h":
        return { options, help: true };
      case "--port":
        options.port = number(flag, value(), (n) => Number.isInteger(n) && n >= 0 && n <= 65535);
        break;
      case "--host":
        options.host = value();
        break;
      case "--https":
        https = true;
        break;
      case "--cert":
        cert = value();
        break;
      case "--key":
        key = value();
        break;
      case "--data":
        options.dataFile = value();
        break;
      case "--user":
        options.user = value();
        break;
      case "--password":
        options.password = value();
        break;
      case "--fault-rate":
        options.faultRate = number(flag, value(), (n) => n >= 0 && n <= 1);
        break;
      case "--latency": {
        const text = value();
        const m = /^(\d+)-(\d+)$/.exec(text);
        if (!m || Number(m[1]) > Number(m[2]))
          throw new UsageError(`invalid value for --latency: ${text} (expected MIN-MAX)`);
        options.latencyMs = [Number(m[1]), Number(m[2])];
        break;
      }
      case "--token-ttl":
        options.tokenTtlSeconds = number(flag, value(), (n) => n > 0);
        break;
      case "--seed":
        options.seed = number(flag, value(), (n) => Number.isInteger(n));
        break;
      case "--cost-model": {
        const model = value();
        if (model !== "xcat" && model !== "none")
          throw new UsageError(`invalid value for --cost-model: ${model} (expected xcat or none)`);
        options.costModel = model;
        break;
      }
      case "--mn-cpus":
        options.mnCpus = number(flag, value(), (n) => n > 0);
        break;
      case "--boot-seconds":
        options.bootSeconds = number(flag, value(), (n) => n >= 0);
        break;
      case "--fail-nodes":
        options.failNodes = value()
          .split(",")
          .filter((n) => n !== "");
        break;
      case "--hang-nodes":
        options.hangNodes = value()
          .split(",")
          .filter((n) => n !== "");
        break;
      case "--mn-interface": {
        const text = value();
        try {
          interfaces.push(parseMnInterface(text));
        } catch (error) {
          throw new UsageError(`invalid value for --mn-interface: ${(error as Error).message}`);
        }
        break;
      }
      case "--seed-cluster":
        options.seedCluster = value();
        break;
      case "--xcat-version": {
        const version = value();
        if (!isXcatVersion(version)) {
          throw new UsageError(
            `invalid value for --xcat-version: ${version} (one of ${XCAT_VERSIONS.join(", ")})`,
          );
        }
        options.xcatVersion = version;
        break;
      }
      case "--json-decoder": {
        const decoder = value();
        if (decoder !== "JSON::XS" && decoder !== "JSON::PP") {
          throw new UsageError(`invalid value for --json-decoder: ${decoder} (JSON::XS or JSON::PP)`);
        }
        options.jsonDecoder = decoder;
        break;
      }
      default:
        throw new UsageError(`unknown option: ${arg}`);
    }
  }
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

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(process.argv.slice(2));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`xcat-emulator: ${message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return;
  }
  const emulator = await startEmulator(parsed.options);
  const lines = [`xcat-emulator listening on ${emulator.url}`];
  lines.push(
    `account: ${parsed.options.user ?? EMULATOR_DEFAULT_USER} / ${parsed.options.password ?? EMULATOR_DEFAULT_PASSWORD}`,
  );
  if (emulator.caCertPem) {
    const file = join(tmpdir(), `xcat-emulator-ca-${process.pid}.pem`);
    writeFileSync(file, emulator.caCertPem);
    lines.push(`CA certificate: ${file}`);
  } else if (parsed.cert) {
    lines.push(`certificate: ${parsed.cert}`);
  }
  lines.push(`data: ${parsed.options.dataFile ?? "in memory"}`);
  lines.push(`xCAT version: ${parsed.options.xcatVersion ?? NEWEST_XCAT_VERSION}`);
  process.stdout.write(`${lines.join("\n")}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // The SQLite store writes through; closing flushes and releases the data file.
    void emulator.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`xcat-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
