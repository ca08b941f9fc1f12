import type * as pulumi from "@pulumi/pulumi";

/**
 * Builds the dynamic provider object that Pulumi serializes into state for a resource kind.
 *
 * Pulumi turns a dynamic provider into JavaScript text (`__provider`) stored twice per resource, and
 * `refresh`/`destroy` run the text that the last create or update wrote. So the serialized object
 * holds nothing but the kind name: every method requires this package's installed runtime at call
 * time and delegates to it. State stays small, no credentials or sockets are captured, and old
 * stacks run the currently installed code (see ../shared/pulumi-notes.md 1.2).
 *
 * Create one provider per kind at module scope: Pulumi caches serialization per provider object.
 *
 * @example
 * const provider = thinProvider("xcat:Echo");
 * new pulumi.dynamic.Resource(provider, name, inputs, opts, "xcat", "Echo");
 */
export function thinProvider(kind: string): pulumi.dynamic.ResourceProvider {
  // Each method body is serialized on its own, so each one requires the runtime itself; the
  // only captured variable is `kind`, a string.
  return {
    async configure(req) {
      return require("pulumi-xcat/provider-runtime").configure(kind, req);
    },
    async check(olds, news) {
      return require("pulumi-xcat/provider-runtime").check(kind, olds, news);
    },
    async diff(id, olds, news) {
      return require("pulumi-xcat/provider-runtime").diff(kind, id, olds, news);
    },
    async create(inputs) {
      return require("pulumi-xcat/provider-runtime").create(kind, inputs);
    },
    async read(id, props) {
      return require("pulumi-xcat/provider-runtime").read(kind, id, props);
    },
    async update(id, olds, news) {
      return require("pulumi-xcat/provider-runtime").update(kind, id, olds, news);
    },
    async delete(id, props) {
      return require("pulumi-xcat/provider-runtime").delete(kind, id, props);
    },
  };
}
