/**
 * How the CGI turns body keys and query params into command operands (defhdl, xcat-behavior.md
 * §1.4): `options` become flags, list attributes are joined, other arrays are dropped, and every
 * Perl-false value ("", null, false, 0, "0") becomes `attr=`, which clears the attribute.
 */
import { hashString } from "../random";
import type { Assignments } from "../store/definitions";
import { internalServerError } from "./errors";
import { perlTrue } from "./render";

const LIST_ATTRIBUTES = new Set(["groups", "members", "postscripts", "postbootscripts"]);

export interface Operands {
  readonly assignments: Assignments;
  /** Flags from `options`, e.g. `["-f"]` or `["--template", "x"]`. */
  readonly options: readonly string[];
}

/** Perl's stringification of a scalar operand value. */
export function perlString(value: unknown): string {
  if (value === true) return "1";
  if (value !== null && typeof value === "object") {
    // Perl prints a hash reference as its address; any stable fake address will do.
    return `HASH(0x55${hashString(JSON.stringify(value)).toString(16).padStart(10, "0")})`;
  }
  return String(value);
}

/**
 * `keepEmptyValues` false is xcatws.cgi up to 2.16.5, whose defhdl drops an attribute with a
 * Perl-false value instead of passing `attr=` (2.16.5:xCAT-server/xCAT-wsapi/xcatws.cgi:2096).
 */
export function toOperands(
  params: ReadonlyMap<string, unknown>,
  { keepEmptyValues = true }: { readonly keepEmptyValues?: boolean } = {},
): Operands {
  const assignments: [string, string][] = [];
  const options: string[] = [];
  for (const [key, value] of params) {
    if (key === "options") {
      if (value === null || typeof value !== "object" || Array.isArray(value)) throw internalServerError();
      for (const [flag, optionValue] of Object.entries(value as Record<string, unknown>)) {
        if (flag === "-o" || flag === "-l" || flag === "-t") continue;
        options.push(flag);
        if (perlTrue(optionValue)) options.push(perlString(optionValue));
      }
      continue;
    }
    const attribute = key.trim();
    if (Array.isArray(value)) {
      if (LIST_ATTRIBUTES.has(attribute)) assignments.push([attribute, value.map(perlString).join(",")]);
      else if (/^nicips.+/.test(attribute)) assignments.push([attribute, value.map(perlString).join("|")]);
      continue;
    }
    if (perlTrue(value)) assignments.push([attribute, perlString(value).trimStart()]);
    else if (keepEmptyValues) assignments.push([attribute, ""]);
  }
  return { assignments, options };
}
