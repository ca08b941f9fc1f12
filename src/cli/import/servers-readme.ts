/**
 * The README.md of a program imported from several servers in one run (issue #36 item 3): per
 * server, where it was read from, what the program holds of it, what was left out and what looks
 * wrong; then the secrets and the first-run lines, which set each server's account in config keys
 * of its own.
 */
import type { Finding } from "./findings";
import { type FirstRunSecret, firstRunServersLines, type ImportConnection } from "./first-run";
import type { ImportedCluster } from "./render";

/** One server as the README tells it. */
export interface ReadmeServer {
  readonly name: string;
  readonly connection: ImportConnection;
  readonly cluster: ImportedCluster;
  readonly left: readonly string[];
  readonly findings: readonly Finding[];
}

export interface ServersReadme {
  readonly out: string;
  readonly language: "typescript" | "yaml";
  readonly packageSpec: string;
  readonly includeDefaults: boolean;
  readonly secrets: readonly FirstRunSecret[];
  readonly servers: readonly ReadmeServer[];
}

/** The number of nodes a cluster declares, in NodeSets, runs and single nodes. */
function nodeCount(cluster: ImportedCluster): { nodes: number; inSets: number } {
  const inSets = (cluster.nodeSets ?? []).reduce((sum, set) => sum + set.rows.length, 0);
  const nodes =
    inSets + cluster.singles.length + cluster.runs.reduce((sum, run) => sum + run.last - run.first + 1, 0);
  return { nodes, inSets };
}

function serverSection(server: ReadmeServer, language: "typescript" | "yaml"): string[] {
  const { cluster, connection } = server;
  const confluent = connection.backend === "confluent";
  const { nodes, inSets } = nodeCount(cluster);
  const sets = cluster.nodeSets ?? [];
  const way =
    language === "yaml" ? `\`options.provider: \${${server.name}}\`` : `\`connection: ${server.name}\``;
  return [
    `## ${server.name}: ${confluent ? "Confluent" : "xCAT"} at ${connection.url}`,
    "",
    `Every resource read from it goes through ${way}; its account is in the config keys \`${server.name}-*\`.`,
    "",
    sets.length > 0
      ? `- ${nodes} nodes: ${inSets} in ${sets.length} NodeSets (one per rack; each node's own values in inventory/${server.name}/<rack>.csv), ${nodes - inSets} as Nodes`
      : `- ${nodes} nodes`,
    `- ${cluster.groups.length} groups, ${cluster.osimages.length} OS images, ${cluster.networks.length} networks, ${cluster.policies.length} policy rows, ${cluster.site.length} site settings, ${cluster.tableRows.length} table rows`,
    "",
    "Left out:",
    "",
    ...(server.left.length > 0 ? server.left.map((item) => `- ${item}`) : ["- nothing"]),
    "",
    "Worth a look (kept as the server holds it, so the first `pulumi up` changes nothing):",
    "",
    ...(server.findings.length > 0 ? server.findings.map((finding) => `- ${finding.text}`) : ["- nothing"]),
    "",
  ];
}

/** The README's text. */
export function serversReadme(readme: ServersReadme): string {
  return [
    "# Several servers, imported",
    "",
    `Written by \`pulumi-xcat import\` from ${readme.servers.length} servers in one run: one ${
      readme.language === "yaml" ? "`pulumi:providers:xcat`" : "`connection`"
    } per server, named after it, and`,
    "every resource through the one of the server it was read from. A resource name more than one server",
    "has gets `-<server>` at its end; the object keeps its own name on its server (`name`).",
    "",
    ...readme.servers.flatMap((server) => serverSection(server, readme.language)),
    ...(readme.includeDefaults
      ? []
      : [
          "Run the import again with `--include-defaults` to take the unchanged defaults too, and with",
          "`--with site,policy,networks` to take what a `--noderange` import leaves out.",
          "",
        ]),
    "## Secrets",
    "",
    readme.secrets.length === 0
      ? "Besides each server's account, the servers hold no passwords the program manages."
      : "Passwords are never written into the program; the first-run lines below ask for each:\n",
    ...readme.secrets.map(
      (secret) =>
        `- \`${secret.key}\`: ${secret.holds}${secret.plain ? " (not a password, but the server never shows it: plain config)" : ""}`,
    ),
    "",
    "## First run",
    "",
    ...firstRunServersLines(
      readme.out,
      readme.servers.map((server) => ({ name: server.name, connection: server.connection })),
      readme.secrets,
      readme.language,
      readme.packageSpec,
    ),
    "Every resource has `adopt: true`: the first `up` takes each object over as it is and changes nothing",
    "on any server. The flag can go after that first `up`.",
    "",
    "## Why `protect`",
    "",
    "Every resource is created with `protect: true` rather than `retainOnDelete`: a deleted line or a",
    "`pulumi destroy` fails and says why, instead of silently leaving a production object unmanaged.",
    "",
  ].join("\n");
}
