/**
 * Reading what `pulumi preview` and `pulumi up` print (no `--json`): the live rows the display
 * prints as the run goes, and the "Diagnostics:" section at the end, where every line a provider
 * said through the engine's Log service is listed once under its resource.
 */

/** The output in two parts: the live rows, and the "Diagnostics:" section. */
export function partsOf(output: string): { live: string; diagnostics: string } {
  const at = output.indexOf("Diagnostics:");
  return at < 0
    ? { live: output, diagnostics: "" }
    : { live: output.slice(0, at), diagnostics: output.slice(at) };
}

/** The lines of the "Diagnostics:" section under the resource whose header is `header`. */
export function diagnosticsOf(output: string, header: string): string[] {
  const section = partsOf(output).diagnostics;
  const start = section.indexOf(`  ${header}:`);
  if (start < 0) return [];
  const lines = section.slice(start).split("\n").slice(1);
  const end = lines.findIndex((line) => line.trim() === "" || !line.startsWith("    "));
  return lines.slice(0, end < 0 ? lines.length : end).map((line) => line.trim());
}
