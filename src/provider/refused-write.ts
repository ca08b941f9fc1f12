/**
 * A chdef/mkdef that xCAT refused because of an only_if condition (`bmc` needs mgt=ipmi or
 * openbmc), and what of it reached the server. What reaches it depends on the release: before
 * 2.18.0 the object's other attributes are written and only the error says otherwise
 * (2.17.0:perl-xCAT/xCAT/DBobjUtils.pm:1214-1236); from 2.18.0 nothing is written (commit
 * 2ae97c2ac; 2.18.2:perl-xCAT/xCAT/DBobjUtils.pm:962-978). The provider does not guess which:
 * after such a failure it reads the object back and reports, attribute by attribute, what the
 * server holds (docs/xcat-versions.md).
 */

/** One failed only_if condition, from xCAT's message. */
export interface FailedCondition {
  /** The attribute that was refused, e.g. "bmc". */
  readonly attribute: string;
  /** The attribute it depends on, e.g. "mgt". */
  readonly condition: string;
  /** xCAT's words for what the condition needs, e.g. "ipmi or openbmc" ("" when xCAT names none). */
  readonly values: string;
}

// 2.18.0 and later: DBobjUtils.pm validate_only_if_attrs (2.18.2:perl-xCAT/xCAT/DBobjUtils.pm:2864);
// before: the same words from setobjdefs (2.17.0:perl-xCAT/xCAT/DBobjUtils.pm:1231).
const VALUE_MISMATCH = /^Cannot set the attr='([^']+)' attribute unless (\S+) value is (.+)\.$/;
// An older wording, kept in setobjdefs' code though its buffer is not printed on its own
// (2.17.0:perl-xCAT/xCAT/DBobjUtils.pm:1040).
const VALUE_MISSING = /^Cannot set the '([^']+)' attribute unless a value is provided for '([^']+)'\.$/;

/**
 * The failed conditions an xCAT error names, once each; empty when the error is about
 * something else.
 *
 * @example
 * failedConditions(["Cannot set the attr='bmc' attribute unless mgt value is ipmi or openbmc."])
 * // [{ attribute: "bmc", condition: "mgt", values: "ipmi or openbmc" }]
 */
export function failedConditions(messages: readonly string[]): FailedCondition[] {
  const found = new Map<string, FailedCondition>();
  for (const message of messages) {
    const mismatch = VALUE_MISMATCH.exec(message.trim());
    const missing = mismatch ? null : VALUE_MISSING.exec(message.trim());
    const [attribute, condition, values] = mismatch
      ? [mismatch[1], mismatch[2], uniqueAlternatives(mismatch[3] ?? "")]
      : missing
        ? [missing[1], missing[2], ""]
        : [];
    if (attribute === undefined || condition === undefined || found.has(attribute)) continue;
    found.set(attribute, { attribute, condition, values: values ?? "" });
  }
  return [...found.values()];
}

/** "ipmi or openbmc or ipmi or openbmc" (how releases before 2.18 repeat them) → "ipmi or openbmc". */
function uniqueAlternatives(text: string): string {
  return [...new Set(text.split(" or "))].join(" or ");
}

/** What of a refused write the server holds. */
export interface RefusedWriteOutcome {
  /** Attributes sent whose value the server now reports. */
  readonly written: readonly string[];
  /** Attributes sent whose value the server does not report. */
  readonly notWritten: readonly string[];
}

/**
 * Sorts the attributes `sent` by whether the object read back after the failure (`reported`,
 * undefined when the object does not exist) holds them; unset counts as "". An attribute a
 * condition refused counts as not written even if it already held the value.
 */
export function refusedWriteOutcome(
  sent: Readonly<Record<string, string>>,
  reported: Readonly<Record<string, string>> | undefined,
  refused: readonly FailedCondition[],
): RefusedWriteOutcome {
  const refusedNames = new Set(refused.map((failure) => failure.attribute));
  const written: string[] = [];
  const notWritten: string[] = [];
  for (const [attribute, value] of Object.entries(sent)) {
    const holds = reported !== undefined && (reported[attribute] ?? "") === value;
    if (holds && !refusedNames.has(attribute)) written.push(attribute);
    else notWritten.push(attribute);
  }
  return { written: written.sort(), notWritten: notWritten.sort() };
}

/**
 * The failure a user reads: which attributes xCAT refused and why, what was and was not written,
 * and what the state now records. Names only, never values (some are secrets).
 *
 * @example
 * refusedWriteMessage({ what: "node", name: "n1", operation: "update", refused, outcome })
 * // "pulumi-xcat: xCAT refused to set 'bmc' on the node 'n1': it needs mgt to be ipmi or openbmc ..."
 */
export function refusedWriteMessage(input: {
  readonly what: string;
  readonly name: string;
  readonly operation: "create" | "update";
  readonly refused: readonly FailedCondition[];
  readonly outcome: RefusedWriteOutcome;
  /** Whether the object exists after the failure. */
  readonly exists: boolean;
}): string {
  const needs = input.refused
    .map(
      (f) =>
        `'${f.attribute}' needs ${f.condition} to be ${f.values || "set"} (on the ${input.what} itself or one of its groups)`,
    )
    .join("; ");
  const names = (list: readonly string[]) => list.map((a) => `'${a}'`).join(", ");
  const { written, notWritten } = input.outcome;
  const result =
    written.length === 0
      ? input.exists
        ? "Nothing of this write reached the server."
        : `Nothing was written: the ${input.what} was not created.`
      : `Written anyway (xCAT before 2.18 writes the rest): ${names(written)}. Not written: ${names(notWritten)}.`;
  const state = input.exists
    ? "The state records what the server holds now; fix the condition and run up again."
    : "Fix the condition and run up again.";
  return `pulumi-xcat: xCAT refused the ${input.operation} of the ${input.what} '${input.name}': ${needs}. ${result} ${state}`;
}
