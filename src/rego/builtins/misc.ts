/** OPA's units, semver, net (CIDR) and uuid builtins. */
import { randomUUID } from "node:crypto";
import { BuiltinError } from "../errors.js";
import { obj, RSet, type Value } from "../values.js";
import { def, str, tidy } from "./registry.js";

// ---- units --------------------------------------------------------------------------------------

const DECIMAL: Record<string, number> = {
  "": 1,
  k: 1e3,
  K: 1e3,
  m: 1e-3,
  M: 1e6,
  g: 1e9,
  G: 1e9,
  t: 1e12,
  T: 1e12,
  p: 1e15,
  P: 1e15,
  e: 1e18,
  E: 1e18,
  Z: 1e21,
  Y: 1e24,
  R: 1e27,
  Q: 1e30,
  h: 1e2,
  da: 1e1,
  d: 1e-1,
  c: 1e-2,
  μ: 1e-6,
  µ: 1e-6,
  n: 1e-9,
  f: 1e-15,
  a: 1e-18,
  z: 1e-21,
  y: 1e-24,
  r: 1e-27,
  q: 1e-30,
};
const BINARY: Record<string, number> = {
  ki: 2 ** 10,
  mi: 2 ** 20,
  gi: 2 ** 30,
  ti: 2 ** 40,
  pi: 2 ** 50,
  ei: 2 ** 60,
  zi: 2 ** 70,
  yi: 2 ** 80,
};

function splitNumber(name: string, s: string): [number, string] {
  let t = s.replace(/^"(.*)"$/, "$1");
  if (/\s/.test(t)) throw new BuiltinError(`${name}: spaces not allowed in resource strings`);
  t = t.trim();
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(.*)$/.exec(t);
  if (!m) throw new BuiltinError(`${name}: no number provided`);
  return [Number(m[1]), m[2] as string];
}

def("units.parse", 1, (a) => {
  const s = str("units.parse", a, 0);
  if (/\s/.test(s)) throw new BuiltinError("units.parse: spaces not allowed in resource string");
  const [n, suffix] = splitNumber("units.parse", s);
  const d = DECIMAL[suffix];
  if (d !== undefined) return d < 1 ? tidy(n / Math.round(1 / d)) : n * d;
  const b = BINARY[suffix.toLowerCase()];
  if (b !== undefined) return n * b;
  return undefined;
});

def("units.parse_bytes", 1, (a) => {
  const s = str("units.parse_bytes", a, 0);
  if (/\s/.test(s)) throw new BuiltinError("units.parse_bytes: spaces not allowed in resource string");
  const [n, rawSuffix] = splitNumber("units.parse_bytes", s);
  const suffix = rawSuffix.toLowerCase().replace(/b$/, "");
  let mult: number | undefined;
  if (suffix === "") mult = 1;
  else if (suffix.endsWith("i")) mult = BINARY[suffix];
  else
    mult = { k: 1e3, m: 1e6, g: 1e9, t: 1e12, p: 1e15, e: 1e18, z: 1e21, y: 1e24, r: 1e27, q: 1e30 }[suffix];
  if (mult === undefined)
    throw new BuiltinError(`units.parse_bytes: byte size suffix ${rawSuffix} is not supported`);
  return mult >= 2 ** 53 ? n * mult : Math.trunc(n * mult);
});

// ---- semver -------------------------------------------------------------------------------------

const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

function parseSemver(s: string): [number[], string[]] | undefined {
  const m = SEMVER.exec(s);
  if (!m || s.startsWith("v")) return undefined;
  return [[Number(m[1]), Number(m[2]), Number(m[3])], m[4] ? m[4].split(".") : []];
}

