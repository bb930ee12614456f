/**
 * The `csv` module of qri-io/starlib (`encoding/csv.star`), as kpt's `starlark` function loads it:
 * `read_all(source, comma=",", comment="", lazy_quotes=False, trim_leading_space=False,
 * fields_per_record=0, skip=0)` parses CSV text into a list of lists of strings with Go's encoding/csv
 * rules and error messages; `write_all(source, comma=",")` writes a list of rows as Go's csv.Writer does.
 */
import { toAny, toBool, toInt, toStr, unpackArgs } from "../eval/args.js";
import { formatFloat } from "../eval/floatfmt.js";
import {
  Builtin,
  Dict,
  Float,
  fail,
  List,
  Module,
  None,
  SetValue,
  Tuple,
  typeName,
  type Value,
} from "../eval/values.js";
import { fromBytes } from "../internal/utf8.js";
import { sortGoKeys } from "./yaml-values.js";

const ERR_BARE_QUOTE = 'bare " in non-quoted-field';
const ERR_QUOTE = 'extraneous or missing " in quoted-field';
const ERR_FIELD_COUNT = "wrong number of fields";

/** Options of {@link readCsv} (Go's csv.Reader fields). */
export interface CsvReadOptions {
  comma: string;
  comment: string;
  lazyQuotes: boolean;
  trimLeadingSpace: boolean;
  fieldsPerRecord: number;
}

function parseError(startLine: number, line: number, column: number, err: string): never {
  if (err === ERR_FIELD_COUNT) fail(`record on line ${line}: ${err}`);
  if (startLine !== line)
    fail(`record on line ${startLine}; parse error on line ${line}, column ${column}: ${err}`);
  return fail(`parse error on line ${line}, column ${column}: ${err}`);
}

/** A line reader over text: lines keep their `\n`; `\r\n` becomes `\n`. */
class Lines {
  private pos = 0;
  line = 0;
  constructor(private readonly text: string) {}
  next(): string | undefined {
    if (this.pos >= this.text.length) return undefined;
    let end = this.text.indexOf("\n", this.pos);
    let line: string;
    if (end < 0) {
      line = this.text.slice(this.pos);
      this.pos = this.text.length;
      if (line.endsWith("\r")) line = line.slice(0, -1);
    } else {
      end++;
      line = this.text.slice(this.pos, end);
      this.pos = end;
      if (line.endsWith("\r\n")) line = `${line.slice(0, -2)}\n`;
    }
    this.line++;
    return line;
  }
}

const nlLength = (s: string) => (s.endsWith("\n") ? 1 : 0);
const isSpace = (c: string) => /\s/.test(c);

/** Reads one record (Go's readRecord) and the line it starts on; undefined at the end of input. */
function readRecord(lines: Lines, o: CsvReadOptions): { fields: string[]; line: number } | undefined {
  let line: string | undefined;
  for (;;) {
    line = lines.next();
    if (line === undefined) return undefined;
    if (o.comment !== "" && line.startsWith(o.comment)) continue;
    if (line.length === nlLength(line)) continue;
    break;
  }
  const recLine = lines.line;
  const fields: string[] = [];
  const done = () => ({ fields, line: recLine });
  let col = 1;
  let lineNo = lines.line;
  for (;;) {
    if (o.trimLeadingSpace) {
      let i = 0;
      while (i < line.length && isSpace(line[i]!)) i++;
      line = line.slice(i);
      col += i;
    }
    if (line.length === 0 || line[0] !== '"') {
      const i = line.indexOf(o.comma);
      const field = i >= 0 ? line.slice(0, i) : line.slice(0, line.length - nlLength(line));
      if (!o.lazyQuotes) {
        const j = field.indexOf('"');
        if (j >= 0) parseError(recLine, lineNo, col + j, ERR_BARE_QUOTE);
      }
      fields.push(field);
      if (i >= 0) {
        line = line.slice(i + o.comma.length);
        col += i + o.comma.length;
        continue;
      }
      return done();
    }
    // A quoted field.
    let field = "";
    line = line.slice(1);
    col += 1;
    for (;;) {
      const i = line.indexOf('"');
      if (i >= 0) {
        field += line.slice(0, i);
        line = line.slice(i + 1);
        col += i + 1;
        if (line.startsWith('"')) {
          field += '"';
          line = line.slice(1);
          col += 1;
        } else if (line.startsWith(o.comma)) {
          line = line.slice(o.comma.length);
          col += o.comma.length;
          fields.push(field);
          break;
        } else if (line.length === nlLength(line)) {
          fields.push(field);
          return done();
        } else if (o.lazyQuotes) {
          field += '"';
        } else {
          parseError(recLine, lineNo, col - 1, ERR_QUOTE);
        }
      } else if (line.length > 0) {
        field += line;
        col += line.length;
        const next = lines.next();
        line = next ?? "";
        if (next !== undefined && next.length > 0) {
          lineNo = lines.line;
          col = 1;
        }
      } else {
        if (!o.lazyQuotes) parseError(recLine, lineNo, col, ERR_QUOTE);
        fields.push(field);
        return done();
      }
    }
  }
}

