/**
 * The oldest Node.js the package runs on, checked where a process of ours starts (the command
 * line, the native provider, a program's import of the package), so that an older node gets one
 * sentence instead of a crash deep in a dependency: undici 8, the client's HTTP, declares
 * `engines.node >= 22.19.0` and on Node.js 20 fails while loading with "Cannot read properties of
 * undefined (reading 'bind')" (its decompress interceptor binds node:zlib's zstd functions, which
 * Node.js 20 lacks; seen with Debian 12's and this machine's Node.js 20).
 */

export const OLDEST_SUPPORTED_NODE = "22.19.0";

/** Whether `version` ("20.20.2", without the v) is older than {@link OLDEST_SUPPORTED_NODE}. */
export function isNodeTooOld(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split(".").map((part) => Number.parseInt(part, 10) || 0);
  const [needMajor, needMinor, needPatch] = OLDEST_SUPPORTED_NODE.split(".").map(Number) as [
    number,
    number,
    number,
  ];
  if (major !== needMajor) return major < needMajor;
  if (minor !== needMinor) return minor < needMinor;
  return patch < needPatch;
}

/** The sentence for `who` running on a Node.js that is too old, or undefined when it is new enough. */
export function unsupportedNodeSentence(
  who: string,
  version: string = process.versions.node,
  executable: string = process.execPath,
): string | undefined {
  if (!isNodeTooOld(version)) return undefined;
  return (
    `${who} needs Node.js ${OLDEST_SUPPORTED_NODE} or newer, but runs on Node.js ${version} (${executable}). ` +
    "Put a newer node first on PATH: pulumi starts programs and provider plugins with the node it finds there."
  );
}
