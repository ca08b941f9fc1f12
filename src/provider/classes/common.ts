/**
 * What the resource classes share on the program side: the connection input, the split of
 * password attributes into a secret input, and the options every resource gets.
 */
import * as pulumi from "@pulumi/pulumi";
import { isSecretAttribute, splitSecretAttributes } from "../attributes";
import { ThinDynamicResource, type ThinProvider } from "../thin-provider";
import { isPlainObject } from "../validation";
import { claimObject } from "./object-claims";
import { checkedRegistration } from "./program-check";

/**
 * Where to reach xCAT, for programs that manage more than one management node. Without it a
 * resource uses the provider configuration (`xcat:url`, … or `XCAT_URL`, …).
 */
export interface ConnectionArgs {
  /** Base URL of xcatws, e.g. `https://mn1.example.org/xcatws` (a URL with no path gets /xcatws). */
  readonly url: pulumi.Input<string>;
  readonly username?: pulumi.Input<string>;
  /** Stored encrypted in the state. */
  readonly password?: pulumi.Input<string>;
  /** An xCAT REST token, used instead of username and password. Stored encrypted in the state. */
  readonly token?: pulumi.Input<string>;
  /** The CA certificate of the management node's web server: PEM text or a file path. */
  readonly caCert?: pulumi.Input<string>;
  /** Skip certificate verification (never the default; a warning is logged). */
  readonly insecure?: pulumi.Input<boolean>;
  /**
   * The server's kind: "xcat" (xcatws) or "confluent" (Confluent's `/confluent-api`, url then
   * names it and username/password are a Confluent user). Absent: the stack's `xcat:backend`.
   */
  readonly backend?: pulumi.Input<"xcat" | "confluent">;
}

/** The connection as a resource input: secret as a whole, since it may hold a password or token. */
export function connectionInput(connection: pulumi.Input<ConnectionArgs> | undefined): pulumi.Input<unknown> {
  return connection === undefined ? undefined : pulumi.secret(connection);
}

/**
 * Splits declared attributes into `attributes` and `secretAttributes` (names that look like a
 * password, misspelt ones included: see isSecretAttribute), the latter a secret, so passwords are encrypted in the state and
 * shown as [secret] in diffs while the other attributes stay readable.
 *
 * The split happens on the map's keys before any value is resolved: a map built from outputs
 * inherits the secretness of every value in it, so splitting after resolution would make the
 * ordinary attributes secret whenever a password is among them.
 */
export function attributeInputs(attributes: pulumi.Input<Record<string, pulumi.Input<string>>> | undefined): {
  attributes: pulumi.Input<Record<string, pulumi.Input<string>>>;
  secretAttributes: pulumi.Input<Record<string, pulumi.Input<string>>>;
} {
  // Not a map at all (a JavaScript caller's string, number or array): pass it on untouched so
  // check() reports "attributes must be an object", instead of splitting a string into one
  // "attribute" per character.
  if (attributes !== undefined && !isPlainObject(attributes)) {
    return { attributes, secretAttributes: pulumi.secret({}) };
  }
  if (
    attributes === undefined ||
    (typeof attributes === "object" && !pulumi.Output.isInstance(attributes) && !isPromise(attributes))
  ) {
    const plain: Record<string, pulumi.Input<string>> = {};
    const secret: Record<string, pulumi.Input<string>> = {};
    for (const [name, value] of Object.entries(attributes ?? {})) {
      if (isSecretAttribute(name)) secret[name] = value;
      else if (pulumi.Output.isInstance(value)) {
        // Left out of a map when undefined: each value lands in exactly one of the two.
        const { ifPlain, ifSecret } = bySecretness(value as pulumi.Output<string>);
        plain[name] = ifPlain as pulumi.Output<string>;
        secret[name] = ifSecret as pulumi.Output<string>;
      } else plain[name] = value;
    }
    return { attributes: plain, secretAttributes: pulumi.secret(secret) };
  }
  // The map itself is an output or a promise: its keys are only known once it resolves.
  // A map that is a secret as a whole is secret in every value: all of it goes to secretAttributes.
  const all = pulumi.output(attributes) as pulumi.Output<Record<string, string>>;
  const wholeSecret = pulumi.output(pulumi.isSecret(all));
  const split = (side: "plain" | "secret") =>
    wholeSecret.apply((isSecret) =>
      isSecret
        ? side === "plain"
          ? pulumi.output({})
          : all
        : all.apply((values) =>
            isPlainObject(values) ? splitSecretAttributes(values)[side] : side === "plain" ? values : {},
          ),
    );
  return { attributes: split("plain"), secretAttributes: pulumi.secret(split("secret")) };
}

/**
 * An output under an ordinary name goes to `attributes` when it is plain and to
 * `secretAttributes` when the program made it a secret (a BMC user from `config.requireSecret`):
 * in `attributes` its value would come back through `allAttributes`, which is not secret, and so
 * reach the state in plain text. Each side is undefined (left out of its map) when the value
 * belongs to the other. The choice rests on the secret flag alone, which is known even when the
 * value is not (a preview before the value's resource exists), so an unknown value is never put
 * on both sides; and the side that does not hold the value does not take on its flag.
 */
