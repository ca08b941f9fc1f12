#!/usr/bin/env node
/**
 * confluent-emulator: runs the emulated Confluent API until SIGINT/SIGTERM. A thin wrapper over
 * startConfluentEmulator(); the first line on stdout is always
 * `confluent-emulator listening on <base URL>`.
 */
import type { ConfluentEmulatorOptions } from "./options";
import { parseSeedCluster } from "./seed-cluster";
import { DEFAULT_DEPLOYMENT_PROFILES, startConfluentEmulator } from "./start-confluent-emulator";

const USAGE = `Usage: confluent-emulator [options]

Emulates Confluent's HTTP API (release 3.15.6) on a local port, at /confluent-api.

Options:
  --port N                 TCP port (default 4005; 0 picks a free port)
  --host ADDR              address to listen on (default 127.0.0.1)
  --data FILE              SQLite file keeping the data across restarts (default: in memory)
  --user NAME              the Confluent user (default root)
  --password PW            its password (default cluster)
  --boot-seconds S         seconds from a network boot to a deployed profile (default 30)
  --fail-nodes LIST        comma-separated nodes whose deployment fails
  --hang-nodes LIST        comma-separated nodes whose deployment never progresses
  --seed-cluster SPEC      add a cluster: racks:RxN (R racks of N nodes) or demo-600
  --deployment-profiles L  comma-separated profiles the server offers
                           (default ${DEFAULT_DEPLOYMENT_PROFILES.join(",")})
  --help                   show this help
`;

class UsageError extends Error {}

/** Parses the command line into emulator options (exported for tests). */
export function parseArgs(argv: readonly string[]): { options: ConfluentEmulatorOptions; help: boolean } {
  const options: { -readonly [K in keyof ConfluentEmulatorOptions]: ConfluentEmulatorOptions[K] } = {
    port: 4005,
  };
  const list = (text: string) => text.split(",").filter((n) => n !== "");
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
    const number = (text: string, ok: (n: number) => boolean) => {
      const n = Number(text);
      if (text === "" || !Number.isFinite(n) || !ok(n))
        throw new UsageError(`invalid value for ${flag}: ${text}`);
      return n;
    };
    switch (flag) {
      case "--help":
      case "-h":
        return { options, help: true };
      case "--port":
        options.port = number(value(), (n) => Number.isInteger(n) && n >= 0 && n <= 65535);
        break;
      case "--host":
        options.host = value();
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
      case "--boot-seconds":
        options.bootSeconds = number(value(), (n) => n >= 0);
        break;
      case "--fail-nodes":
        options.failNodes = list(value());
        break;
      case "--hang-nodes":
        options.hangNodes = list(value());
        break;
      case "--seed-cluster": {
        const spec = value();
        try {
          parseSeedCluster(spec);
        } catch (error) {
          throw new UsageError(`invalid value for --seed-cluster: ${(error as Error).message}`);
        }
        options.seedCluster = spec;
        break;
      }
      case "--deployment-profiles": {
        const profiles = list(value());
        if (profiles.length === 0) throw new UsageError("--deployment-profiles needs at least one name");
        options.deploymentProfiles = profiles;
        break;
      }
      default:
        throw new UsageError(`unknown option: ${arg}`);
    }
  }
  return { options, help: false };
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`confluent-emulator: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return;
  }
  const emulator = await startConfluentEmulator(parsed.options);
  const lines = [
    `confluent-emulator listening on ${emulator.url}`,
    `account: ${parsed.options.user ?? "root"} / ${parsed.options.password ?? "cluster"}`,
    `data: ${parsed.options.dataFile ?? "in memory"}`,
    `deployment profiles: ${(parsed.options.deploymentProfiles ?? DEFAULT_DEPLOYMENT_PROFILES).join(", ")}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void emulator.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`confluent-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
