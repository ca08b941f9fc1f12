/**
 * `pulumi-xcat view [--stack name] [--port n] [--interval s] [--expose-cluster-on address]
 * [--snapshot file.svg|file.png] [--event-log file]`, run in a Pulumi project's directory: the stack's
 * servers (its own xCAT management node or Confluent server, and each explicit provider's) drawn
 * as racks, served on 127.0.0.1 and redrawn every tick (docs/view.md), or written once as a picture.
 *
 * The same stack selection, config and credentials as `pulumi` and `drift`: the stack given or
 * selected (drift's resolveStack), its config `xcat:*` then `XCAT_*` (review's
 * settingsForStackConfig), its state from `pulumi stack export`.
 */
import { readFile, writeFile } from "node:fs/promises";
import { resolveStack } from "../drift/drift-command";
import { exportStack } from "../provider-settings";
import { settingsForStackConfig } from "../review/cluster-reads";
import { renderPng } from "./chromium";
import { stackConfig, stackState } from "./stack-io";
import { type RunningViewServer, serveView } from "./view-server";
import { type ViewServers, viewServers } from "./view-servers";
import { ViewSource } from "./view-source";

/** The shortest tick the view allows: a read of the whole cluster costs the management node seconds at 1,000 nodes. */
export const MIN_INTERVAL_SECONDS = 5;

const HELP = `Usage: pulumi-xcat view [--stack name] [--port n] [--interval seconds]
                        [--expose-cluster-on address] [--snapshot file.svg|file.png]
                        [--event-log file]

Run in a Pulumi project's directory. Draws the stack's servers (its xCAT management node or
Confluent server, and each explicit provider's) as racks (by the server's rack and unit
attributes, else the r01n05 pattern of the names, else one row per group) with each node's state
(failed, deploying, waiting for the Deployment's image, off, booted), whether a resource of the
stack holds it, and whether it changed by hand since the stack last recorded it. Serves a page
on http://127.0.0.1 and reads each server once per tick: two requests for the whole cluster
(docs/view.md).

  --stack       the stack (default: the selected one, as for pulumi)
  --port        the port to serve on (default: a free one, printed)
  --interval    seconds between reads of the servers (default and least ${MIN_INTERVAL_SECONDS})
  --expose-cluster-on ADDRESS
                serve on ADDRESS instead of 127.0.0.1: anyone who reaches it sees the cluster's
                nodes, their addresses and states (never a secret), without a login
  --event-log   FILE: follow the up that writes FILE, run in another shell as
                PULUMI_DEBUG_COMMANDS=true pulumi up --event-log FILE
                (the engine's event log; the flag is registered only with that variable): nodes
                a Deployment has not reached yet read "queued", those a cancelled or stopped roll
                left read "not reached"
  --snapshot    FILE: read once and write the drawing to FILE (.svg; .png needs Chromium:
                PULUMI_XCAT_CHROMIUM, the toolchain cache's or chromium on PATH), then exit

Uses what \`pulumi\` uses: the backend, the passphrase, the stack config (xcat:url, …) and XCAT_*.
Exit codes: 0 stopped (Ctrl-C) or snapshot written, 2 bad arguments or a failure.
`;

interface ViewArgs {
  readonly stack?: string;
  readonly port: number;
  readonly intervalSeconds: number;
  readonly host: string;
  readonly snapshot?: string;
  readonly eventLog?: string;
}

