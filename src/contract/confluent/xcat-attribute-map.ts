/**
 * The one explicit table from the xCAT attribute names programs use to Confluent's dotted
 * attributes, for the Confluent backend (docs/confluent.md lists it). Confluent's names are those
 * of its attribute schema, confluent_server/confluent/config/attributes.py at tag 3.15.6 (cited
 * below as attributes.py:line); the choices follow what xCAT itself copies over in
 * makeconfluentcfg (xcat-core xCAT-server/lib/xcat/plugins/confluent.pm, 2.18.2, lines 460-512).
 *
 * An xCAT attribute not in the table has no counterpart: the provider refuses it at preview
 * naming the reason (`reasonWithoutCounterpart`), never drops it.
 */

/**
 * xCAT's group `all`, by convention every node's, is Confluent's `everything`, which holds every
 * node and which Confluent keeps last in each node's groups (configmanager.py:1400-1416 at
 * 3.15.6). Wherever a program names `all` (a Node's groups, the nodes of a PowerState or a
 * Deployment) it means `everything` on the Confluent backend; a Group resource named `all` is
 * refused at preview, as `everything` also holds the server-wide defaults.
 */
export const XCAT_ALL_GROUP = "all";
export const CONFLUENT_EVERYTHING_GROUP = "everything";

/**
 * A noderange as a program gives it, in Confluent's words: each comma-separated element that is
 * the group `all` (or its exclusion, `-all`) names `everything`; the rest is left as written.
 */
export function confluentNoderangeOf(noderange: string): string {
  return noderange
    .split(",")
    .map((element) =>
      element === XCAT_ALL_GROUP
        ? CONFLUENT_EVERYTHING_GROUP
        : element === `-${XCAT_ALL_GROUP}`
          ? `-${CONFLUENT_EVERYTHING_GROUP}`
          : element,
    )
    .join(",");
}

/** One xCAT attribute and the Confluent attribute that holds the same fact. */
export interface AttributeMapping {
  readonly xcat: string;
  readonly confluent: string;
  /** Confluent never returns it (reads say `{"isset": true}`): compared by whether it is set. */
  readonly writeOnly?: boolean;
  /**
   * For attributes whose values are words from a list: xCAT's word → Confluent's. A value not
   * listed has no counterpart.
   */
  readonly values?: Readonly<Record<string, string>>;
  /** Values of the xCAT form that Confluent's attribute cannot hold, and why. */
  readonly refuse?: { readonly pattern: RegExp; readonly reason: string };
  /** Where Confluent defines the attribute. */
  readonly source: string;
}

