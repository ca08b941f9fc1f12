/**
 * What `lsdef` prints for the /templates resources (xcatws.cgi:1289-1316 run `lsdef` with the
 * request's options, and `-a` for /templates/node/all), read from DBobjectdefs.pm:
 * - no option: the nodes' short listing (`n1  (node)`), or `Could not find any object definitions
 *   to display.` (lsdef's type defaults to node, :550-553);
 * - `--template <names>`: each shipped node template (./node-templates.ts) as `Object name:` and
 *   its set, valid attributes sorted (:3461-3476, 4106-4200); an unknown name is the error
 *   `Could not find <name> in xCAT templates.` (:922-933);
 * - `--template` without a name: every template, short (the option's empty value is false for the
 *   long-listing test, :3405).
 * Templates are listed whether or not any node exists: lsdef skips a type without objects
 * (:3992-4001), but getDBtable answers an empty table with `(undef)`, one element
 * (DBobjUtils.pm:618-658), so a type never looks empty there.
 * With `-a` the listing spans every object type, so lines carry the type: `name ()` in the short
 * form (no type is looked up for templates), `Object name: x  (node)` in the long one.
 */
import { isKnownAttribute, OBJECT_TYPES, type ObjectType } from "../../contract/schema";
import { CommandError } from "./errors";
import { NODE_TEMPLATES } from "./node-templates";

/** The lsdef options that matter here. */
export interface TemplateListingRequest {
  /** `-a` (GET /templates/node/all). */
  readonly all: boolean;
  /** `--template`'s value: undefined without the option, "" without a value, else names. */
  readonly template: string | undefined;
}

/**
 * The lines lsdef prints. `objectsOf` gives the names of the objects of a type (none: empty).
 * Throws CommandError for lsdef's errors.
 */
export function lsdefTemplateLines(
  request: TemplateListingRequest,
  objectsOf: (type: ObjectType) => readonly string[],
): string[] {
  const { all, template } = request;
  if (template === undefined) {
    // `lsdef -a` over the types the emulator holds, in OBJECT_TYPES order.
    const types = all ? OBJECT_TYPES : (["node"] as const);
    const lines = types.flatMap((type) =>
      [...objectsOf(type)].sort().map((name) => (all ? `${name} (${type})` : `${name}  (node)`)),
    );
    return lines.length > 0 ? lines : ["Could not find any object definitions to display."];
  }
  const names = template ? template.split(",") : Object.keys(NODE_TEMPLATES);
  for (const name of names) {
    if (!NODE_TEMPLATES[name]) throw new CommandError([`Could not find ${name} in xCAT templates.`]);
  }
  const lines: string[] = [];
  for (const name of [...new Set(names)].sort()) {
    if (!template) {
      lines.push(all ? `${name} ()` : `${name}  (node)`);
      continue;
    }
    lines.push(all ? `Object name: ${name}  (node)` : `Object name: ${name}`);
    const fields = NODE_TEMPLATES[name] ?? {};
    for (const attribute of Object.keys(fields).sort()) {
      const value = fields[attribute] ?? "";
      if (attribute !== "objtype" && value !== "" && isKnownAttribute("node", attribute))
        lines.push(`    ${attribute}=${value}`);
    }
  }
  return lines;
}
