/**
 * `pulumi-xcat review [file] [--format text|markdown|json] [--fail-on kinds]`: reads
 * `pulumi preview --json` from the file or standard input and prints the summary.
 *
 * When the preview does not carry all a summary needs (the members a group change reaches, a
 * node's inherited values, the nodes of a noderange), review reads them from the stack's
 * management node in one request; a plan with none of those sends none.
 *
 * Exit codes: 0 printed; 2 bad arguments, unreadable preview, or the management node could not
 * be read; 3 a change of a kind listed in `--fail-on` is planned (the summary is printed first).
 */
import { readFile, writeFile } from "node:fs/promises";
import type { SiteServices } from "../../provider/name-services";
import type { ClusterFacts } from "./cluster-facts";
import {
  clusterReadsNeeded,
  DANGER_KINDS,
  type DangerKind,
  providerReadsNeeded,
  summarizePlan,
} from "./plan-summary";
import { renderJson, renderMarkdown, renderText } from "./render-summary";

/** The exit code when `--fail-on` matches a planned change. */
export const EXIT_DANGER = 3;

const HELP = `Usage: pulumi-xcat review [preview.json] [--format text|markdown|json] [--fail-on kinds] [--offline]
                          [--picture plan.svg]

Summarizes \`pulumi preview --json\` (from the file, or standard input) by what changes, with
node names collapsed into xCAT noderanges.

  --format    text (default), markdown (a pull-request comment) or json
  --fail-on   comma list of ${DANGER_KINDS.join(", ")} (or "any"): exit ${EXIT_DANGER} when one is planned
              (the dangerous changes listed first: delete = any object deleted, replace = any
              object replaced, reimage = nodes a Deployment deploys, power = nodes a
              PowerState switches or a Deployment powers off, group = nodes whose values a
              group change alters, adopt = existing objects taken over, policy, site)
  --picture   FILE: also draw the nodes the plan re-images, creates, deletes or switches off on
              their racks, as SVG (docs/view.md)

Run it where \`pulumi preview\` ran: when the plan changes a group, a node's inherited values or
a noderange, review reads the stack's management node once (stack config xcat:*, else XCAT_*),
and once each xCAT management node of an explicit pulumi:providers:xcat that needs it (its
arguments, from \`pulumi stack export\`); --offline reads nothing and marks what it could not tell
as not read. Objects are named by management node when the plan reaches one besides the stack's
(\`pulumi preview --json --show-sames\` adds each provider's url and backend to the names).

Exit codes: 0 summary printed, 2 bad arguments, input or management node read, ${EXIT_DANGER} --fail-on matched.
`;

/**
 * The first error of a preview that failed, or undefined. `pulumi preview --json` of a program
 * that threw, a resource refused in check or a policy violation still prints its JSON, with the
 * steps it reached before the failure (often none: "No changes." would be a lie) and the errors
 * as `diagnostics` of severity error. Colour codes and stack frames are left out.
 */
const COLOUR_CODES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

