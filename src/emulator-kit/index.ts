/**
 * What both emulators (xcat-emulator in src/emulator, confluent-emulator in src/confluent-emulator)
 * are built on and that knows neither server: listening on a port, the command line and its
 * process lifecycle, SQLite transactions. It imports only Node's built-ins; neither emulator
 * imports the other.
 */
export {
  type CommandLineOption,
  type CommonEmulatorOptions,
  readCommandLine,
  readCommonOption,
  UsageError,
} from "./command-line";
export { type ListeningServer, listen } from "./listen";
export { runEmulatorCommand } from "./run-command";
export { inTransaction } from "./sqlite-transaction";
