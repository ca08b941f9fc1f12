/**
 * DiffConfig of the native provider: whether a change of provider settings moves resources to
 * another server. The engine asks it in two places (pkg/resource/deploy at v3.259.0,
 * docs/native-provider.md "Moving resources between servers"):
 * - step_generator.go `providerChanged`: a resource whose `provider` reference changed (the
 *   default provider to an explicit one, one explicit provider to another) is replaced, on the
 *   new server first and then deleted from the old, when the new provider's DiffConfig of the old
 *   provider's inputs against the new ones reports a replacement;
 * - providers/registry.go `Diff`: a provider resource whose own inputs changed is replaced, and
 *   with it every resource it serves, on the same answer.
 * Without DiffConfig (UNIMPLEMENTED) the engine takes "no replacement": a resource given another
 * server's provider showed no change, the state took the new reference, and nothing moved.
 *
 * A replacement is reported when the settings name another server (url, backend:
 * server-identity.ts); changed credentials, CA or `insecure` are an update of the provider alone.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { movedBy, serverIdentity } from "../provider/server-identity";
import { decode, type Properties } from "./wire";

/**
 * The server a provider's inputs name. Settings it leaves unset come from the environment, as
 * Configure takes them (config.ts settingsFrom): the engine starts every provider process with
 * the same environment.
 */
function serverOf(inputs: Properties) {
  return serverIdentity(inputs, { url: process.env.XCAT_URL, backend: process.env.XCAT_BACKEND });
}

/** The keys whose values differ between two input maps (secrets compared by value). */
function changedKeys(olds: Properties, news: Properties): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys].filter((key) => JSON.stringify(olds[key]) !== JSON.stringify(news[key])).sort();
}

/** The engine's DiffConfig request answered: changed keys, and `url`/`backend` as replacements. */
export function diffConfig(request: provproto.DiffRequest): provproto.DiffResponse {
  // The old inputs, as the engine sends them since old_inputs exists; older engines sent outputs
  // only, which for a provider are its inputs.
  const olds = decode(request.getOldInputs() ?? request.getOlds()).values;
  const news = decode(request.getNews()).values;
  const changed = changedKeys(olds, news);
  const replaces = movedBy(serverOf(olds), serverOf(news));
  const { DiffChanges } = provproto.DiffResponse;
  return new provproto.DiffResponse()
    .setChanges(changed.length > 0 || replaces.length > 0 ? DiffChanges.DIFF_SOME : DiffChanges.DIFF_NONE)
    .setDiffsList(changed)
    .setReplacesList(replaces)
    .setDeletebeforereplace(false);
}