export const XCAT_TO_CONFLUENT: readonly AttributeMapping[] = [
  { xcat: "groups", confluent: "groups", source: "attributes.py:91" },
  {
    xcat: "mgt",
    confluent: "hardwaremanagement.method",
    // Confluent's plugins/hardwaremanagement/ at 3.15.6 has ipmi.py and redfish.py for servers;
    // xCAT's openbmc, kvm, hmc, … have no plugin of that name there.
    values: { ipmi: "ipmi", redfish: "redfish" },
    source: "attributes.py:417",
  },
  { xcat: "bmc", confluent: "hardwaremanagement.manager", source: "attributes.py:405" },
  {
    xcat: "bmcusername",
    confluent: "secret.hardwaremanagementuser",
    writeOnly: true,
    source: "attributes.py:637",
  },
  {
    xcat: "bmcpassword",
    confluent: "secret.hardwaremanagementpassword",
    writeOnly: true,
    source: "attributes.py:641",
  },
  // The node's default network: Confluent's unnamed net.* attributes (attributes.py:500, :544).
  { xcat: "ip", confluent: "net.ipv4_address", source: "attributes.py:500" },
  {
    xcat: "mac",
    confluent: "net.hwaddr",
    refuse: {
      pattern: /[|!]/,
      reason:
        "net.hwaddr holds one address; xCAT's 'mac!host|mac!host' list has no form there (give further " +
        "interfaces on the xCAT stack only)",
    },
    source: "attributes.py:544",
  },
  {
    xcat: "cons",
    confluent: "console.method",
    // console.method's validvalues (attributes.py:382) hold ipmi and openbmc of xCAT's words.
    values: { ipmi: "ipmi", openbmc: "openbmc" },
    source: "attributes.py:377",
  },
  {
    xcat: "consoleondemand",
    confluent: "console.logging",
    // makeconfluentcfg: consoleondemand yes → logging none, no → full.
    values: { yes: "none", no: "full" },
    source: "attributes.py:372",
  },
  { xcat: "rack", confluent: "location.rack", source: "attributes.py:302" },
  { xcat: "unit", confluent: "location.u", source: "attributes.py:305" },
  { xcat: "room", confluent: "location.room", source: "attributes.py:296" },
  { xcat: "height", confluent: "location.height", source: "attributes.py:293" },
  { xcat: "chassis", confluent: "enclosure.manager", source: "attributes.py:443" },
  { xcat: "slot", confluent: "enclosure.bay", source: "attributes.py:434" },
  { xcat: "usercomment", confluent: "info.note", source: "attributes.py:286" },
  { xcat: "serial", confluent: "id.serial", source: "attributes.py:462" },
  { xcat: "mtm", confluent: "id.model", source: "attributes.py:456" },
  { xcat: "switch", confluent: "net.switch", source: "attributes.py:557" },
  { xcat: "switchport", confluent: "net.switchport", source: "attributes.py:565" },
  { xcat: "nameservers", confluent: "dns.servers", source: "attributes.py:676" },
  { xcat: "pdu", confluent: "power.pdu", source: "attributes.py:583" },
  { xcat: "outlet", confluent: "power.outlet", source: "attributes.py:586" },
];

const BY_XCAT = new Map(XCAT_TO_CONFLUENT.map((mapping) => [mapping.xcat, mapping]));
const BY_CONFLUENT = new Map(XCAT_TO_CONFLUENT.map((mapping) => [mapping.confluent, mapping]));

/** The mapping of an xCAT attribute; `undefined` when Confluent has no counterpart. */
export function mappingOfXcat(attribute: string): AttributeMapping | undefined {
  return BY_XCAT.get(attribute);
}

/** The mapping that writes a Confluent attribute; `undefined` for attributes no xCAT name maps to. */
export function mappingOfConfluent(attribute: string): AttributeMapping | undefined {
  return BY_CONFLUENT.get(attribute);
}

/** Why common xCAT attributes have no Confluent counterpart, and what Confluent does instead. */
const REASONS: ReadonlyArray<readonly [readonly string[], string]> = [
  [
    ["postscripts", "postbootscripts"],
    "Confluent runs scripts from the deployment profile (its scripts/post.d and firstboot.d " +
      "directories on the server), not from a node attribute",
  ],
  [
    ["netboot", "provmethod", "os", "arch", "profile", "currstate", "currchain", "chain"],
    "Confluent deploys by profile: a Deployment with `osimage` set to the profile name sets " +
      "deployment.pendingprofile, and the boot method comes from the profile",
  ],
  [
    ["xcatmaster", "servicenode", "tftpserver", "nfsserver", "monserver", "tftpdir", "nfsdir"],
    "Confluent has no service nodes; a collective of Confluent servers serves every node " +
      "(collective.manager)",
  ],
  [
    ["kernel", "initrd", "kcmdline", "addkcmdline"],
    "Confluent's kernel and its arguments come from the deployment profile (profile.yaml)",
  ],
  [
    [
      "installnic",
      "primarynic",
      "nicips",
      "nictypes",
      "nicnetworks",
      "nichostnamesuffixes",
      "otherinterfaces",
    ],
    "Confluent describes further interfaces as named net.<name>.* attributes, which have no one-to-one " +
      "xCAT attribute",
  ],
  [
    ["serialport", "serialspeed", "serialflow", "conserver", "termserver", "termport"],
    "Confluent's console goes through the BMC (console.method) and needs no serial or console-server setting",
  ],
  [
    ["hostnames"],
    "Confluent names interfaces with net.hostname per network, which has no form for xCAT's alias list",
  ],
];
const REASON_BY_ATTRIBUTE = new Map(
  REASONS.flatMap(([attributes, reason]) => attributes.map((attribute) => [attribute, reason] as const)),
);

