import * as pulumi from "@pulumi/pulumi";

/**
 * The dynamic provider of a resource kind, as the state holds it.
 *
 * Pulumi's dynamic resources carry their provider as JavaScript text (`__provider`, stored in the
 * inputs and again in the outputs of every resource), and the dynamic-provider host runs
 * `require(text).handler()` to get the provider object (@pulumi/pulumi cmd/dynamic-provider,
 * `getProvider`, which caches per text). `refresh` and `destroy` run the text that the last
 * create or update wrote.
 *
 * `pulumi.dynamic.Resource` makes that text by serializing a provider object's closures: 2.7 KB
 * per resource for seven one-line methods, twice in the state, and the serializer (with the V8
 * inspector it drives) loaded into every program. Here the text is written directly, one line
 * that names the kind and leaves everything else to this package's installed runtime
 * (`pulumi-xcat/provider-runtime`, {@link providerFor}): no credentials or sockets in the state,
 * old stacks run the currently installed code (see ../shared/pulumi-notes.md 1.2), and a large
 * stack's engine and provider marshal ~5 KB less per resource (docs/large-stacks.md).
 *
 * Texts written by earlier versions (the serialized closures) call the runtime's per-operation
 * exports, which therefore stay.
 */
export interface ThinProvider {
  /** The kind the runtime implements, e.g. "xcat:Node". */
  readonly kind: string;
}

/** Create one per kind at module scope. */
export function thinProvider(kind: string): ThinProvider {
  return { kind };
}

/** The `__provider` text of a kind: a module whose `handler()` is the runtime's provider for it. */
export function providerText(provider: ThinProvider): string {
  return `exports.handler = () => require("pulumi-xcat/provider-runtime").providerFor(${JSON.stringify(provider.kind)});\n`;
}

/**
 * What `pulumi.dynamic.Resource` registers (type `pulumi-nodejs:dynamic/<module>:<type>`, so
 * URNs and the engine's dynamic-provider plugin stay the same), with the provider's text written
 * by {@link providerText} instead of serialized.
 */
export abstract class ThinDynamicResource extends pulumi.CustomResource {
  protected constructor(
    provider: ThinProvider,
    name: string,
    props: pulumi.Inputs,
    opts: pulumi.CustomResourceOptions | undefined,
    module: string,
    type: string,
  ) {
    if (props.__provider !== undefined)
      throw new Error("A dynamic resource must not define the __provider key");
    super(
      `pulumi-nodejs:dynamic/${module}:${type}`,
      name,
      { ...props, __provider: providerText(provider) },
      opts,
    );
  }
}
