import { describe, expect, it } from "vitest";
import { compressNoderange, expandNoderange } from "../../src/contract/noderange";
import { createRandom } from "../../src/emulator/random";

/** Nothing is a defined node or group: the noderange alone must name the set. */
const bare = { isNode: () => false, groupMembers: () => undefined };

function roundTrip(names: readonly string[]): string[] {
  return expandNoderange(compressNoderange(names), bare);
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/**
 * A random cluster-like name set: a few shapes (rNNnNN, cnNNN, nN, sw-aN, rack_NN-x-NN, 1nNN…),
 * random subsets. scripts/check-noderange-with-xcat.mjs runs sets like these through xCAT's own
 * NodeRange.pm.
 */
function randomNames(random: () => number): string[] {
  const int = (max: number) => Math.floor(random() * max);
  const names = new Set<string>();
  const shapes = 1 + int(3);
  for (let s = 0; s < shapes; s++) {
    const prefix = ["r", "cn", "n", "gpu", "sw-a", "rack_", "1n", "a--"][int(8)] ?? "n";
    const inner = ["n", "c", "x", "-", "-n-"][int(5)] ?? "n";
    const tail = ["", "", "-b"][int(3)] ?? "";
    const w1 = int(4);
    const w2 = int(3);
    const two = random() < 0.5;
    const density = random();
    const count = int(40);
    for (let a = int(3); a < count; a++) {
      if (random() > density) continue;
      const first = w1 === 0 ? String(a) : pad(a, w1);
      if (!two) {
        names.add(`${prefix}${first}${tail}`);
        continue;
      }
      for (let b = 1; b <= 1 + int(12); b++) {
        if (random() > density) continue;
        names.add(`${prefix}${first}${inner}${w2 === 0 ? String(b) : pad(b, w2)}${tail}`);
      }
    }
  }
  if (random() < 0.3) names.add(["login01", "svc01", "mgmt", "kvm-host", "10.0.0.1"][int(5)] ?? "mgmt");
  return [...names];
}

describe("compressNoderange", () => {
  it("writes whole racks as one product range", () => {
    const names: string[] = [];
    for (let r = 1; r <= 16; r++) for (let n = 1; n <= 32; n++) names.push(`r${pad(r, 2)}n${pad(n, 2)}`);
    expect(compressNoderange(names)).toBe("r[01-16]n[01-32]");
  });

  it("writes a padded run as one bracket", () => {
    const names = Array.from({ length: 512 }, (_, i) => `cn${pad(i + 1, 3)}`);
    expect(compressNoderange(names)).toBe("cn[001-512]");
  });

  it("keeps a mixed set as a sorted comma list", () => {
    expect(compressNoderange(["r01n03", "n5", "r01n01", "n1", "r01n02", "r01n04"])).toBe("n1,n5,r01n[01-04]");
  });

  it("names gaps inside a bracket and racks that differ separately", () => {
    const names = ["r01n01", "r01n02", "r01n05", "r02n01", "r02n02", "r02n05", "r03n01"];
    expect(compressNoderange(names)).toBe("r03n01,r[01-02]n[01-02,05]");
    expect(roundTrip(names)).toEqual([...names].sort());
  });

  it("writes one name as itself and nothing as nothing", () => {
    expect(compressNoderange(["r17n01"])).toBe("r17n01");
    expect(compressNoderange([])).toBe("");
  });

  it("does not merge padded and unpadded numbers", () => {
    const names = ["n1", "n2", "n10", "n01"];
    expect(roundTrip(names)).toEqual([...names].sort());
  });

  it("brackets names with - and _ too (xCAT expands them: NodeRange.pm:404-421)", () => {
    expect(compressNoderange(["sw-a1", "sw-a2", "sw-a3"])).toBe("sw-a[1-3]");
    expect(compressNoderange(["r1-n01", "r1-n02", "r2-n01", "r2-n02"])).toBe("r[1-2]-n[01-02]");
    expect(compressNoderange(["rack_01", "rack_02"])).toBe("rack_[01-02]");
  });

  it("never opens a bracket without text before it, which xCAT would not expand (NodeRange.pm:352)", () => {
    expect(compressNoderange(["1n01", "2n01", "1n02", "2n02"])).toBe("1n[01-02],2n[01-02]");
    expect(compressNoderange(["7", "8", "9"])).toBe("7,8,9");
  });

  it("writes names it cannot bracket as they are: IPs, operators, numbers beyond 15 digits", () => {
    expect(compressNoderange(["10.0.0.1", "10.0.0.2"])).toBe("10.0.0.1,10.0.0.2");
    expect(compressNoderange(["-x1", "-x2"])).toBe("-x1,-x2");
    const long = ["n1234567890123456", "n1234567890123457"];
    expect(compressNoderange(long)).toBe(long.join(","));
  });

  it("property: expanding the compressed range gives back the same set (1000 seeded sets)", () => {
    for (let seed = 1; seed <= 1000; seed++) {
      const names = randomNames(createRandom(seed));
      const got = roundTrip(names);
      expect({ seed, names: got }).toEqual({ seed, names: [...new Set(names)].sort() });
    }
  });
});