/**
 * Why an xCAT attribute cannot be set on Confluent: its own reason when known, else that the
 * schema lacks it.
 */
export function reasonWithoutCounterpart(attribute: string): string {
  return (
    REASON_BY_ATTRIBUTE.get(attribute) ??
    "Confluent's attribute schema (config/attributes.py) has no attribute that holds it"
  );
}

/** A value translated for Confluent, or why it cannot be. */
export type Translated = { readonly value: string } | { readonly problem: string };

/**
 * An xCAT value for the Confluent attribute of `mapping`: list words are translated, and an
 * xCAT `|regex|` value becomes a Confluent expression where one exists ({@link xcatRegexToExpression}).
 */
export function confluentValueOf(mapping: AttributeMapping, value: string): Translated {
  if (mapping.refuse?.pattern.test(value)) return { problem: mapping.refuse.reason };
  if (value.startsWith("|") || value.startsWith("/")) {
    if (mapping.writeOnly) return { problem: "Confluent takes a secret as a plain value, not per node" };
    if (mapping.values) return { problem: "Confluent takes this attribute's words as plain values" };
    const expression = xcatRegexToExpression(value);
    return "problem" in expression ? expression : { value: expression.expression };
  }
  if (mapping.values && value !== "") {
    const word = mapping.values[value];
    if (word === undefined) {
      return {
        problem: `Confluent has no counterpart of ${mapping.xcat} '${value}' (it maps ${Object.entries(
          mapping.values,
        )
          .map(([xcat, confluent]) => `${xcat} to ${confluent}`)
          .join(", ")})`,
      };
    }
    return { value: word };
  }
  return { value: escapeBraces(value) };
}

/** The xCAT value for a plain value Confluent reports (list words translated back). */
export function xcatValueOf(mapping: AttributeMapping, value: string): string {
  if (!mapping.values) return value;
  const found = Object.entries(mapping.values).find(([, confluent]) => confluent === value);
  return found ? found[0] : value;
}

/**
 * Confluent treats `{` and `}` in any attribute value as an expression (configmanager.py
 * _ExpressionFormat, 3.15.6 line 1130); a literal brace is written doubled, as in Python's format.
 */
function escapeBraces(value: string): string {
  return value.replace(/[{}]/g, (brace) => brace + brace);
}

/**
 * Translates xCAT's `|pattern|replacement|` (Table.pm transRegexAttrs) into a Confluent
 * expression (configmanager.py _ExpressionFormat, 3.15.6 lines 1130-1220: `{n1}` is the first
 * run of digits in the node name as a number, `{n0}` the last, `{node}` the name, arithmetic with
 * + - * / % inside braces, and a Python format spec after `:`).
 *
 * Translatable: a pattern made of non-digit parts (`^`, `\D+`, `\D*`, letters, `-`, `_`, `\.`)
 * and digit runs (`(\d+)`, `(\d{N})`, `\d+`), each digit run separated from the next by a
 * non-empty non-digit part, that starts at the name's start (`^`, `\D+` or `\D*` first), so the
 * k-th digit run of the pattern is the k-th of the name; and a replacement of literal text,
 * `($k ...arithmetic)` (a number, as Confluent's), and bare `$k` only for a fixed-width capture
 * `(\d{N})` (Confluent's `{nK:0Nd}`; a bare `$k` of `(\d+)` keeps leading zeros in xCAT that
 * `{nK}` drops). Everything else is refused with the reason.
 *
 * @example xcatRegexToExpression("|\\D+(\\d+)|10.0.0.($1+100)|") // { expression: "10.0.0.{n1+100}" }
 */
