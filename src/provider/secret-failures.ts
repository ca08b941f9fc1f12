/**
 * How an input failure reaches the engine when the input holds a secret. Its own module so that a
 * program's construction-time check (classes/program-check.ts) gets it without loading the generic
 * provider (make-provider.ts), which brings in the client (undici, zod): a TypeScript program that
 * only declares resources never calls the client.
 */
import { isSecretAttribute } from "./attributes";
import { type InputFailure, isPlainObject } from "./validation";

/** Inputs whose whole value is secret: a password's, a connection's (password or token). */
const SECRET_INPUTS = new Set(["secretAttributes", "connection"]);

/**
 * The failure as the engine should get it. The engine prints a failure's property together with
 * its value, even a secret one ("property secretAttributes value {map[bmcpasword:{…}]} has a
 * problem"), so a failure on an input that holds a password is given without its property: the
 * engine then prints only the reason, which names the field itself.
 */
export function withoutSecretValue(
  failure: InputFailure,
  inputs: Readonly<Record<string, unknown>>,
): InputFailure {
  const value = inputs[failure.property];
  const holdsSecret =
    SECRET_INPUTS.has(failure.property) ||
    isSecretAttribute(failure.property) ||
    (isPlainObject(value) && Object.keys(value).some(isSecretAttribute));
  return holdsSecret ? { property: "", reason: failure.reason } : failure;
}