def("semver.is_valid", 1, (a) => typeof a[0] === "string" && parseSemver(a[0]) !== undefined);
def("semver.compare", 2, (a) => {
  const x = parseSemver(str("semver.compare", a, 0));
  const y = parseSemver(str("semver.compare", a, 1));
  if (!x)
    throw new BuiltinError(`semver.compare: operand 1: string ${JSON.stringify(a[0])} is not a valid SemVer`);
  if (!y)
    throw new BuiltinError(`semver.compare: operand 2: string ${JSON.stringify(a[1])} is not a valid SemVer`);
  for (let i = 0; i < 3; i++) {
    const d = (x[0][i] as number) - (y[0][i] as number);
    if (d !== 0) return Math.sign(d);
  }
  const [px, py] = [x[1], y[1]];
  if (px.length === 0 && py.length === 0) return 0;
  if (px.length === 0) return 1;
  if (py.length === 0) return -1;
  for (let i = 0; i < Math.max(px.length, py.length); i++) {
    const p = px[i];
    const q = py[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) {
      const d = Number(p) - Number(q);
      if (d !== 0) return Math.sign(d);
    } else if (pn) return -1;
    else if (qn) return 1;
    else if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
});

// ---- net ----------------------------------------------------------------------------------------

interface Cidr {
  v6: boolean;
  addr: bigint;
  bits: number;
}

function parseIp(s: string): { v6: boolean; addr: bigint } | undefined {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    if (parts.some((p) => p > 255)) return undefined;
    return { v6: false, addr: parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n) };
  }
  if (!s.includes(":")) return undefined;
  let text = s;
  let tail: bigint[] = [];
  const lastColon = text.lastIndexOf(":");
  const maybe4 = text.slice(lastColon + 1);
  if (maybe4.includes(".")) {
    const p = parseIp(maybe4);
    if (!p || p.v6) return undefined;
    tail = [p.addr >> 16n, p.addr & 0xffffn];
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const parse = (h: string) => (h === "" ? [] : h.split(":"));
  const left = parse(halves[0] as string);
  const right = halves.length === 2 ? parse(halves[1] as string) : [];
  const groups =
    halves.length === 2 ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  let addr = groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
  if (tail.length) addr = (addr & ~0xffffffffn) | ((tail[0] as bigint) << 16n) | (tail[1] as bigint);
  return { v6: true, addr };
}

function parseCidr(name: string, s: string, allowIp = false): Cidr {
  const [ip, bitsText, extra] = s.split("/");
  const p = parseIp(ip as string);
  if (!p || extra !== undefined) throw new BuiltinError(`${name}: invalid CIDR address: ${s}`);
  const max = p.v6 ? 128 : 32;
  if (bitsText === undefined) {
    if (!allowIp) throw new BuiltinError(`${name}: invalid CIDR address: ${s}`);
    return { ...p, bits: max };
  }
  if (!/^\d+$/.test(bitsText) || Number(bitsText) > max)
    throw new BuiltinError(`${name}: invalid CIDR address: ${s}`);
  const bits = Number(bitsText);
  return { v6: p.v6, addr: p.addr & mask(bits, max), bits };
}

function mask(bits: number, max: number): bigint {
  return ((1n << BigInt(max)) - 1n) ^ ((1n << BigInt(max - bits)) - 1n);
}

function contains(a: Cidr, b: Cidr): boolean {
  if (a.v6 !== b.v6 || b.bits < a.bits) return false;
  const max = a.v6 ? 128 : 32;
  return (b.addr & mask(a.bits, max)) === a.addr;
}

def("net.cidr_contains", 2, (a) =>
  contains(
    parseCidr("net.cidr_contains", str("net.cidr_contains", a, 0)),
    parseCidr("net.cidr_contains", str("net.cidr_contains", a, 1), true),
  ),
);
def("net.cidr_intersects", 2, (a) => {
  const x = parseCidr("net.cidr_intersects", str("net.cidr_intersects", a, 0));
  const y = parseCidr("net.cidr_intersects", str("net.cidr_intersects", a, 1));
  return contains(x, y) || contains(y, x);
});
def("net.cidr_is_valid", 1, (a) => {
  if (typeof a[0] !== "string") return false;
  try {
    parseCidr("net.cidr_is_valid", a[0]);
    return true;
  } catch {
    return false;
  }
});
def("net.cidr_overlap", 2, (a) =>
  contains(
    parseCidr("net.cidr_overlap", str("net.cidr_overlap", a, 0)),
    parseCidr("net.cidr_overlap", str("net.cidr_overlap", a, 1), true),
  ),
);