/**
 * Go's `csv.Reader.ReadAll` after skipping `skip` records: every record; with `fieldsPerRecord` 0 the
 * first record read fixes the count. Throws a StarlarkError with Go's ParseError text.
 */
export function readCsv(text: string, o: CsvReadOptions, skip = 0): string[][] {
  if (o.comma === o.comment || o.comma === "\n" || o.comma === "\r" || o.comma === '"') {
    fail("csv: invalid field or comment delimiter");
  }
  const lines = new Lines(text);
  let perRecord = o.fieldsPerRecord;
  const check = (record: { fields: string[]; line: number }) => {
    if (perRecord === 0) perRecord = record.fields.length;
    else if (perRecord > 0 && record.fields.length !== perRecord) {
      parseError(record.line, record.line, 1, ERR_FIELD_COUNT);
    }
  };
  for (let i = 0; i < skip; i++) {
    try {
      const record = readRecord(lines, o);
      if (record) check(record);
    } catch {
      // starlib ignores the errors of skipped records.
    }
  }
  const out: string[][] = [];
  for (;;) {
    const record = readRecord(lines, o);
    if (!record) return out;
    check(record);
    out.push(record.fields);
  }
}

/** Go's `%v` of a decoded value (what csv.write_all puts in a cell). */
function goValueString(v: Value): string {
  if (v === None) return "<nil>";
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "number":
    case "bigint":
      return String(v);
    case "string":
      return v;
  }
  if (v instanceof Float) {
    if (Number.isNaN(v.v)) return "NaN";
    if (!Number.isFinite(v.v)) return v.v > 0 ? "+Inf" : "-Inf";
    return formatFloat(v.v, "g", -1);
  }
  if (v instanceof List || v instanceof Tuple) return `[${v.elems.map(goValueString).join(" ")}]`;
  if (v instanceof Dict) {
    const entries = sortGoKeys([...v.items()], (e) => e[0]);
    return `map[${entries.map(([k, x]) => `${goValueString(k)}:${goValueString(x)}`).join(" ")}]`;
  }
  if (v instanceof SetValue) fail("sets aren't yet supported");
  return fail(`unrecognized starlark type: ${typeName(v)}`);
}

function needsQuotes(field: string, comma: string): boolean {
  if (field === "") return false;
  if (field === "\\.") return true;
  for (const c of field) if (c === "\n" || c === "\r" || c === '"' || c === comma) return true;
  return /^\s/u.test(fromBytes(field));
}

/** Go's `csv.Writer.WriteAll` of rows of cells (byte strings); `\n` line endings. */
export function writeCsv(rows: string[][], comma: string): string {
  let out = "";
  for (const row of rows) {
    out += row
      .map((field) => (needsQuotes(field, comma) ? `"${field.replace(/"/g, '""')}"` : field))
      .join(comma);
    out += "\n";
  }
  return out;
}

function singleChar(name: string, value: string | undefined, fallback: string): string {
  if (value === undefined || value === "") return fallback;
  if (value.length !== 1) fail(`expected ${name} param to be a single-character string`);
  return value;
}

const readAll = new Builtin("read_all", (_th, args, kwargs) => {
  const [source, comma, comment, lazyQuotes, trim, perRecord, skip] = unpackArgs("read_all", args, kwargs, [
    ["source", toAny],
    ["comma?", toStr],
    ["comment", toStr],
    ["lazy_quotes", toBool],
    ["trim_leading_space", toBool],
    ["fields_per_record", toInt],
    ["skip", toInt],
  ]) as [Value, string?, string?, boolean?, boolean?, number?, number?];
  const text = typeof source === "string" ? source : "";
  const records = readCsv(
    text.replace(/\r(?!\n)/g, "\r\n"),
    {
      comma: singleChar("comma", comma, ","),
      comment: singleChar("comment", comment, ""),
      lazyQuotes: lazyQuotes ?? false,
      trimLeadingSpace: trim ?? false,
      fieldsPerRecord: perRecord ?? 0,
    },
    skip ?? 0,
  );
  return new List(records.map((r) => new List(r)));
});

const writeAll = new Builtin("write_all", (_th, args, kwargs) => {
  const [source, comma] = unpackArgs("write_all", args, kwargs, [
    ["source", toAny],
    ["comma?", toStr],
  ]) as [Value, string?];
  const sep = singleChar("comma", comma, ",");
  if (!(source instanceof List || source instanceof Tuple)) fail("expected value to be an array type");
  const rows = source.elems.map((row, i) => {
    if (!(row instanceof List || row instanceof Tuple)) fail(`row ${i} is not an array type`);
    return row.elems.map(goValueString);
  });
  return writeCsv(rows, sep);
});

/** The `csv` module value (what `load("encoding/csv.star", "csv")` binds). */
export const csvModule = new Module(
  "csv",
  new Map<string, Value>([
    ["read_all", readAll],
    ["write_all", writeAll],
  ]),
);
