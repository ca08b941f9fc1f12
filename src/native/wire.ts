/**
 * Property values on the wire of Pulumi's provider protocol, as a google.protobuf.Struct turned
 * into JavaScript: a secret is an object `{[SIG]: SECRET_SIG, value}`, a value unknown during
 * preview is the string UNKNOWN (sdk/nodejs/runtime/rpc.ts at v3.259.0). The core takes plain
 * values, with the unknown string left as it is (validation.ts isUnknown), so secrets are
 * unwrapped on the way in and the places they were noted, to wrap them again on the way out:
 * the engine does not mark outputs secret for a provider that accepts secrets
 * (provider_plugin.go:1264, 1506), so the provider must.
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";

/** The key that marks a special value, and the signature of a secret (sdk/go/common/resource/sig). */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export type Properties = Record<string, unknown>;

/** A decoded property map and the paths of its secrets: "key" or "key.subkey". */
export interface Decoded {
  readonly values: Properties;
  readonly secretPaths: ReadonlySet<string>;
}

function isSecretValue(value: unknown): value is { value: unknown } {
  return (
    typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG
  );
}

function unwrap(value: unknown, path: string, secrets: Set<string>): unknown {
  if (isSecretValue(value)) {
    secrets.add(path);
    return unwrap(value.value, path, secrets);
  }
  if (Array.isArray(value)) return value.map((entry) => unwrap(entry, path, secrets));
  if (typeof value === "object" && value !== null) {
    // Secrets are noted two levels deep (an attribute of a map); deeper ones count for their map.
    const depth = path.split(".").length;
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [
        key,
        unwrap(entry, depth < 2 ? `${path}.${key}` : path, secrets),
      ]),
    );
  }
  return value;
}

/** The plain values of a request's property Struct, and where its secrets were. */
export function decode(struct: Struct | undefined): Decoded {
  const secretPaths = new Set<string>();
  const raw = (struct?.toJavaScript() ?? {}) as Properties;
  const values: Properties = {};
  for (const [key, value] of Object.entries(raw)) values[key] = unwrap(value, key, secretPaths);
  return { values, secretPaths };
}

/** Wraps a value as a secret. */
export function secret(value: unknown): unknown {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/**
 * A Struct of `values` with each key in `secretKeys` wrapped as a secret. Undefined entries are
 * dropped (a Struct has no undefined).
 */
export function encode(values: Properties, secretKeys: ReadonlySet<string>): Struct {
  const wire: Properties = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const plain = JSON.parse(JSON.stringify(value)) as unknown;
    wire[key] = secretKeys.has(key) && plain !== null ? secret(plain) : plain;
  }
  return Struct.fromJavaScript(wire as Parameters<typeof Struct.fromJavaScript>[0]);
}

/** The top-level keys under which a secret was found. */
export function topLevelKeys(paths: Iterable<string>): Set<string> {
  return new Set([...paths].map((path) => path.split(".")[0] as string));
}
