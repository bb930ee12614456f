import { describe, expect, it } from "vitest";
import {
  fieldsAt,
  formatLayout,
  GoTimeError,
  loadLocation,
  NAMED_LAYOUTS,
  parseLayout,
  quote,
  toGoString,
  UTC,
} from "../../src/go/time/index.js";

// The expected strings are what Go's time package prints (go1.22) for the same calls.
const NOV_10_2009 = 1257894000n * 1_000_000_000n; // 2009-11-10T23:00:00Z
const format = (ns: bigint, layout: string, zone = UTC) => formatLayout(fieldsAt(ns, zone), layout);
const parse = (value: string, layout: string) => parseLayout(value, layout).ns;
const parseError = (value: string, layout: string) => {
  try {
    parseLayout(value, layout);
  } catch (e) {
    expect(e).toBeInstanceOf(GoTimeError);
    return (e as Error).message;
  }
  throw new Error(`${value} parsed`);
};

describe("Go's Time.Format", () => {
  it("writes the named layouts", () => {
    expect(format(NOV_10_2009, NAMED_LAYOUTS.RFC1123 as string)).toBe("Tue, 10 Nov 2009 23:00:00 UTC");
    expect(format(NOV_10_2009, NAMED_LAYOUTS.Kitchen as string)).toBe("11:00PM");
    expect(format(NOV_10_2009, NAMED_LAYOUTS.ANSIC as string)).toBe("Tue Nov 10 23:00:00 2009");
    expect(format(NOV_10_2009, "Monday January 2 06 002 __2 _2 3pm")).toBe(
      "Tuesday November 10 09 314 314 10 11pm",
    );
  });

  it("writes fractional seconds: .000 every digit, .999 without trailing zeros", () => {
    const ns = 1703444325734390000n;
    expect(format(ns, NAMED_LAYOUTS.RFC3339Nano as string)).toBe("2023-12-24T18:58:45.73439Z");
    expect(format(ns, "15:04:05.000000")).toBe("18:58:45.734390");
    expect(format(ns, "15:04:05,999")).toBe("18:58:45,734");
    expect(format(NOV_10_2009, "05.999|05.00")).toBe("00|00.00");
  });

  it("writes a zone's offset and abbreviation", () => {
    const ny = loadLocation("America/New_York");
    expect(format(NOV_10_2009, "2006-01-02T15:04:05Z07:00 MST -0700 -07 Z07:00:00", ny)).toBe(
      "2009-11-10T18:00:00-05:00 EST -0500 -05 -05:00:00",
    );
    expect(format(NOV_10_2009, "Z07:00 Z0700 Z07 -07:00")).toBe("Z Z Z +00:00");
  });
});

describe("Go's time.Parse", () => {
  it("reads the layouts' elements into nanoseconds since the epoch", () => {
    expect(parse("2016-05-10T19:06:42", "2006-01-02T15:04:05")).toBe(1462907202n * 10n ** 9n);
    expect(parse("Tue, 10 Nov 2009 23:00:00 UTC", NAMED_LAYOUTS.RFC1123 as string)).toBe(NOV_10_2009);
    expect(parse("10-nov-09  11:00PM", "02-Jan-06 3:04PM")).toBe(NOV_10_2009);
    expect(parse("2009-11-10T23:00:00.5Z", NAMED_LAYOUTS.RFC3339 as string)).toBe(NOV_10_2009 + 500_000_000n);
  });

  it("applies an offset in the value and keeps it as a fixed zone", () => {
    const { ns, zone } = parseLayout("2009-11-10T23:00:00+01:00", NAMED_LAYOUTS.RFC3339 as string);
    expect(ns).toBe(NOV_10_2009 - 3600n * 10n ** 9n);
    expect(zone).toEqual({ name: "", offset: 3600 });
  });

  it("reads a wall clock in the given location", () => {
    const ny = loadLocation("America/New_York");
    expect(parseLayout("2009-11-10 18:00", "2006-01-02 15:04", ny).ns).toBe(NOV_10_2009);
  });

  it("takes omitted elements as zero (year 0) or one (month, day)", () => {
    const f = fieldsAt(parse("15:04", "15:04"), UTC);
    expect([f.year, f.month, f.day, f.hour, f.minute]).toEqual([0, 1, 1, 15, 4]);
  });

  it("fails with Go's messages", () => {
    expect(parseError("16-02-01", "2006-01-02")).toBe(
      'parsing time "16-02-01" as "2006-01-02": cannot parse "16-02-01" as "2006"',
    );
    expect(parseError("2016-13-01", "2006-01-02")).toBe('parsing time "2016-13-01": month out of range');
    expect(parseError("2016-02-30", "2006-01-02")).toBe('parsing time "2016-02-30": day out of range');
    expect(parseError("2016-02-01x", "2006-01-02")).toBe('parsing time "2016-02-01x": extra text: "x"');
    expect(parseError("23:00:00.5", "15:04:05.000")).toBe(
      'parsing time "23:00:00.5" as "15:04:05.000": cannot parse ".5" as ".000"',
    );
    expect(parseError("3pm", "3PM")).toBe('parsing time "3pm" as "3PM": cannot parse "pm" as "PM"');
    expect(parseError("2011xz", "2006xy")).toBe(
      'parsing time "2011xz" as "2006xy": cannot parse "z" as "xy"',
    );
  });

  it("quotes as Go's time package: non-ASCII and control bytes as \\xHH", () => {
    expect(quote(toGoString('é"\\\n'))).toBe('"\\xc3\\xa9\\"\\\\\\x0a"');
  });

  it("refuses an unknown zone", () => {
    expect(() => loadLocation("Mars/Olympus")).toThrow("unknown time zone Mars/Olympus");
  });
});
