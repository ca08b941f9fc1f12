/**
 * What cannot move to Confluent, as a preview on a Confluent stack reports it: the provider
 * refuses each such resource or attribute at check (provider/confluent/), and the engine puts
 * the refusals in `pulumi preview --json` as error diagnostics (`diagnostics: [{ urn, message,
 * severity }]`). Review lists them together, so a site sees the whole list of what its move
 * needs decided.
 */

/** The phrases of the provider's Confluent refusals (provider/confluent/*.ts). */
const MARKERS = [
  "cannot move to Confluent",
  "has no counterpart on Confluent",
  "cannot be set on Confluent's",
  "Confluent has no deployment profile",
];

interface Diagnostic {
  readonly urn?: string;
  readonly message?: string;
  readonly severity?: string;
}

/** One line per refusal, in the order the engine reported them, each without repeats. */
export function cannotMoveToConfluent(preview: unknown): string[] {
  const diagnostics = (preview as { diagnostics?: Diagnostic[] } | null)?.diagnostics ?? [];
  const lines: string[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.severity !== "error" || typeof diagnostic.message !== "string") continue;
    for (const text of diagnostic.message.split("\n")) {
      const at = MARKERS.map((marker) => text.indexOf(marker)).find((index) => index >= 0);
      if (at === undefined) continue;
      // From the resource's own words on: the engine's prefix repeats the URN.
      const start = text.lastIndexOf("xcat:", at);
      const line = text.slice(start >= 0 ? start : 0).trim();
      if (!lines.includes(line)) lines.push(line);
    }
  }
  return lines;
}
