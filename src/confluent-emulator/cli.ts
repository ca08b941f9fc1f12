#!/usr/bin/env node
/**
 * confluent-emulator: runs the emulated Confluent API until SIGINT/SIGTERM. A thin wrapper over
 * startConfluentEmulator(); the first line on stdout is always
 * `confluent-emulator listening on <base URL>` (the command's lifecycle: emulator-kit/run-command.ts).
 */
import { readCommandLine, readCommonOption, runEmulatorCommand, UsageError } from "../emulator-kit";
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

/** Parses the command line into emulator options (exported for tests). */
export function parseArgs(argv: readonly string[]): { options: ConfluentEmulatorOptions; help: boolean } {
  const options: { -readonly [K in keyof ConfluentEmulatorOptions]: ConfluentEmulatorOptions[K] } = {
    port: 4005,
  };
  const { help } = readCommandLine(argv, (option) => {
    if (readCommonOption(option, options)) return;
    switch (option.flag) {
      case "--seed-cluster": {
        const spec = option.value();
        try {
          parseSeedCluster(spec);
        } catch (error) {
          throw new UsageError(`invalid value for --seed-cluster: ${(error as Error).message}`);
        }
        options.seedCluster = spec;
        break;
      }
      case "--deployment-profiles": {
        const profiles = option.list();
        if (profiles.length === 0) throw new UsageError("--deployment-profiles needs at least one name");
        options.deploymentProfiles = profiles;
        break;
      }
      default:
        throw option.unknown();
    }
  });
  return { options, help };
}

if (require.main === module) {
  runEmulatorCommand({
    name: "confluent-emulator",
    usage: USAGE,
    parse: parseArgs,
    async start({ options }) {
      const emulator = await startConfluentEmulator(options);
      return {
        lines: [
          `confluent-emulator listening on ${emulator.url}`,
          `account: ${options.user ?? "root"} / ${options.password ?? "cluster"}`,
          `data: ${options.dataFile ?? "in memory"}`,
          `deployment profiles: ${(options.deploymentProfiles ?? DEFAULT_DEPLOYMENT_PROFILES).join(", ")}`,
        ],
        close: () => emulator.close(),
      };
    },
  });
}
