import { describe, expect, it } from "vitest";
import { parseCsv } from "../../src/provider/csv-records";
import { csvRows, mapRows, nodeSetRows } from "../../src/provider/node-set-rows";
import { UNKNOWN } from "../../src/provider/validation";

describe("parseCsv", () => {
  it("reads quoted fields, doubled quotes, a quoted line end, BOM and CRLF, naming each record's line", () => {
    const text =
      '\uFEFFnode,usercomment\r\nr01n01,"rack 1, slot ""a"""\r\n\r\nr01n02,"two\r\nlines"\r\nr01n03, spaced \r\n';
    expect(parseCsv(text)).toEqual({
      records: [
        { line: 1, fields: ["node", "usercomment"] },
        { line: 2, fields: ["r01n01", 'rack 1, slot "a"'] },
        { line: 4, fields: ["r01n02", "two\nlines"] },
        { line: 6, fields: ["r01n03", "spaced"] },
      ],
    });
  });

  it("reports a quote that never closes on the line it opens", () => {
    expect(parseCsv('node,ip\nr01n01,"10.0.0.1\nr01n02,x\n')).toEqual({
      problem: { line: 2, reason: "a quoted field is never closed" },
    });
  });
});

describe("csvRows", () => {
  const header = "node,ip,mac,bmc";
  const row = (n: number) =>
    `r01n${String(n).padStart(2, "0")},10.0.1.${n},52:54:00:00:01:${String(n).padStart(2, "0")},10.1.1.${n}`;

  it("gives each node its cells; a blank cell sets nothing", () => {
    const { rows, problems } = csvRows(`${header}\n${row(1)}\nr01n02,10.0.1.2,,10.1.1.2\n`, {});
    expect(problems).toEqual([]);
    expect(rows).toEqual({
      r01n01: { ip: "10.0.1.1", mac: "52:54:00:00:01:01", bmc: "10.1.1.1" },
      r01n02: { ip: "10.0.1.2", bmc: "10.1.1.2" },
    });
  });

  it("names the file line of a duplicate node and of its first row", () => {
    const { problems } = csvRows(`${header}\n${row(1)}\n${row(2)}\n${row(1)}\n`, {});
    expect(problems).toEqual(["csv line 4: node 'r01n01' is given twice (first on line 2)"]);
  });

  it("names the line and column of a malformed MAC and IP (row 37 of a file)", () => {
    const lines = [header, ...Array.from({ length: 40 }, (_, i) => row(i + 1))];
    lines[36] = "r01n36,10.0.1.36,52:54:00:zz:01:36,10.1.1.36"; // file line 37
    lines[39] = "r01n39,10.0.1.300,52:54:00:00:01:39,10.1.1.39"; // file line 40
    const { problems } = csvRows(`${lines.join("\n")}\n`, {});
    expect(problems).toEqual([
      "csv line 37, column 'mac': mac '52:54:00:zz:01:36' is not a MAC address like 52:54:00:00:00:01, or several as mac!hostname separated by '|'",
      "csv line 40, column 'ip': ip '10.0.1.300' is not an IP address like 10.0.0.1",
    ]);
  });

  it("suggests the closest attribute for a misspelt column, and refuses a first column other than node", () => {
    expect(csvRows("node,ip,mca\nr01n01,10.0.1.1,x\n", {}).problems).toEqual([
      "csv line 1, column 3: 'mca' is not a node attribute in xCAT's schema (did you mean 'mac'?)",
    ]);
    expect(csvRows("name,ip\nr01n01,10.0.1.1\n", {}).problems).toEqual([
      "csv line 1: the first column must be 'node' (header node,<attribute>,...), got 'name'",
    ]);
  });

  it("refuses a column given twice, groups, a password and one of the common attributes", () => {
    expect(
      csvRows("node,ip,ip,groups,bmcpassword,provmethod\nr01n01,1,1,a,b,c\n", { provmethod: "x" }).problems,
    ).toEqual([
      "csv line 1, column 3: 'ip' is given twice",
      "csv line 1, column 4: 'groups' is set for the whole set by the 'groups' input",
      "csv line 1, column 5: 'bmcpassword' holds a password, which a NodeSet does not take (rows and csv are stored in plain text); set it on a Group the nodes belong to",
      "csv line 1, column 6: 'provmethod' is also given in attributes, for every node; give a value either to all nodes or per node",
    ]);
  });

  it("names a row with a missing column by its line", () => {
    expect(csvRows(`${header}\nr01n01,10.0.1.1,52:54:00:00:01:01\n`, {}).problems).toEqual([
      "csv line 2: 3 fields, but the header has 4 columns",
    ]);
  });

  it("refuses a row outside nodes, and nodes of the range without a row", () => {
    const text = `${header}\n${row(1)}\nr02n01,10.0.2.1,,\n`;
    expect(csvRows(text, {}, "r01n[01-03]").problems).toEqual([
      "csv line 3: node 'r02n01' is not in nodes 'r01n[01-03]'",
      "nodes 'r01n[01-03]' names 2 nodes without a row: r01n02, r01n03",
    ]);
    expect(csvRows(`${header}\n${row(1)}\n${row(2)}\n`, {}, "r01n[01-02]").problems).toEqual([]);
  });
});

describe("mapRows and nodeSetRows", () => {
  it("names rows.<node>.<attribute> for a bad value and a misspelt name", () => {
    expect(mapRows({ r01n03: { ip: "10.0.0.300", bcm: "10.1.0.3" } }, {}).problems).toEqual([
      "rows.r01n03: 'bcm' is not a node attribute in xCAT's schema (did you mean 'bmc'?)",
      "rows.r01n03.ip: ip '10.0.0.300' is not an IP address like 10.0.0.1",
    ]);
  });

  it("puts each problem on its input, and refuses rows and csv together", () => {
    expect(nodeSetRows({ csv: "node,ip\nr1,10.0.0.300\n" }).failures).toEqual([
      {
        property: "csv",
        reason: "csv line 2, column 'ip': ip '10.0.0.300' is not an IP address like 10.0.0.1",
      },
    ]);
    expect(nodeSetRows({ rows: { a: {} }, csv: "node\na\n" }).failures).toEqual([
      { property: "csv", reason: "give the per-node values as rows or as csv, not both" },
    ]);
    expect(nodeSetRows({}).failures).toEqual([
      { property: "nodes", reason: "a NodeSet needs its nodes: rows, csv or nodes" },
    ]);
  });

  it("takes the nodes of a noderange alone as rows with no values, and leaves unknowns to apply", () => {
    expect(nodeSetRows({ nodes: "r01n[01-03]" })).toEqual({
      rows: { r01n01: {}, r01n02: {}, r01n03: {} },
      failures: [],
    });
    expect(nodeSetRows({ csv: UNKNOWN }).rows).toBe(UNKNOWN);
  });
});
