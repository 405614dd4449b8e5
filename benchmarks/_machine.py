"""Machine facts printed with every benchmark."""

from __future__ import annotations

import os
import platform


def machine() -> str:
    """One line: CPU model, cores, memory, Python."""
    cpu = platform.processor() or "unknown cpu"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            kb = int(f.readline().split()[1])
            mem = f", {kb / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu}, {os.cpu_count()} cores{mem}, Python {platform.python_version()}"


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of values, nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def load_line() -> str:
    """The 1/5/15-minute load averages and runnable tasks: the machine may be shared with other work."""
    try:
        with open("/proc/loadavg", encoding="utf-8") as f:
            one, five, fifteen, tasks = f.read().split()[:4]
        return f"load average {one} / {five} / {fifteen} (1/5/15 min), runnable/total tasks {tasks}"
    except (OSError, ValueError):
        return "load average unknown"


def pin_to_one_core() -> str:
    """Pin this process (and children started later) to one allowed core, like ``taskset -c N``; say what happened."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (this OS has no sched_setaffinity)"
    allowed = sorted(os.sched_getaffinity(0))
    core = allowed[-1]
    try:
        os.sched_setaffinity(0, {core})
    except OSError as exc:
        return f"not pinned ({type(exc).__name__})"
    return f"pinned to core {core} of allowed {allowed}"
