/**
 * A script that drives xCAT through pulumi-xcat's typed client: obtain a token, define nodes,
 * read them back, power them on and read their event logs.
 *
 * Against the local emulator (`npm run emulator -- --port 18443` prints its URL), with Node 24,
 * which runs TypeScript directly:
 *
 *   XCAT_URL=http://127.0.0.1:18443/xcatws XCAT_USERNAME=root XCAT_PASSWORD=emu-Qx7k2Vw9 \
 *     node examples/client-script/index.mts
 *
 * Against a management node, also set XCAT_CA_CERT=/install/postscripts/ca/ca-cert.pem (copied
 * from the management node). The client itself never reads the environment; this script does.
 */
import { type Attributes, isAlreadyExists, XcatClient } from "pulumi-xcat";

export interface ScriptOptions {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly caCert?: string | undefined;
  /** Where progress lines go. */
  readonly log?: ((line: string) => void) | undefined;
  /** Names of the nodes to define. */
  readonly nodes?: readonly string[] | undefined;
}

export interface ScriptResult {
  readonly tokenExpires: string;
  readonly nodes: ReadonlyMap<string, Attributes>;
  readonly power: Readonly<Record<string, string>>;
  readonly eventlog: Readonly<Record<string, readonly string[]>>;
  readonly retries: number;
}

/**
 * Defines `options.nodes` (default demo01..demo03), powers them on and returns what was read.
 *
 * @example
 * ```ts
 * const result = await main({ url: "http://127.0.0.1:8080/xcatws", username: "root", password: "emu-Qx7k2Vw9" });
 * ```
 */
export async function main(options: ScriptOptions): Promise<ScriptResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const names = options.nodes ?? ["demo01", "demo02", "demo03"];
  const client = new XcatClient({
    url: options.url,
    username: options.username,
    password: options.password,
    caCert: options.caCert,
    logger: { warn: log },
  });
  try {
    // The client obtains and renews its own token; asking for one shows the credentials work.
    const token = await client.tokens.create();
    log(`token obtained; expires ${token.expire}`);

    for (const [index, name] of names.entries()) {
      const attrs = {
        groups: ["demo", "all"],
        arch: "x86_64",
        netboot: "xnba",
        mgt: "ipmi",
        bmc: `10.0.1.${index + 11}`,
        ip: `10.0.0.${index + 11}`,
      };
      try {
        await client.nodes.create(name, attrs);
        log(`defined ${name}`);
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
        await client.nodes.update(name, attrs);
        log(`${name} existed; updated it`);
      }
    }

    const nodes = await client.nodes.getMany(names);
    for (const [name, attrs] of nodes) log(`${name}: groups=${attrs.groups} bmc=${attrs.bmc} ip=${attrs.ip}`);

    await client.nodes.setPower(names, "on");
    const power = await client.nodes.getPower(names);
    for (const [name, state] of Object.entries(power)) log(`${name}: power ${state}`);

    const eventlog = await client.nodes.getEventlog(names);
    for (const [name, lines] of Object.entries(eventlog)) {
      log(
        `${name}: ${lines.length} event log entries${lines.length > 0 ? `, latest: ${lines[lines.length - 1]}` : ""}`,
      );
    }

    return { tokenExpires: token.expire, nodes, power, eventlog, retries: client.metrics().retries };
  } finally {
    await client.close();
  }
}

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`set ${name}`);
  return value;
}

if (import.meta.main) {
  main({
    url: required("XCAT_URL"),
    username: required("XCAT_USERNAME"),
    password: required("XCAT_PASSWORD"),
    caCert: process.env.XCAT_CA_CERT,
  }).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