export function parseViewArgs(argv: readonly string[]): ViewArgs | string {
  let stack: string | undefined;
  let port = 0;
  let intervalSeconds = MIN_INTERVAL_SECONDS;
  let host = "127.0.0.1";
  let snapshot: string | undefined;
  let eventLog: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag, inline] = arg.startsWith("--") ? arg.split("=", 2) : [arg, undefined];
    const value = () => inline ?? argv[++i] ?? "";
    if (flag === "--stack" || flag === "-s") {
      stack = value();
      if (stack === "") return "--stack needs a stack name";
    } else if (flag === "--port") {
      const given = value();
      port = Number(given);
      if (!/^\d+$/.test(given) || port > 65535)
        return `--port must be a port number (0-65535), not '${given}'`;
    } else if (flag === "--interval") {
      const given = value();
      intervalSeconds = Number(given);
      if (given === "" || !Number.isFinite(intervalSeconds) || intervalSeconds < MIN_INTERVAL_SECONDS) {
        return `--interval must be a number of seconds, at least ${MIN_INTERVAL_SECONDS}, not '${given}'`;
      }
    } else if (flag === "--expose-cluster-on") {
      host = value();
      if (host === "") return "--expose-cluster-on needs the address to serve on";
    } else if (flag === "--snapshot") {
      snapshot = value();
      if (!/\.(svg|png)$/i.test(snapshot))
        return `--snapshot needs a file ending in .svg or .png, not '${snapshot}'`;
    } else if (flag === "--event-log") {
      eventLog = value();
      if (eventLog === "") return "--event-log needs the file `pulumi up --event-log` writes";
    } else {
      return `unknown argument '${arg}'`;
    }
  }
  return {
    ...(stack !== undefined ? { stack } : {}),
    port,
    intervalSeconds,
    host,
    ...(snapshot ? { snapshot } : {}),
    ...(eventLog ? { eventLog } : {}),
  };
}

/** The event log's text, or undefined while the up has not created it. */
async function readEventLog(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

const say = (text: string) => process.stderr.write(`pulumi-xcat view: ${text}\n`);

export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  const args = parseViewArgs(argv);
  if (typeof args === "string") {
    say(`${args}\n\n${HELP}`);
    return 2;
  }
  const stack = await resolveStack(args.stack, "view");
  if (typeof stack !== "string") {
    say(stack.error);
    return 2;
  }
  let servers: ViewServers;
  try {
    const settings = await settingsForStackConfig(await stackConfig(stack), stack);
    // The state names the explicit providers to draw besides the stack's own server; their
    // accounts come from an export with secrets, in memory only (view-servers.ts).
    servers = await viewServers(settings, await stackState(stack), () => exportStack(stack));
  } catch (error) {
    say(`stack ${stack}: ${(error as Error).message}`);
    return 2;
  }
  const serverNames = servers.servers.map((server) => server.name).join("; ");

  let lastProblem: string | undefined;
  const source = new ViewSource({
    stack,
    servers: servers.servers,
    readState: () => stackState(stack),
    intervalMs: args.intervalSeconds * 1000,
    ...(args.eventLog
      ? { eventLog: { file: args.eventLog, read: () => readEventLog(args.eventLog as string) } }
      : {}),
    onTick: (snapshot) => {
      // The terminal says when reading starts failing and when it works again, not every tick.
      if (snapshot.problem !== undefined && snapshot.problem !== lastProblem) say(snapshot.problem);
      if (snapshot.problem === undefined && lastProblem !== undefined)
        say(servers.servers.length > 1 ? "every server answers again." : "the server answers again.");
      lastProblem = snapshot.problem;
    },
  });

  if (args.snapshot !== undefined) {
    try {
      await source.tick();
      const { svg, problem } = source.snapshot;
      if (svg === undefined) {
        return 2;
      }
      if (/\.png$/i.test(args.snapshot)) await renderPng(svg, args.snapshot);
      else await writeFile(args.snapshot, svg);
      say(`wrote ${args.snapshot}${problem ? " (with the problem above)" : ""}.`);
      return 0;
    } catch (error) {
      say((error as Error).message);
      return 2;
    } finally {
      await servers.close();
    }
  }

  let server: RunningViewServer;
  try {
    server = await serveView(source, args.host, args.port);
  } catch (error) {
    say(`could not serve on ${args.host}:${args.port}: ${(error as Error).message}`);
    await servers.close();
    return 2;
  }
  if (args.host !== "127.0.0.1") {
    say(
      `serving on ${args.host}: anyone who reaches this address sees the cluster's nodes and states, without a login.`,
    );
  }
  say(
    `stack ${stack}: open ${server.url} (reads ${serverNames} every ${args.intervalSeconds} s; Ctrl-C stops).`,
  );
  source.start();
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await source.stop();
  await server.close();
  await servers.close();
  return 0;
}
