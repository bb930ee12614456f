/**
 * Progress on a terminal for long steps of `porchlight render` (files read, the step running and for
 * how long, files written): one status line redrawn in place (`\r`, erase line) and erased before any
 * other output. Off when the stream is not a TTY, so piped and redirected output stays byte for byte
 * kpt's.
 */

/** A status line; every method is a no-op when the stream is not a terminal. */
export interface Progress {
  /** Replaces the status line with `text` (at most one redraw per `intervalMs`, unless `force`). */
  show(text: string, force?: boolean): void;
  /** Erases the status line (call before writing anything else to the stream). */
  clear(): void;
  /** Shows `label` with the seconds elapsed, redrawn every second until `clear` or another `tick`. */
  tick(label: string): void;
}

/** The writes a terminal status line needs. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** A status line on `stream` (process.stderr for the CLI). */
export function createProgress(
  stream: ProgressStream,
  options: { intervalMs?: number; now?: () => number } = {},
): Progress {
  if (!stream.isTTY) return { show: () => undefined, clear: () => undefined, tick: () => undefined };
  const intervalMs = options.intervalMs ?? 100;
  const now = options.now ?? Date.now;
  let shown = false;
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  const stopTimer = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  const show = (text: string, force = false) => {
    if (!force && shown && now() - last < intervalMs) return;
    const width = Math.max(20, (stream.columns || 80) - 1); // 0 columns (some ptys, CI): unknown
    stream.write(`\r\x1b[K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
    shown = true;
    last = now();
  };
  return {
    show,
    clear() {
      stopTimer();
      if (shown) stream.write("\r\x1b[K");
      shown = false;
    },
    tick(label) {
      stopTimer();
      const start = now();
      show(label, true);
      timer = setInterval(() => show(`${label} ${Math.round((now() - start) / 1000)}s`, true), 1000);
      timer.unref();
    },
  };
}