export function xcatRegexToExpression(
  value: string,
): { readonly expression: string } | { readonly problem: string } {
  if (value.startsWith("/")) {
    return {
      problem:
        "xCAT's /pattern/replacement/ edits the node name, which Confluent expressions cannot do; " +
        "write it as |pattern|replacement| or give each node its value",
    };
  }
  const parts = /^\|(.*)\|(.*)\|$/s.exec(value);
  if (!parts) return { problem: "it is neither a plain value nor xCAT's |pattern|replacement| form" };
  const [, pattern = "", replacement = ""] = parts;
  const captures = digitCaptures(pattern);
  if ("problem" in captures) return captures;
  let out = "";
  let rest = replacement;
  while (rest.length > 0) {
    const group = /^\(([^()]*)\)/.exec(rest);
    if (group && /\$\d/.test(group[1] ?? "")) {
      const arithmetic = (group[1] ?? "").replace(/\s+/g, "");
      if (!/^[$\d+\-*/%]+$/.test(arithmetic)) {
        return { problem: `'(${group[1]})' is not arithmetic Confluent can evaluate` };
      }
      // xCAT evaluates a bracket as Perl: ($1) is the digits as written, leading zeros too, and
      // ($1+0) the number (docs/xcat-behavior-found.md 10, Table.pm transRegexAttrs).
      const alone = /^\$(\d+)(\+0)?$/.exec(arithmetic);
      if (alone) {
        const capture = captures[Number(alone[1]) - 1];
        if (!capture) return { problem: `$${alone[1]} names no (\\d…) group of the pattern` };
        if (alone[2] !== undefined) out += `{n${capture.run}}`;
        else if (capture.width !== undefined) out += `{n${capture.run}:0${capture.width}d}`;
        else
          return {
            problem:
              `($${alone[1]}) keeps the digits as written (leading zeros too), which Confluent's ` +
              `{n${capture.run}} does not; write ($${alone[1]}+0) for the number, or (\\d{N}) for a fixed width`,
          };
        rest = rest.slice(group[0].length);
        continue;
      }
      let bad: string | undefined;
      const translated = arithmetic.replace(/\$(\d+)/g, (_, k: string) => {
        const capture = captures[Number(k) - 1];
        if (!capture) bad = `$${k} names no (\\d…) group of the pattern`;
        return capture ? `n${capture.run}` : "";
      });
      if (bad) return { problem: bad };
      out += `{${translated}}`;
      rest = rest.slice(group[0].length);
      continue;
    }
    const bare = /^\$(\d+)/.exec(rest);
    if (bare) {
      return {
        problem:
          `outside a bracket xCAT keeps $${bare[1]} as written (|node(\\d+)|bmc$1| gives bmc$1, Table.pm ` +
          `transRegexAttrs), so it is no number; write ($${bare[1]}+0) for the number, or ($${bare[1]}) with ` +
          "(\\d{N}) for a fixed width",
      };
    }
    const char = rest[0] ?? "";
    out += char === "{" || char === "}" ? char + char : char;
    rest = rest.slice(1);
  }
  return { expression: out };
}

/** Each capture of a pattern: which digit run of the node name it is, and its fixed width. */
type Capture = { readonly run: number; readonly width: number | undefined };

function digitCaptures(pattern: string): Capture[] | { problem: string } {
  const refuse = (why: string) => ({
    problem: `the pattern '${pattern}' ${why}, so Confluent's {n1}, {n2}, … (the digit runs of the name) cannot express it`,
  });
  let rest = pattern;
  const anchored = rest.startsWith("^");
  if (anchored) rest = rest.slice(1);
  else if (!/^\\D[+*]/.test(rest)) return refuse("may match anywhere in the name (start it with ^ or \\D+)");
  const captures: Capture[] = [];
  let runs = 0;
  let separated = true;
  while (rest.length > 0) {
    const digits = /^(\()?\\d(\+|\{(\d+)\})(\))?/.exec(rest);
    if (digits) {
      if (Boolean(digits[1]) !== Boolean(digits[4]))
        return refuse("groups digits in a way that cannot be read");
      if (!separated) return refuse("has two digit runs with nothing between them");
      runs += 1;
      if (digits[1])
        captures.push({ run: runs, width: digits[3] === undefined ? undefined : Number(digits[3]) });
      separated = false;
      rest = rest.slice(digits[0].length);
      continue;
    }
    const nonDigit = /^(\\D[+*]|[A-Za-z_-]+|\\\.|\$$)/.exec(rest);
    if (nonDigit) {
      const token = nonDigit[0];
      if (token !== "$" && token !== "\\D*") separated = true;
      rest = rest.slice(token.length);
      continue;
    }
    return refuse(`holds '${rest}'`);
  }
  return captures;
}

