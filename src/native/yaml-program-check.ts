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
 * know (another provider's without a literal `backend`).
 *
 * Each resource is checked as its own provider checks it: for its backend, with its
 * `confluentOmit`, its messages naming that provider's settings (process-context.ts checkingAs):
 * an explicit provider's literal `backend` and `confluentOmit` in the program, the default
 * provider's from the stack config. A process of an explicit provider is not configured with the
 * stack config, so it reads the default provider's where `pulumi config` keeps them: `xcat:backend` in Pulumi.<stack>.yaml beside the program (the
 * stack is the second part of the URN the engine checks; `xcat:confluentOmit` likewise), else the
 * project's config default in Pulumi.yaml, else XCAT_BACKEND (XCAT_CONFLUENT_OMIT), as the default
 * provider's Configure resolves them (config.ts settingsFrom: config wins over the environment). A
 * stack file that imports an ESC environment, or holds them encrypted, leaves them unknown: the
 * default provider's resources are then not checked from another provider's process.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { load } from "js-yaml";
import { parseBackend, parseList } from "../provider/config";
import { kindCheck } from "../provider/kind-checks";
import { checkingAs } from "../provider/process-context";
import { withoutSecretValue } from "../provider/secret-failures";
import { type SettingsOrigin, STACK_CONFIG } from "../provider/setting-advice";
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

/** What a resource's check depends on of its provider: its backend and what it leaves out on Confluent. */
export interface ProviderView {
  readonly backend: "xcat" | "confluent";
  readonly confluentOmit: readonly string[];
}

/** The program's providers as this process can know them. */
export interface KnownBackends {
  /** The default provider's, or undefined when this process cannot know them. */
  readonly stack: ProviderView | undefined;
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

/** The stack of a URN (`urn:pulumi:<stack>::<project>::…`). */
export function stackOfUrn(urn: string): string | undefined {
  return /^urn:pulumi:([^:]+)::/.exec(urn)?.[1];
}

/** A secure (encrypted) config value: not readable from the files. */
const SECURE = Symbol("secure");

/** A config value as its setting's text: lists as JSON (parseList reads both), secure as {@link SECURE}. */
function configText(value: unknown): string | typeof SECURE | undefined {
  if (value === undefined || value === null) return undefined;
  if (isPlainObject(value) && "secure" in value) return SECURE;
  return Array.isArray(value) ? JSON.stringify(value) : String(value);
}

/**
 * The default provider's backend and confluentOmit for stack `stack` of the YAML project in `dir`,
 * as its Configure would resolve them (see the file's comment), or undefined when the files cannot
 * say (an ESC environment, an encrypted or invalid value).
 */
export function stackProviderOf(
  dir: string,
  stack: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ProviderView | undefined {
  const stackFile = stack === undefined ? undefined : readYaml(join(dir, `Pulumi.${stack}.yaml`));
  if (isPlainObject(stackFile) && stackFile.environment !== undefined) return undefined;
  const stackConfig = isPlainObject(stackFile) && isPlainObject(stackFile.config) ? stackFile.config : {};
  const project = readYaml(join(dir, "Pulumi.yaml"));
  const projectConfig = isPlainObject(project) && isPlainObject(project.config) ? project.config : {};
  const setting = (key: string, envName: string) => {
    const declared = projectConfig[key];
    const projectDefault = isPlainObject(declared) ? (declared.value ?? declared.default) : declared;
    const text = configText(stackConfig[key]) ?? configText(projectDefault);
    return text ?? (env[envName] === "" ? undefined : env[envName]);
  };
  const backend = setting("xcat:backend", "XCAT_BACKEND");
  const omit = setting("xcat:confluentOmit", "XCAT_CONFLUENT_OMIT");
  if (backend === SECURE || omit === SECURE) return undefined;
  try {
    return {
      backend: parseBackend(backend, "xcat:backend") ?? "xcat",
      confluentOmit: parseList(omit, "xcat:confluentOmit"),
    };
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
 * invalidResources(resources, { type: "xcat:index:Node", name: "n1" }, { stack: { backend: "xcat", confluentOmit: [] } })
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
    const provider = providerOf(resource, byName, backends);
    const check = provider === undefined ? undefined : kindCheck(coreKind(resource.type), provider.backend);
    if (check === undefined || provider === undefined) continue;
    const kind = coreKind(resource.type);
    const { inputs } = shapeInputs(kind, resource.name, { ...resource.properties }, new Set());
    // As the resource's own provider checks it: its confluentOmit, its way of naming a setting.
    const outcome = checkingAs(provider, () => check(inputs));
    if ("failures" in outcome && outcome.failures.length > 0)
      found.push({
        type: resource.type,
        name: resource.name,
        failures: outcome.failures.map((failure) => withoutSecretValue(failure, inputs)),
      });
  }
  return found;
}

/**
 * The provider a resource is checked for: the default provider's as known, or an explicit
 * provider's literal `backend` and `confluentOmit` (the environment's where the program gives
 * none, as Configure reads it); undefined when this process cannot know them.
 */
function providerOf(
  resource: ProgramResource,
  byName: ReadonlyMap<string, ProgramResource>,
  backends: KnownBackends,
): (ProviderView & { readonly origin: SettingsOrigin }) | undefined {
  if (resource.provider === undefined) return backends.stack && { ...backends.stack, origin: STACK_CONFIG };
  const provider = byName.get(resource.provider);
  if (provider?.type !== "pulumi:providers:xcat") return undefined;
  const { backend, confluentOmit } = provider.properties;
  if (!isLiteral(backend) || !isLiteral(confluentOmit)) return undefined;
  try {
    return {
      backend:
        parseBackend(typeof backend === "string" ? backend : process.env.XCAT_BACKEND, "backend") ?? "xcat",
      confluentOmit: Array.isArray(confluentOmit)
        ? confluentOmit.map(String)
        : parseList(process.env.XCAT_CONFLUENT_OMIT, "confluentOmit"),
      origin: { explicitProvider: resource.provider },
    };
  } catch {
    return undefined;
  }
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
