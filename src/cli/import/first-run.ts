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

/** The written project's setup, the same for one server or several: its folder, its packages, a state and a stack. */
function projectSetupLines(out: string, language: "typescript" | "yaml", packageSpec: string): string[] {
  return [
    `    cd ${shellQuote(resolve(out))}`,
    language === "yaml"
      ? `    npm install ${shellQuote(packageSpec)}   # beside Pulumi.yaml, whose plugins section names its plugin/ folder`
      : "    npm install",
    "    pulumi login --local        # the state in ~/.pulumi; a team sets PULUMI_BACKEND_URL to its backend instead",
    "    pulumi stack init prod",
  ];
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
    ...projectSetupLines(out, language, packageSpec),
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

/** One server of an import of several, as the first-run lines name it. */
export interface FirstRunServer {
  /** Its name in the program: the prefix of its config keys. */
  readonly name: string;
  readonly connection: ImportConnection;
}

/** The variable a server's password (or token) is read from in the first-run lines: MN1_PASSWORD. */
export function passwordVariable(server: Pick<FirstRunServer, "name" | "connection">): string {
  return `${server.name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_${server.connection.token ? "TOKEN" : "PASSWORD"}`;
}

/**
 * The first-run lines of a program of several servers: each server's account goes to config keys
 * of its own (`<name>-url`, `<name>-username`, `<name>-password` as a secret, ...), which its
 * explicit provider or connection reads; the stack has no `xcat:url` of its own.
 */
export function firstRunServersLines(
  out: string,
  servers: readonly FirstRunServer[],
  secrets: readonly FirstRunSecret[],
  language: "typescript" | "yaml" = "typescript",
  packageSpec = "pulumi-xcat",
): string[] {
  const account = servers.flatMap(({ name, connection }) => {
    const variable = passwordVariable({ name, connection });
    const kind = connection.backend === "confluent" ? "Confluent" : "xCAT";
    const lines = [`    pulumi config set ${name}-url ${shellQuote(connection.url)}   # ${kind}`];
    if (connection.token)
      lines.push(
        `    pulumi config set --secret ${name}-token "$${variable}"   # the token the import used for ${name}`,
      );
    else
      lines.push(
        `    pulumi config set ${name}-username ${shellQuote(connection.username ?? "root")}`,
        `    pulumi config set --secret ${name}-password "$${variable}"   # the password the import used for ${name}`,
      );
    if (connection.caCert !== undefined) {
      const pem = connection.caCert.includes("-----BEGIN");
      lines.push(
        pem
          ? `    pulumi config set ${name}-caCert -- ${shellQuote(connection.caCert)}`
          : `    pulumi config set ${name}-caCert ${shellQuote(isAbsolute(connection.caCert) ? connection.caCert : resolve(connection.caCert))}`,
      );
    }
    if (connection.insecure)
      lines.push(`    pulumi config set ${name}-insecure true    # as the import did: no certificate check`);
    return lines;
  });
  return [
    "In a shell with `pulumi` (v3.216 or later) and Node.js 22.19 or later on PATH (in a pulumi-xcat",
    'checkout, `eval "$(npm run --silent shell-env)"` puts them there), with',
    `${servers.map((server) => `\`${passwordVariable(server)}\``).join(", ")} set to the password (or token) of each server's account, as for`,
    "the import, and `PULUMI_CONFIG_PASSPHRASE` set to a passphrase of your choosing (it encrypts this stack's",
    "secrets; keep it, every later `pulumi` command needs it):",
    "",
    ...projectSetupLines(out, language, packageSpec),
    ...account,
    ...secrets.map((secret) =>
      secret.plain
        ? `    pulumi config set ${secret.key}   # asks for it: ${secret.holds}`
        : `    pulumi config set --secret ${secret.key}   # asks for it: ${secret.holds}`,
    ),
    `    pulumi up                   # adopts every object as it is; sends no write to ${servers.map((server) => server.name).join(", ")}`,
    "",
  ];
}
