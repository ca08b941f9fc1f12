/**
 * Every invalid resource of a TypeScript program named in one preview (issue #36 item 7).
 *
 * The engine stops a preview at the first resource whose Check fails (docs/support-matrix.md
 * N11), so a program with four mistakes would need four previews. The resource classes therefore
 * run the kind's own pure check (the same `spec.check` the provider runs) in the program, when
 * every input is a plain value. A resource that fails it is never registered: its registration
 * waits on a promise that is rejected with a `ResourceError` naming the resource and each field.
 * The Node SDK logs that error under the resource, carries on with the rest of the program (so
 * every other mistake is found and logged too), and exits non-zero at the end (exit code 32,
 * @pulumi/pulumi cmd/run/index.ts), which fails the preview and stops `up` before anything of an
 * invalid resource is written. Inputs that are outputs of other resources are left to the
 * provider's check, as before.
 */
import * as pulumi from "@pulumi/pulumi";
import { splitSecretAttributes } from "../attributes";
import { kindCheck } from "../kind-checks";
import { withoutSecretValue } from "../secret-failures";
import { type InputFailure, isPlainObject } from "../validation";

/** A value with no output or promise anywhere in it: known now, in the program. */
export function isWhollyPlain(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (pulumi.Output.isInstance(value)) return false;
  if (typeof (value as { then?: unknown }).then === "function") return false;
  if (Array.isArray(value)) return value.every(isWhollyPlain);
  if (typeof value === "object") return Object.values(value).every(isWhollyPlain);
  return true;
}

/**
 * The inputs as the provider's check will get them (attributes split from secretAttributes,
 * unset inputs left out), or undefined when some input is not a plain value yet.
 */
export function inputsAsChecked(
  inputs: Readonly<Record<string, unknown>>,
): Record<string, unknown> | undefined {
  if (!isWhollyPlain(inputs)) return undefined;
  const checked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(inputs)) {
    if (value === undefined) continue;
    if (key === "attributes" && isPlainObject(value)) {
      const { plain, secret } = splitSecretAttributes(value as Record<string, string>);
      checked.attributes = plain;
      checked.secretAttributes = secret;
    } else checked[key] = value;
  }
  return checked;
}

/** The backend the resource will be checked on: its connection's, else the stack's, else xcat. */
function backendOf(inputs: Readonly<Record<string, unknown>>): "xcat" | "confluent" {
  const connection = inputs.connection;
  const own = isPlainObject(connection) ? connection.backend : undefined;
  const stack = new pulumi.Config("xcat").get("backend") ?? process.env.XCAT_BACKEND;
  const named = own ?? stack;
  return named === "confluent" ? "confluent" : "xcat";
}

/**
 * What the provider's check would refuse in these inputs, or an empty list when it accepts them
 * or cannot be run in the program (some input not known yet, a kind without a pure check here).
 */
export function programCheckFailures(
  kind: string,
  inputs: Readonly<Record<string, unknown>>,
): InputFailure[] {
  const checked = inputsAsChecked(inputs);
  if (checked === undefined) return [];
  const check = kindCheck(kind, backendOf(inputs));
  if (check === undefined) return [];
  const outcome = check(checked);
  return "failures" in outcome ? outcome.failures.map((failure) => withoutSecretValue(failure, checked)) : [];
}

/**
 * One message for all of a resource's failures: a line per failure naming the resource as the
 * engine names it (`pulumi-nodejs:dynamic/xcat:Node resource 'cn01'`) and the field, as the
 * engine's own check-failure line does. A failure on an input that holds a password comes without
 * its property (its reason names the field), and no value is ever printed.
 */
export function describeFailures(kind: string, name: string, failures: readonly InputFailure[]): string {
  const resource = `pulumi-nodejs:dynamic/${kind} resource '${name}'`;
  const lines = failures.map((failure) =>
    failure.property === ""
      ? `${resource}: ${failure.reason}`
      : `${resource}: property ${failure.property} has a problem: ${failure.reason}`,
  );
  return `${lines.join("\n")}\nNothing of ${kind} '${name}' was sent to the server.`;
}

/**
 * The props to register: `registered` itself when the program-side check passes; otherwise the
 * same props plus a promise rejected with the error, so the resource is never registered (the
 * Node SDK awaits every input before it calls the engine) and the program ends with the error
 * logged and a non-zero exit. The error is logged without the resource: the Node SDK's log waits
 * for the resource's URN, which a resource that never registers does not get.
 */
export function checkedRegistration(
  kind: string,
  name: string,
  inputs: Readonly<Record<string, unknown>>,
  registered: Record<string, unknown>,
): Record<string, unknown> {
  const failures = programCheckFailures(kind, inputs);
  if (failures.length === 0) return registered;
  return {
    ...registered,
    __refused: Promise.reject(
      new pulumi.ResourceError(describeFailures(kind, name, failures), undefined, true),
    ),
  };
}
