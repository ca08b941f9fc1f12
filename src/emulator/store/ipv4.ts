/** Dotted IPv4 addresses as xCAT accepts them, for the emulator's commands and options. */

/**
 * xCAT::NetworkUtils->isIpaddr (NetworkUtils.pm:2157-2184): four decimal numbers up to 255, the
 * first without a leading 0, the others without a leading 0 before another digit.
 */
export function isIpv4(text: string): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (!m) return false;
  const [, a = "", b = "", c = "", d = ""] = m;
  if (a.startsWith("0")) return false;
  return [a, b, c, d].every((p) => Number(p) <= 255) && [b, c, d].every((p) => !/^0\d/.test(p));
}
