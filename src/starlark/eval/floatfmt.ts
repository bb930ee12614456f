/**
 * Float formatting with Go's strconv rules, as go.starlark.net prints floats: `%g` with the shortest
 * representation (exponent form when exp < -4 or exp >= 6, exponent of at least two digits) and
 * `%e`/`%f` with exact decimal expansion and round-half-even at 6 digits.
 */

const buf = new DataView(new ArrayBuffer(8));

/** Exact decimal expansion of a finite, non-negative double: value = 0.digits × 10^dp. */
function exactDecimal(x: number): { digits: string; dp: number } {
  if (x === 0) return { digits: "", dp: 0 };
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const expBits = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (expBits === 0) {
    e = -1074;
  } else {
    mant |= 1n << 52n;
    e = expBits - 1075;
  }
  let digits: string;
  let fracDigits: number;
  if (e >= 0) {
    digits = (mant << BigInt(e)).toString();
    fracDigits = 0;
  } else {
    digits = (mant * 5n ** BigInt(-e)).toString();
    fracDigits = -e;
  }
  // value = digits × 10^-fracDigits = 0.digits × 10^(len - fracDigits)
  let dp = digits.length - fracDigits;
  // trim trailing zeros
  let end = digits.length;
  while (end > 0 && digits[end - 1] === "0") end--;
  digits = digits.slice(0, end);
  // trim leading zeros (cannot occur for e >= 0; for e < 0 digits has none either)
  let start = 0;
  while (start < digits.length && digits[start] === "0") start++;
  if (start > 0) {
    digits = digits.slice(start);
    dp -= start;
  }
  return { digits, dp };
}

/** Rounds decimal digits to `nd` digits, half to even on the exact value. */
function roundDigits(d: { digits: string; dp: number }, nd: number): { digits: string; dp: number } {
  const { digits } = d;
  if (nd < 0) return { digits: "", dp: d.dp };
  if (nd >= digits.length) return d;
  let up: boolean;
  const next = digits.charCodeAt(nd);
  if (next > 0x35) up = true;
  else if (next < 0x35) up = false;
  else if (nd + 1 < digits.length) up = true;
  else up = nd > 0 && (digits.charCodeAt(nd - 1) - 48) % 2 === 1;
  if (!up) {
    let end = nd;
    while (end > 0 && digits[end - 1] === "0") end--;
    return { digits: digits.slice(0, end), dp: d.dp };
  }
  const arr = digits.slice(0, nd).split("");
  let i = nd - 1;
  while (i >= 0 && arr[i] === "9") {
    arr[i] = "0";
    i--;
  }
  if (i < 0) {
    return { digits: `1${arr.join("")}`.replace(/0+$/, ""), dp: d.dp + 1 };
  }
  arr[i] = String.fromCharCode(arr[i]!.charCodeAt(0) + 1);
  return { digits: arr.join("").replace(/0+$/, ""), dp: d.dp };
}

function fmtE(neg: boolean, digits: string, dp: number, prec: number, e: string): string {
  let s = neg ? "-" : "";
  s += digits.length > 0 ? digits[0] : "0";
  if (prec > 0) {
    s += ".";
    for (let i = 1; i <= prec; i++) s += i < digits.length ? digits[i] : "0";
  }
  let exp = digits.length === 0 ? 0 : dp - 1;
  s += e;
  if (exp < 0) {
    s += "-";
    exp = -exp;
  } else {
    s += "+";
  }
  s += exp < 10 ? `0${exp}` : String(exp);
  return s;
}

function fmtF(neg: boolean, digits: string, dp: number, prec: number): string {
  let s = neg ? "-" : "";
  if (dp > 0) {
    for (let i = 0; i < dp; i++) s += i < digits.length ? digits[i] : "0";
  } else {
    s += "0";
  }
  if (prec > 0) {
    s += ".";
    for (let i = 0; i < prec; i++) {
      const j = dp + i;
      s += j >= 0 && j < digits.length ? digits[j] : "0";
    }
  }
  return s;
}

function isNeg(x: number): boolean {
  return x < 0 || Object.is(x, -0);
}

/** Shortest decimal digits of a finite double (like Go's shortest formatting). */
function shortest(x: number): { digits: string; dp: number } {
  if (x === 0) return { digits: "", dp: 0 };
  const s = Math.abs(x).toExponential();
  const ei = s.indexOf("e");
  const digits = s.slice(0, ei).replace(".", "");
  return { digits, dp: Number(s.slice(ei + 1)) + 1 };
}

/**
 * Go's strconv.FormatFloat(x, conv, prec, 64) for conv in e, E, f, g, G (prec -1 = shortest).
 * Non-finite values are the caller's business.
 */
export function formatFloat(x: number, conv: string, prec: number): string {
  const neg = isNeg(x);
  const ax = Math.abs(x);
  if (conv === "g" || conv === "G") {
    // Only the shortest form is used by Starlark (prec is ignored).
    const d = shortest(ax);
    const nd = d.digits.length === 0 ? 1 : d.digits.length;
    const exp = d.digits.length === 0 ? 0 : d.dp - 1;
    if (exp < -4 || exp >= 6) return fmtE(neg, d.digits, d.dp, nd - 1, conv === "g" ? "e" : "E");
    const dp = d.digits.length === 0 ? 1 : d.dp;
    return fmtF(neg, d.digits, d.dp, Math.max(nd - dp, 0));
  }
  if (conv === "e" || conv === "E") {
    const d = roundDigits(exactDecimal(ax), prec + 1);
    return fmtE(neg, d.digits, d.dp, prec, conv);
  }
  // 'f'
  const ex = exactDecimal(ax);
  const d = roundDigits(ex, ex.dp + prec);
  return fmtF(neg, d.digits, d.dp, prec);
}

/** A float as Starlark's str/repr prints it: Go's %g shortest, plus ".0" if it looks like an int. */
export function floatString(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "+inf" : "-inf";
  const s = formatFloat(x, "g", -1);
  return s.includes("e") || s.includes(".") ? s : `${s}.0`;
}
