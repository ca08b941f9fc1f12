/**
 * The native provider's resource types and how a native program's inputs become the inputs the
 * core's specs take. The TypeScript classes (src/provider/classes) shape inputs on the program
 * side; a YAML, Python or Go program sends what its author wrote, so the same shaping happens
 * here, in Check: a `name` that defaults to the resource's name, and password attributes moved
 * into the secret `secretAttributes`.
 */
import { isSecretAttribute, splitSecretAttributes } from "../provider/attributes";
import { isPlainObject } from "../provider/validation";
import type { Properties } from "./wire";

/** Every kind the native provider serves, as `xcat:index:<Kind>`. */
export const NATIVE_KINDS = [
  "Node",
  "NodeSet",
  "Group",
  "Osimage",
  "Network",
  "Policy",
  "GlobalConfAttribute",
  "TableRow",
  "VirtualMachine",
  "Deployment",
  "PowerState",
] as const;

/** Kinds whose password attributes move into the secret `secretAttributes`. */
export const ATTRIBUTE_KINDS: ReadonlySet<string> = new Set([
  "Node",
  "Group",
  "Osimage",
  "Network",
  "Policy",
]);
/** Kinds whose `name` defaults to the resource's name, as in the TypeScript classes. */
export const NAME_DEFAULTS: ReadonlySet<string> = new Set([
  "Node",
  "Group",
  "Osimage",
  "Network",
  "GlobalConfAttribute",
]);

/** The type token and resource name of a URN (`urn:pulumi:stack::project::[parent$]type::name`). */
export function parseUrn(urn: string): { type: string; name: string } {
  const parts = urn.split("::");
  const qualified = parts[2] ?? "";
  return { type: qualified.split("$").pop() ?? "", name: parts.slice(3).join("::") };
}

/** The core's kind ("xcat:Node") for a native type token ("xcat:index:Node"). */
export function coreKind(type: string): string {
  const match = /^xcat:index:([A-Za-z]+)$/.exec(type);
  const kind = match?.[1];
  if (!kind || !(NATIVE_KINDS as readonly string[]).includes(kind)) {
    throw new Error(
      `pulumi-resource-xcat has no resource type '${type}'. It serves ${NATIVE_KINDS.map((k) => `xcat:index:${k}`).join(", ")}.`,
    );
  }
  return `xcat:${kind}`;
}

function shortKind(kind: string): string {
  return kind.slice("xcat:".length);
}

/**
 * The inputs as the core takes them, and which of their keys hold secrets. `secretPaths` are
 * where the request carried secrets (`key` or `key.subkey`).
 */
export function shapeInputs(
  kind: string,
  resourceName: string,
  news: Properties,
  secretPaths: ReadonlySet<string>,
): { inputs: Properties; secretKeys: Set<string> } {
  const short = shortKind(kind);
  const inputs: Properties = { ...news };
  const secretKeys = new Set([...secretPaths].map((path) => path.split(".")[0] as string));
  if (NAME_DEFAULTS.has(short) && inputs.name === undefined) inputs.name = resourceName;
  if (ATTRIBUTE_KINDS.has(short)) {
    const given = inputs.attributes;
    const known = isPlainObject(inputs.secretAttributes) ? inputs.secretAttributes : {};
    if (isPlainObject(given)) {
      const { plain, secret } = splitSecretAttributes(given as Record<string, string>);
      // A value given as a secret under a name that is no password (a BMC user from
      // fn::secret) is a secret attribute too: in `attributes` it would be read back into
      // allAttributes, which is not secret, and so reach the state in plain text.
      const wholeMapSecret = secretPaths.has("attributes");
      for (const name of Object.keys(plain)) {
        if (wholeMapSecret || secretPaths.has(`attributes.${name}`)) {
          secret[name] = plain[name] as string;
          delete plain[name];
        }
      }
      inputs.attributes = plain;
      inputs.secretAttributes = { ...known, ...secret };
      secretKeys.delete("attributes");
    } else {
      inputs.secretAttributes = known;
    }
  }
  for (const key of secretKeysOf(kind, inputs)) secretKeys.add(key);
  return { inputs, secretKeys };
}

/** The keys of a kind's inputs or outputs that are always secret (the TypeScript classes' additionalSecretOutputs). */
export function secretKeysOf(kind: string, values: Properties): Set<string> {
  const keys = new Set(["connection", "secretAttributes"]);
  // A table row whose values hold a password (the passwd table) is secret as a whole, as in TableRow.
  if (
    kind === "xcat:TableRow" &&
    isPlainObject(values.values) &&
    Object.keys(values.values).some(isSecretAttribute)
  ) {
    keys.add("values");
  }
  return keys;
}
