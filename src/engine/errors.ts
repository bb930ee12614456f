/**
 * kpt's error chain (`internal/errors.E`): each level names an operation and optionally a package,
 * e.g. `pkg.render: pkg .:\n\tpipeline.run: already handled error`. A nested chain is joined with
 * `:\n\t`, a plain cause with `: `. The Kptfile `Rendered` condition message is this text.
 */

/**
 * A render stopped before it finished for a reason that is not the package's (the server is shutting
 * down). It is no verdict on the package: whoever runs the work again (another process, the next start)
 * renders it, so nothing is reported for it.
 */
export class RenderInterruptedError extends Error {
  override readonly name: string = "RenderInterruptedError";
}

/** kpt's sentinel for a function failure whose output was already printed. */
export const ALREADY_HANDLED = "already handled error";

/** One level of kpt's error chain. */
export class KptError extends Error {
  readonly op: string;
  readonly pkg: string | undefined;
  override readonly cause: KptError | string;
  /** What kpt's CLI prints for this cause when it differs from the chain text (e.g. Kptfile read errors). */
  readonly cli: string | undefined;
  constructor(options: { op: string; pkg?: string; cause: KptError | string; cli?: string }) {
    super(formatChain(options.op, options.pkg, options.cause));
    this.cli = options.cli;
    this.name = "KptError";
    this.op = options.op;
    this.pkg = options.pkg;
    this.cause = options.cause;
  }

  /** The innermost plain cause (what kpt's CLI prints after `Error: `). */
  rootCause(): string {
    if (this.cli !== undefined) return this.cli;
    return typeof this.cause === "string" ? this.cause : this.cause.rootCause();
  }
}

function formatChain(op: string, pkg: string | undefined, cause: KptError | string): string {
  let head = op;
  if (pkg !== undefined) head += `: pkg ${pkg}`;
  if (typeof cause === "string") return `${head}: ${cause}`;
  return `${head}:\n\t${cause.message}`;
}

/**
 * kpt's `ValidateError` for a Kptfile field (`Kptfile is invalid:\nField: ...\nValue: ...\nReason: ...\n`).
 */
export function kptfileFieldError(options: { field: string; value: string; reason: string }): string {
  return `Kptfile is invalid:\nField: \`${options.field}\`\nValue: ${JSON.stringify(options.value)}\nReason: ${options.reason}\n`;
}

/** A plain (non-chain) cause of a package's failure, e.g. a pipeline validation message. */
export class PlainCause extends Error {}

/**
 * Wraps a child failure (or a plain cause) into this package's `pkg.render` level.
 * @throws the error itself when it is neither (a bug, not a package problem).
 */
export function wrapPackageError(display: string, err: unknown): KptError {
  if (err instanceof PlainCause) return new KptError({ op: "pkg.render", pkg: display, cause: err.message });
  if (err instanceof KptError) {
    // A `pkg.render` error is already wrapped: this package's own, or a subpackage's, which kpt 1.0
    // passes up as it is (`pkg.render: pkg ./db:\n\tpipeline.run: …`, not nested under `pkg .`).
    if (err.op === "pkg.render") return err;
    return new KptError({ op: "pkg.render", pkg: display, cause: err });
  }
  throw err;
}
