/**
 * The emulator's account when none is given. The password is a fixed random-looking string, not a
 * word: Pulumi masks every occurrence of a secret's text in its output, so a common word (the
 * emulator once used `cluster`) turned project names such as `xcat-cluster` into `xcat-[secret]`
 * and made printed URNs and commands unpastable.
 */
export const EMULATOR_DEFAULT_USER = "root";
export const EMULATOR_DEFAULT_PASSWORD = "emu-Qx7k2Vw9";
