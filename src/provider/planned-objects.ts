/**
 * The named objects that the running program declares, as this provider process has checked
 * them: a check that reads the server (a Deployment's osimage) accepts an object that does not
 * exist yet when the program creates it in the same run.
 *
 * The engine checks a resource when the program registers it, and a resource that takes another's
 * output (`osimage: image.name`) registers after it, so its check comes later. One provider
 * process serves one preview or update of one stack (pulumi-notes.md 1.1).
 */

const planned = new Map<string, Map<string, Readonly<Record<string, unknown>>>>();

/**
 * Records that the program declares the object `name` of `kind` (e.g. "xcat:Osimage") with these
 * checked inputs (a Deployment's preview reads a declared node's `ip` and `nameServices`).
 */
export function notePlanned(
  kind: string,
  name: string,
  inputs: Readonly<Record<string, unknown>> = {},
): void {
  let names = planned.get(kind);
  if (!names) {
    names = new Map();
    planned.set(kind, names);
  }
  names.set(name, inputs);
}

/** Whether the program declares the object `name` of `kind`. */
export function isPlanned(kind: string, name: string): boolean {
  return planned.get(kind)?.has(name) === true;
}

/** The checked inputs of a declared object, or undefined when the program does not declare it. */
export function plannedInputs(kind: string, name: string): Readonly<Record<string, unknown>> | undefined {
  return planned.get(kind)?.get(name);
}

/** Forgets every declaration (tests run many programs in one process). */
export function forgetPlanned(): void {
  planned.clear();
}
