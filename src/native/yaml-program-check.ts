/**
 * Every invalid resource of a YAML program named in one preview (issue #36 item 7).
 *
 * The engine stops a preview at the first resource whose Check fails (step_generator.go:1476-1477
 * at v3.259.0; docs/support-matrix.md N11), so a YAML program with four mistakes needed four
 * previews. When the native provider refuses a resource, it therefore also reads the program
 * itself (the engine starts provider plugins in the project's directory: plugin.go:599, `cmd.Dir
 * = pwd`, with ctx.Pwd the project root) and runs the same pure checks over every other resource
 * of a checkable kind whose properties are literals, adding what they refuse to the failure. The
 * preview still fails at the first resource, now naming all of them; nothing is sent to a server
 * for any of them. Properties holding an expression (`${...}`, `fn::*`) are the engine's to
 * resolve and are left to the provider's check, as are resources whose backend the process cannot
 * know (another provider's without a literal `backend`, or the default provider's when this
 * process is an explicit one).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { load } from "js-yaml";
import { kindCheck } from "../provider/kind-checks";
import { withoutSecretValue } from "../provider/make-provider";
import { type InputFailure, isPlainObject } from "../provider/validation";
import { coreKind, shapeInputs } from "./kinds";

/** A resource as a YAML program declares it. */
export interface ProgramResource {
  readonly name: string;
  readonly type: string;
  readonly properties: Readonly<Record<string, unknown>>;
  /** The resource named by `options.provider: ${name}`, if any. */
  readonly provider?: string | undefined;
}

/** A resource of the program that its kind's check refuses. */
export interface InvalidResource {
  readonly type: string;
  readonly name: string;
  readonly failures: readonly InputFailure[];
}

/** The backends of the program's providers as this process can know them. */
export interface KnownBackends {
  /** The default provider's backend, or undefined when this process cannot know it. */
  readonly stack: "xcat" | "confluent" | undefined;
}

/**
 * The resources of the YAML program in `dir` (Pulumi.yaml, and Main.yaml of its `main` folder),
 * or undefined when `dir` holds no YAML program or it cannot be read as one.
 */
export function yamlProgramResources(dir: string): ProgramResource[] | undefined {
  const project = readYaml(join(dir, "Pulumi.yaml"));
  if (!isPlainObject(project)) return undefined;
  const runtime = isPlainObject(project.runtime) ? project.runtime.name : project.runtime;
  if (runtime !== "yaml") return undefined;
  const documents: unknown[] = [project];
  if (typeof project.main === "string") documents.push(readYaml(join(dir, project.main, "Main.yaml")));
  const resources: ProgramResource[] = [];
  for (const document of documents) {
    if (!isPlainObject(document) || !isPlainObject(document.resources)) continue;
    for (const [name, declared] of Object.entries(document.resources)) {
      if (!isPlainObject(declared) || typeof declared.type !== "string") continue;
      const options = isPlainObject(declared.options) ? declared.options : {};
      const provider =
        typeof options.provider === "string" ? /^\$\{([^}.]+)\}$/.exec(options.provider)?.[1] : undefined;
      resources.push({
        name,
        type: declared.type,
        properties: isPlainObject(declared.properties) ? declared.properties : {},
        ...(provider !== undefined ? { provider } : {}),
      });
    }
  }
  return resources;
}

function readYaml(path: string): unknown {
  try {
    return load(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** Whether a YAML value is known as written: no `${...}` interpolation and no `fn::` call anywhere. */
export function isLiteral(value: unknown): boolean {
  if (typeof value === "string") return !value.includes("${");
  if (Array.isArray(value)) return value.every(isLiteral);
  if (isPlainObject(value))
    return Object.entries(value).every(([key, inner]) => !key.startsWith("fn::") && isLiteral(inner));
  return true;
}

/**
 * The resources of the program, other than `except`, that their kind's check refuses, in the order
 * the program declares them.
 *
 * @example
 * invalidResources(resources, { type: "xcat:index:Node", name: "n1" }, { stack: "xcat" })
 */
export function invalidResources(
  resources: readonly ProgramResource[],
  except: { readonly type: string; readonly name: string },
  backends: KnownBackends,
): InvalidResource[] {
  const byName = new Map(resources.map((resource) => [resource.name, resource]));
  const found: InvalidResource[] = [];
  for (const resource of resources) {
    if (!resource.type.startsWith("xcat:index:")) continue;
    if (resource.type === except.type && resource.name === except.name) continue;
    if (!isLiteral(resource.properties)) continue;
    const backend = backendOf(resource, byName, backends);
    const check = backend === undefined ? undefined : kindCheck(coreKind(resource.type), backend);
    if (check === undefined) continue;
    const kind = coreKind(resource.type);
    const { inputs } = shapeInputs(kind, resource.name, { ...resource.properties }, new Set());
    const outcome = check(inputs);
    if ("failures" in outcome && outcome.failures.length > 0)
      found.push({
        type: resource.type,
        name: resource.name,
        failures: outcome.failures.map((failure) => withoutSecretValue(failure, inputs)),
      });
  }
  return found;
}

/** The backend a resource is checked on, or undefined when this process cannot know it. */
function backendOf(
  resource: ProgramResource,
  byName: ReadonlyMap<string, ProgramResource>,
  backends: KnownBackends,
): "xcat" | "confluent" | undefined {
  if (resource.provider === undefined) return backends.stack;
  const provider = byName.get(resource.provider);
  if (provider?.type !== "pulumi:providers:xcat") return undefined;
  const backend = provider.properties.backend;
  if (backend === undefined) return process.env.XCAT_BACKEND === "confluent" ? "confluent" : "xcat";
  return backend === "confluent" || backend === "xcat" ? backend : undefined;
}

/**
 * The failures to add to a refused resource's own: one per failure of every other invalid
 * resource, naming it as the engine names resources (`xcat:index:Node resource 'r01n02'`) and
 * the field; no value is printed.
 */
export function otherResourceFailures(others: readonly InvalidResource[]): InputFailure[] {
  return others.flatMap((other) =>
    other.failures.map((failure) => ({
      property: "",
      reason:
        `also invalid in this program: ${other.type} resource '${other.name}'` +
        (failure.property === ""
          ? `: ${failure.reason}`
          : `: property ${failure.property} has a problem: ${failure.reason}`),
    })),
  );
}