function formatIp(v6: boolean, addr: bigint): string {
  if (!v6) return [24n, 16n, 8n, 0n].map((s) => String((addr >> s) & 0xffn)).join(".");
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(((addr >> BigInt(i * 16)) & 0xffffn).toString(16));
  return groups.join(":").replace(/(^|:)0(:0)+(:|$)/, "::");
}

def("net.cidr_expand", 1, (a, ctx) => {
  const c = parseCidr("net.cidr_expand", str("net.cidr_expand", a, 0));
  const max = c.v6 ? 128 : 32;
  const n = 1n << BigInt(max - c.bits);
  if (n > 65536n) throw new BuiltinError("net.cidr_expand: CIDR too large");
  ctx.meter.step(Number(n));
  const out = new RSet();
  for (let i = 0n; i < n; i++) out.add(formatIp(c.v6, c.addr + i));
  return out;
});

// ---- uuid ---------------------------------------------------------------------------------------

const uuids = new Map<string, string>();
def("uuid.rfc4122", 1, (a) => {
  const k = str("uuid.rfc4122", a, 0);
  let u = uuids.get(k);
  if (u === undefined) {
    u = randomUUID();
    uuids.set(k, u);
    if (uuids.size > 1024) uuids.delete(uuids.keys().next().value as string);
  }
  return u;
});
def("uuid.parse", 1, (a) => {
  const s = str("uuid.parse", a, 0);
  const m =
    /^(?:urn:uuid:)?\{?([0-9a-fA-F]{8})-?([0-9a-fA-F]{4})-?([0-9a-fA-F]{4})-?([0-9a-fA-F]{4})-?([0-9a-fA-F]{12})\}?$/.exec(
      s,
    );
  if (!m) return undefined;
  const hex = m.slice(1).join("").toLowerCase();
  const version = Number.parseInt(hex[12] as string, 16);
  const v8 = Number.parseInt(hex.slice(16, 18), 16);
  const variant =
    (v8 & 0x80) === 0
      ? "Reserved, NCS backward compatibility."
      : (v8 & 0xc0) === 0x80
        ? "RFC4122"
        : (v8 & 0xe0) === 0xc0
          ? "Reserved, Microsoft Corporation backward compatibility."
          : "Reserved for future definition.";
  const out: Record<string, Value> = { version, variant };
  if (version === 1 || version === 2) {
    const timeHex = hex.slice(13, 16) + hex.slice(8, 12) + hex.slice(0, 8);
    const t = BigInt(`0x${timeHex}`);
    out.time = Number((t - 122192928000000000n) * 100n);
    const clock = Number.parseInt(hex.slice(16, 20), 16) & 0x3fff;
    out.clocksequence = clock;
    out.nodeid = hex.slice(20).match(/../g)?.join("-") as string;
    if (version === 2) {
      out.id = Number.parseInt(hex.slice(0, 8), 16);
      out.domain =
        ["Person", "Group", "Org"][Number.parseInt(hex.slice(18, 20), 16)] ??
        `Domain${Number.parseInt(hex.slice(18, 20), 16)}`;
    }
    if (Number.parseInt(hex.slice(20, 22), 16) & 1) out.macvariables = "local:multicast";
    else out.macvariables = Number.parseInt(hex.slice(20, 22), 16) & 2 ? "local:unicast" : "global:unicast";
  }
  return obj(out);
});
