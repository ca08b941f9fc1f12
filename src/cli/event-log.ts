/**
 * The engine's event log (`pulumi … --event-log FILE`): one JSON object per line, written while
 * the command runs. Read by drift (a refresh's steps) and by the view (a running up's progress).
 */

/**
 * The events of an event log's text, in order. A line that is not JSON is skipped: the last line
 * may be torn while the engine is still writing it, and the next read of the file has it whole.
 */
export function* eventLogEvents(text: string): Generator<Record<string, unknown>> {
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof event === "object" && event !== null) yield event as Record<string, unknown>;
  }
}
