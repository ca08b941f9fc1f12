/**
 * The management node's own network interfaces: what `makenetworks` discovers and what the
 * localrest plugin lists for GET /localres/adapters. A real MN reads them from the system; the
 * emulated one is given them (EmulatorOptions.mnInterfaces), by default an xCAT MN with a
 * management network on eth0 and a second one on eth1 (docs/emulator-coverage.md).
 */
import { isIpv4 } from "./ipv4";

/** One IPv4 interface of the emulated management node. */
export interface MnInterface {
  /** Interface name, e.g. `eth0`. */
  readonly name: string;
  /** The MN's address on it. */
  readonly ip: string;
  /** Netmask in dotted form, e.g. `255.255.0.0`. */
  readonly mask: string;
  /** The network's gateway, written by makenetworks; none when absent. */
  readonly gateway?: string;
}

/** The default: eth0 10.0.0.1/16 (site.master is 10.0.0.1) and eth1 192.168.122.10/24. */
export const DEFAULT_MN_INTERFACES: readonly MnInterface[] = [
  { name: "eth0", ip: "10.0.0.1", mask: "255.255.0.0", gateway: "10.0.0.254" },
  { name: "eth1", ip: "192.168.122.10", mask: "255.255.255.0", gateway: "192.168.122.1" },
];

/**
 * Parses `NAME=IP/PREFIX[,GATEWAY]` (the prefix as a length or a dotted mask), the form of
 * xcat-emulator's `--mn-interface`, e.g. `eth0=10.0.0.1/16,10.0.0.254`.
 *
 * @throws Error saying what is wrong with the text
 */
export function parseMnInterface(text: string): MnInterface {
  const match = /^([^=\s]+)=([^/]+)\/([^,]+)(?:,(.+))?$/.exec(text);
  if (!match) throw new Error(`'${text}' is not NAME=IP/PREFIX[,GATEWAY], e.g. eth0=10.0.0.1/16,10.0.0.254`);
  const [, name = "", ip = "", prefix = "", gateway] = match;
  if (!isIpv4(ip)) throw new Error(`'${ip}' in '${text}' is not an IPv4 address`);
  if (gateway !== undefined && !isIpv4(gateway)) {
    throw new Error(`gateway '${gateway}' in '${text}' is not an IPv4 address`);
  }
  const mask = /^\d+$/.test(prefix) ? maskOfPrefix(Number(prefix)) : prefix;
  // A dotted mask is contiguous exactly when it is the mask of its own prefix length.
  if (mask === undefined || maskOfPrefix(prefixLength(mask)) !== mask) {
    throw new Error(`'${prefix}' in '${text}' is neither a prefix length 0-32 nor a contiguous netmask`);
  }
  return gateway === undefined ? { name, ip, mask } : { name, ip, mask, gateway };
}

function maskOfPrefix(prefix: number): string | undefined {
  if (prefix > 32) return undefined;
  const bits = "1".repeat(prefix).padEnd(32, "0");
  return [0, 8, 16, 24].map((at) => Number.parseInt(bits.slice(at, at + 8), 2)).join(".");
}

/** The network address of an interface: its address masked. */
export function networkOf(nic: MnInterface): string {
  const mask = nic.mask.split(".").map(Number);
  return nic.ip
    .split(".")
    .map((octet, i) => Number(octet) & (mask[i] ?? 0))
    .join(".");
}

/** The prefix length of a dotted netmask (255.255.0.0 → 16). */
export function prefixLength(mask: string): number {
  return mask
    .split(".")
    .map((octet) => Number(octet).toString(2).replace(/0/g, "").length)
    .reduce((a, b) => a + b, 0);
}

/**
 * GET /localres/adapters (localrest.pm:145-199, list_adapters): every interface but loopback as
 * `{name, ip}`, the address with its prefix as `ip -o addr` prints it. The plugin also looks for
 * a MAC, but `ip -o addr` prints no `link/ether` line, so there never is one.
 */
export function localresAdapters(interfaces: readonly MnInterface[]): { name: string; ip: string }[] {
  return interfaces.map((nic) => ({ name: nic.name, ip: `${nic.ip}/${prefixLength(nic.mask)}` }));
}
