"""Runs a command and writes what wait4 says of it, for the CLI bench.

Usage: python3 rusage.py OUT_FILE COMMAND [ARGS...]

Writes one line to OUT_FILE: peak RSS (KiB), user seconds, system seconds and wall seconds of the
child and the descendants it waited for, each to the microsecond as the kernel reports them (GNU
time's %U and %S cut each to 10 ms, a third of a small render). Wall time runs from the fork to the
child's exit, without this script's own start. Standard streams are the child's; the exit status is
the child's (128 + N when a signal N ended it).
"""

import os
import sys
import time


def main() -> int:
    out, argv = sys.argv[1], sys.argv[2:]
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    with open(out, "w", encoding="utf-8") as f:
        f.write(f"{usage.ru_maxrss} {usage.ru_utime:.6f} {usage.ru_stime:.6f} {wall:.6f}\n")
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main())
