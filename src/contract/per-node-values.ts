/**
 * xCAT's per-node attribute values: a value of the form `/pattern/replacement/` or
 * `|pattern|replacement|` is a template that xCAT expands for each node by its name whenever it
 * reads node attributes, from the node's own row or a group's (perl-xCAT/xCAT/Table.pm at master:
 * sub transRegexAttrs 2647-2700, whose two tests `^\/[^\/]*\/[^\/]*\/$` and `^\|.*\|$` this
 * mirrors; getNodeAttribs applies it to every value it returns unless asked for raw values,
 * 2800-2815). Objects other than nodes are read raw (DBobjUtils.pm getobjdefs sets `keep_raw`,
 * 190-195), so a group shows the template itself.
 */

/**
 * True when xCAT expands `value` per node name rather than storing it as it is.
 *
 * @example
 * ```ts
 * isPerNodeTemplate("|\\D+(\\d+)|10.0.0.($1+0)|"); // true
 * isPerNodeTemplate("10.0.0.1"); // false
 * ```
 */
export function isPerNodeTemplate(value: string): boolean {
  // Perl's `.` stops at a line break; so does JavaScript's without the s flag.
  return /^\/[^/]*\/[^/]*\/$/.test(value) || /^\|.*\|$/.test(value);
}