/**
 * The xCAT `|pattern|replacement|` value that {@link xcatRegexToExpression} turns into exactly
 * `expression`, for reading a Confluent expression back into a program's xCAT terms (import):
 * `{nK…}` arithmetic becomes `($K…)`, `{nK:0Nd}` a bare `$K` of a `(\d{N})` capture, `{{`/`}}` a
 * literal brace; the pattern captures the name's digit runs in order (`^\D*(\d+)\D+(\d+)…`).
 * Undefined when there is none: `{n0}` (the last run), `{node}`, other attributes' values, or
 * anything that does not come back unchanged through xcatRegexToExpression.
 *
 * @example xcatRegexOfExpression("10.0.{n1}.{n2+100}") // "|^\\D*(\\d+)\\D+(\\d+)|10.0.($1+0).($2+100)|"
 */
export function xcatRegexOfExpression(expression: string): string | undefined {
  const widths = new Map<number, number | undefined>();
  let replacement = "";
  let rest = expression;
  while (rest.length > 0) {
    if (rest.startsWith("{{") || rest.startsWith("}}")) {
      replacement += rest[0];
      rest = rest.slice(2);
      continue;
    }
    if (rest[0] === "}" || /[|$()]/.test(rest[0] ?? "")) return undefined;
    if (rest[0] !== "{") {
      replacement += rest[0];
      rest = rest.slice(1);
      continue;
    }
    const field = /^\{([^{}]*)\}/.exec(rest);
    if (!field) return undefined;
    const body = field[1] ?? "";
    const formatted = /^n(\d+):0(\d+)d$/.exec(body);
    if (formatted) {
      const run = Number(formatted[1]);
      const width = Number(formatted[2]);
      if (run === 0 || (widths.has(run) && widths.get(run) !== width)) return undefined;
      widths.set(run, width);
      replacement += `($${run})`;
    } else if (/^n\d+$/.test(body)) {
      // Confluent's {n1} is the number; xCAT's ($1) would keep leading zeros, ($1+0) does not.
      const run = Number(body.slice(1));
      if (run === 0) return undefined;
      if (!widths.has(run)) widths.set(run, undefined);
      replacement += `($${run}+0)`;
    } else {
      if (!/^[n\d+\-*/%\s]+$/.test(body)) return undefined;
      let bad = false;
      const arithmetic = body.replace(/\s+/g, "").replace(/n(\d+)/g, (_, k: string) => {
        const run = Number(k);
        if (run === 0) bad = true;
        if (!widths.has(run)) widths.set(run, undefined);
        return `$${run}`;
      });
      if (bad || !arithmetic.includes("$")) return undefined;
      replacement += `(${arithmetic})`;
    }
    rest = rest.slice(field[0].length);
  }
  const runs = Math.max(0, ...widths.keys());
  if (runs === 0) return undefined;
  let pattern = "^\\D*";
  for (let run = 1; run <= runs; run++) {
    const width = widths.get(run);
    pattern += `${run > 1 ? "\\D+" : ""}(\\d${width === undefined ? "+" : `{${width}}`})`;
  }
  const value = `|${pattern}|${replacement}|`;
  const back = xcatRegexToExpression(value);
  return "expression" in back && back.expression === expression ? value : undefined;
}
