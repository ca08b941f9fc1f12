/**
 * The "First run" section of the README that `pulumi-xcat import` writes: every line a person
 * needs, from a shell that has only `pulumi` and Node on PATH, to the first `pulumi up`. Nothing
 * else is to be read first, so it names the backend login, the passphrase that encrypts the
 * stack's secrets, the stack, and every config key the provider needs to reach the management
 * node the import read, with the values the import itself used (never the password).
 */
import { isAbsolute, resolve } from "node:path";

/** How the import reached the management node, as its flags and XCAT_* variables said. */
export interface ImportConnection {
  readonly url: string;
  readonly username?: string | undefined;
  /** PEM text or a file path (xcat:caCert takes either; a path is written as an absolute one). */
  readonly caCert?: string | undefined;
  readonly insecure?: boolean | undefined;
  /** The import authenticated with a token rather than a password. */
  readonly token?: boolean | undefined;
  /** The kind of server read (xcat when absent); Pulumi.yaml sets xcat:backend for confluent. */
  readonly backend?: "xcat" | "confluent" | undefined;
}

export interface FirstRunSecret {
  readonly key: string;
  readonly holds: string;
  /** Not a password (a BMC user name Confluent keeps unreadable): plain stack config. */
  readonly plain?: boolean;
}

/** Single-quotes a value for a POSIX shell line. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The section's lines (Markdown; the commands indented as a code block). `out` is where the
 * project was written; `secrets` are the program's `config.requireSecret` keys.
 */
export function firstRunLines(
  out: string,
  connection: ImportConnection,
  secrets: readonly FirstRunSecret[],
  language: "typescript" | "yaml" = "typescript",
  packageSpec = "pulumi-xcat",
): string[] {
  const server = connection.backend === "confluent" ? "Confluent" : "xCAT";
  const credential = connection.token
    ? ['    pulumi config set --secret xcat:token "$XCAT_TOKEN"         # the token the import used']
    : [
        `    pulumi config set xcat:username ${shellQuote(connection.username ?? "root")}`,
        '    pulumi config set --secret xcat:password "$XCAT_PASSWORD"   # the password the import used',
      ];
  const tls: string[] = [];
  if (connection.caCert !== undefined) {
    const pem = connection.caCert.includes("-----BEGIN");
    tls.push(
      pem
        ? `    pulumi config set xcat:caCert -- ${shellQuote(connection.caCert)}`
        : `    pulumi config set xcat:caCert ${shellQuote(isAbsolute(connection.caCert) ? connection.caCert : resolve(connection.caCert))}`,
    );
  } else if (connection.insecure) {
    tls.push("    pulumi config set xcat:insecure true    # as the import did: no certificate check");
  }
  return [
    "In a shell with `pulumi` (v3.216 or later) and Node.js 22.19 or later on PATH (in a pulumi-xcat",
    'checkout, `eval "$(npm run --silent shell-env)"` puts them there), with',
    connection.token
      ? "`XCAT_TOKEN` set as for the import and"
      : `\`XCAT_PASSWORD\` set to the password of the ${server} account, as for the import, and`,
    "`PULUMI_CONFIG_PASSPHRASE` set to a passphrase of your choosing (it encrypts this stack's secrets;",
    "keep it, every later `pulumi` command needs it):",
    "",
    `    cd ${shellQuote(resolve(out))}`,
    ...(language === "yaml"
      ? [
          `    npm install ${shellQuote(packageSpec)}   # beside Pulumi.yaml, whose plugins section names its plugin/ folder`,
        ]
      : ["    npm install"]),
    "    pulumi login --local        # the state in ~/.pulumi; a team sets PULUMI_BACKEND_URL to its backend instead",
    "    pulumi stack init prod",
    `    pulumi config set xcat:url ${shellQuote(connection.url)}`,
    ...credential,
    ...tls,
    ...secrets.map((secret) =>
      secret.plain
        ? `    pulumi config set ${secret.key}   # asks for it: ${secret.holds}`
        : `    pulumi config set --secret ${secret.key}   # asks for it: ${secret.holds}`,
    ),
    `    pulumi up                   # adopts every object as it is; sends no write to ${server}`,
    "",
  ];
}