function bySecretness(value: pulumi.Output<string>): {
  ifPlain: pulumi.Output<string | undefined>;
  ifSecret: pulumi.Output<string | undefined>;
} {
  const secretness = pulumi.output(pulumi.isSecret(value));
  const side = (wanted: boolean) =>
    secretness.apply((isSecret) => (isSecret === wanted ? value : pulumi.output(undefined))) as pulumi.Output<
      string | undefined
    >;
  return { ifPlain: side(false), ifSecret: side(true) };
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** Options for every xCAT resource: the outputs that may carry secrets are always secret. */
export function resourceOptions(
  opts: pulumi.CustomResourceOptions | undefined,
  secretOutputs: readonly string[],
): pulumi.CustomResourceOptions {
  return {
    ...opts,
    additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "connection", ...secretOutputs],
  };
}

/** The inputs every attribute-object resource (Node, Group, Osimage, Network, Policy) shares. */
export interface AttributeObjectArgs {
  readonly attributes?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  readonly adopt?: pulumi.Input<boolean>;
  readonly connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * The props a resource registers: a key for each of its outputs, unset ones included (Pulumi
 * exposes an output only for a key it is given), and the inputs that are set.
 *
 * An unset input is left out rather than given as `undefined`: Pulumi never sends it to the engine,
 * but its SDK still makes four promises for every key, each capturing a source-mapped stack trace.
 * The unset `adopt` and `connection` of every resource were most of the ~2 ms of program CPU per
 * resource that pulumi-xcat cost beyond the engine floor (docs/large-stacks.md, "Where the time
 * goes").
 */
export function registeredProps(
  outputs: readonly string[],
  inputs: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const key of outputs) props[key] = undefined;
  for (const [key, value] of Object.entries(inputs)) {
    if (value !== undefined) props[key] = value;
  }
  return props;
}

/**
 * The props of an attribute-object resource. With `opts.id` (`Resource.get`) only the connection
 * is given, and read reports the rest, taking every attribute xCAT reports as declared.
 */
export function attributeObjectProps(
  opts: pulumi.CustomResourceOptions | undefined,
  own: Readonly<Record<string, unknown>>,
  args: AttributeObjectArgs,
): Record<string, unknown> {
  const outputs = ["name", "attributes", "allAttributes", ...Object.keys(own)];
  const connection = connectionInput(args.connection);
  if (opts?.id) return registeredProps(outputs, { connection });
  return registeredProps(outputs, {
    ...own,
    ...attributeInputs(args.attributes),
    adopt: args.adopt,
    connection,
  });
}

/**
 * Inputs of the attribute objects that are just a name and attributes (Group, Osimage): `name`
 * defaults to the Pulumi resource name, and changing it replaces the object; only the given
 * attributes are managed; `adopt` takes over an existing object whose values differ.
 */
export interface NamedObjectArgs<Attributes> {
  readonly name?: pulumi.Input<string>;
  readonly attributes: pulumi.Input<Attributes>;
  readonly adopt?: pulumi.Input<boolean>;
  readonly connection?: pulumi.Input<ConnectionArgs>;
}

/** What every attribute-object resource (Node, Group, Osimage, Network, Policy) outputs. */
export abstract class AttributeObjectResource extends ThinDynamicResource {
  /** The object's name in xCAT (for a policy, its priority). */
  declare readonly name: pulumi.Output<string>;
  /** The declared attributes, as xCAT reported them at the last update or refresh (passwords aside). */
  declare readonly attributes: pulumi.Output<Record<string, string>>;
  /** Everything xCAT reports for the object, inherited values included, without passwords. */
  declare readonly allAttributes: pulumi.Output<Record<string, string>>;

  /**
   * @param provider the kind's thin provider, created once at module scope
   * @param type the resource type below `xcat:`, e.g. "Node"
   * @param own the resource's own inputs besides attributes, adopt and connection
   */
  protected constructor(
    provider: ThinProvider,
    type: string,
    name: string,
    own: Readonly<Record<string, unknown>>,
    args: AttributeObjectArgs,
    opts: pulumi.CustomResourceOptions | undefined,
  ) {
    // Inputs known in the program are checked here, so that every invalid resource is named in
    // one preview (program-check.ts); Resource.get only reads and is not checked.
    const props = opts?.id
      ? attributeObjectProps(opts, own, args)
      : checkedRegistration(
          `xcat:${type}`,
          name,
          { ...own, attributes: args.attributes, adopt: args.adopt, connection: args.connection },
          attributeObjectProps(opts, own, args),
        );
    super(provider, name, props, resourceOptions(opts, ["secretAttributes"]), "xcat", type);
    // Resource.get only reads: it claims nothing.
    if (!opts?.id) {
      const objectName = (own.name ?? own.priority) as pulumi.Input<string> | undefined;
      claimObject(this, `xcat:${type}`, name, type.toLowerCase(), objectName, args.connection);
    }
  }
}
