/**
 * Failures of xCAT commands as the store reports them. The store knows nothing of HTTP: the web
 * layer turns a CommandError into 403 with `{"error":[...],"errorcode":"1"}` (xcat-behavior.md §3.2).
 */
export class CommandError extends Error {
  readonly messages: readonly string[];
  readonly errorcode: string;

  constructor(messages: readonly string[], errorcode = "1") {
    super(messages.join("; "));
    this.name = "CommandError";
    this.messages = messages;
    this.errorcode = errorcode;
  }
}

/** Collects per-object errors of a command that goes on after them (rmdef, chdef, actions). */
export class ErrorList {
  readonly messages: string[] = [];

  add(...messages: string[]): void {
    this.messages.push(...messages);
  }

  get empty(): boolean {
    return this.messages.length === 0;
  }

  /** Throws the collected errors, if any, as one CommandError. */
  throwIfAny(): void {
    if (this.messages.length > 0) throw new CommandError(this.messages);
  }
}