export function previewFailure(preview: unknown): string | undefined {
  const diagnostics = (preview as { diagnostics?: unknown } | null)?.diagnostics;
  if (!Array.isArray(diagnostics)) return undefined;
  for (const diagnostic of diagnostics as Array<{ severity?: unknown; message?: unknown }>) {
    if (diagnostic?.severity !== "error" || typeof diagnostic.message !== "string") continue;
    const text = diagnostic.message.replace(COLOUR_CODES, "");
    return text
      .split("\n")
      .filter((line) => line.trim() !== "" && !/^\s+at /.test(line))
      .slice(0, 6)
      .join("\n");
  }
  return undefined;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function run(argv: readonly string[]): Promise<number> {
  let format = "text";
  let failOn: DangerKind[] = [];
  let file: string | undefined;
  let offline = false;
  let picture: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag, inline] = arg.startsWith("--") ? arg.split("=", 2) : [arg, undefined];
    const value = () => inline ?? argv[++i] ?? "";
    if (flag === "--help" || flag === "-h") {
      process.stdout.write(HELP);
      return 0;
    } else if (flag === "--offline") {
      offline = true;
    } else if (flag === "--picture") {
      picture = value();
      if (!picture.endsWith(".svg")) {
        process.stderr.write(`pulumi-xcat review: --picture needs a file ending in .svg, not '${picture}'\n`);
        return 2;
      }
    } else if (flag === "--format") {
      format = value();
      if (!["text", "markdown", "json"].includes(format)) {
        process.stderr.write(
          `pulumi-xcat review: --format must be text, markdown or json, not '${format}'\n`,
        );
        return 2;
      }
    } else if (flag === "--fail-on") {
      const words = value().split(",").filter(Boolean);
      const unknown = words.filter((w) => w !== "any" && !(DANGER_KINDS as readonly string[]).includes(w));
      if (unknown.length > 0) {
        process.stderr.write(
          `pulumi-xcat review: --fail-on: unknown kind '${unknown.join(",")}' (kinds: ${DANGER_KINDS.join(", ")}, any)\n`,
        );
        return 2;
      }
      failOn = words.includes("any") ? [...DANGER_KINDS] : (words as DangerKind[]);
    } else if (!arg.startsWith("-") && file === undefined) {
      file = arg;
    } else {
      process.stderr.write(`pulumi-xcat review: unknown argument '${arg}'\n\n${HELP}`);
      return 2;
    }
  }
  const source = file ?? "standard input";
  const raw = file === undefined ? await readStdin() : await readFile(file, "utf8");
  let preview: unknown;
  try {
    preview = JSON.parse(raw);
  } catch (error) {
    process.stderr.write(
      `pulumi-xcat review: ${source} is not the JSON of \`pulumi preview --json\`: ${(error as Error).message}\n`,
    );
    return 2;
  }
  const failure = previewFailure(preview);
  if (failure !== undefined) {
    process.stderr.write(
      `pulumi-xcat review: the preview in ${source} failed, so it does not show what \`pulumi up\` would do:\n` +
        `${failure}\nFix what it names, run \`pulumi preview --json\` again and review that. Nothing was reviewed.\n`,
    );
    return 2;
  }
  let facts: ClusterFacts | undefined;
  let site: SiteServices | undefined;
  const needed = clusterReadsNeeded(preview);
  const onlySite = needed?.site === true && needed.reasons.length === 1;
  if (needed !== undefined && !offline) {
    try {
      // Loaded only for a plan that needs it: the client is most of the command's start-up time.
      const { clientForPreview, readClusterFacts } = await import("./cluster-reads.js");
      const { siteServicesOf } = await import("../../provider/node-name-services.js");
      const client = await clientForPreview(preview);
      try {
        if (!onlySite) facts = await readClusterFacts(client, needed.attributes);
        // Without it the name-service lines say what they assume: not worth failing the review.
        if (needed.site) site = await siteServicesOf(client).catch(() => undefined);
      } finally {
        await client.close();
      }
    } catch (error) {
      // Only the site's DNS and DHCP settings were wanted: the lines say what they assumed instead.
      if (onlySite) site = undefined;
      else {
        process.stderr.write(
          `pulumi-xcat review: this plan needs ${needed.reasons.join(", ")} from the management node, and reading ` +
            `them failed: ${(error as Error).message}\nRun review in the Pulumi project's directory, on the stack the ` +
            "preview is of, with what `pulumi preview` had (its config, passphrase and XCAT_* variables).\n",
        );
        return 2;
      }
    }
  }
  let providerFacts = new Map<string, ClusterFacts>();
  const elsewhere = providerReadsNeeded(preview);
  if (elsewhere.size > 0 && !offline) {
    try {
      const { readProviderFacts } = await import("./provider-reads.js");
      providerFacts = await readProviderFacts(preview, elsewhere);
    } catch (error) {
      const reasons = [...new Set([...elsewhere.values()].flatMap((reads) => reads.reasons))];
      process.stderr.write(
        `pulumi-xcat review: this plan needs ${reasons.join(", ")} from its providers' management nodes, and ` +
          `reading them failed: ${(error as Error).message}\nRun review in the Pulumi project's directory, on the ` +
          "stack the preview is of, with what `pulumi preview` had (its backend and passphrase), or pass --offline.\n",
      );
      return 2;
    }
  }
  const summary = summarizePlan(preview, facts, site, providerFacts);
  const render = format === "markdown" ? renderMarkdown : format === "json" ? renderJson : renderText;
  process.stdout.write(render(summary));
  if (picture !== undefined) {
    const { renderPlanPicture } = await import("../view/plan-picture.js");
    const { stackOf } = await import("./cluster-reads.js");
    await writeFile(picture, renderPlanPicture(summary, `plan of stack ${stackOf(preview) ?? "?"}`));
  }
  const matched = summary.dangers.filter((d) => failOn.includes(d.kind));
  if (matched.length > 0) {
    process.stderr.write(
      `pulumi-xcat review: planned ${[...new Set(matched.map((d) => d.kind))].join(", ")} (--fail-on)\n`,
    );
    return EXIT_DANGER;
  }
  return 0;
}
