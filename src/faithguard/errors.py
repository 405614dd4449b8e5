"""The one exception tree of faithguard.

::

    FaithGuardError
    ├── ConfigError            bad settings (in code, env or files)
    ├── InputError             bad input: empty query, undecodable file, over the size limit
    ├── PluginError            a plugin could not be loaded or registered
    ├── DetectorError          a detector raised or ran out of time (recorded, never raised
    │   │                      through a guarded call)
    │   └── BudgetSpent        raised by ``checkpoint()`` inside a plugin whose time budget is spent
    ├── Skipped                a plugin skipped this call by design (sampling, budget): not a failure
    ├── JudgeError             the LLM judge failed: transport, status, timeout, bad output
    │   ├── JudgeUnavailable   connection refused, timeout, 5xx, 429 after retries
    │   │   └── JudgeSkipped   the judge was not asked by design (sampled out, call cap): the
    │   │                      caller's offline result stands
    │   └── JudgeOutputError   the judge answered, but not in the expected shape
    └── HallucinationBlocked   a block policy stopped a call; carries the report
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from faithguard.models import InspectReport, Report

__all__ = [
    "BudgetSpent",
    "ConfigError",
    "DetectorError",
    "FaithGuardError",
    "HallucinationBlocked",
    "InputError",
    "InputTooLarge",
    "JudgeError",
    "JudgeOutputError",
    "JudgeSkipped",
    "JudgeUnavailable",
    "PluginError",
    "Skipped",
    "redact_url",
    "shown",
]


#: Longest value :func:`shown` echoes: a model or plugin name ("gpt-4o", "qwen2.5:3b") fits; API keys (32 characters
#: and more) and URLs do not.
SHOWN_CHARS = 24


def redact_url(url: str) -> str:
    """``url`` without credentials or query values: ``https://user:key@h/v1?k=s`` -> ``https://h/v1?k=***``."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        return "<unparseable url>"
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    try:
        netloc = f"{host}:{parts.port}" if parts.port is not None else host
    except ValueError:
        netloc = host
    query = "&".join(f"{item.split('=', 1)[0]}=***" for item in parts.query.split("&") if item)
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def shown(value: str) -> str:
    """``value`` quoted for an error message, unless it may carry a credential: a URL, an address or anything longer
    than a name (an API key passed in the wrong place) is described, never echoed."""
    if "://" in value or "@" in value or len(value) > SHOWN_CHARS:
        return f"<a value of {len(value)} characters: not shown>"
    return repr(value)


class FaithGuardError(Exception):
    """Base of every error faithguard raises."""


class ConfigError(FaithGuardError):
    """Invalid configuration."""


class InputError(FaithGuardError, ValueError):
    """The input cannot be checked (empty, undecodable, too long...)."""


class InputTooLarge(InputError):
    """A text is longer than a check reads: that check says ``undetermined`` for the call (never a pass) and is
    listed in ``Report.skipped``. Raised from inside a plugin; the message holds sizes only, never the text."""

    def __init__(self, what: str, size: int, limit: int, unit: str = "characters") -> None:
        super().__init__(f"{what} is {size} characters; this check reads at most {limit} {unit}")
        self.what, self.size, self.limit, self.unit = what, size, limit, unit

    def __reduce__(self) -> tuple[type[InputTooLarge], tuple[str, int, int, str]]:
        return type(self), (self.what, self.size, self.limit, self.unit)


class PluginError(FaithGuardError):
    """A plugin failed to load or register; names the plugin."""

    def __init__(self, plugin: str, message: str) -> None:
        super().__init__(f"plugin {plugin!r}: {message}")
        self.plugin = plugin


class DetectorError(FaithGuardError):
    """A detector raised or exceeded its time budget."""

    def __init__(self, detector: str, message: str) -> None:
        super().__init__(f"detector {detector!r}: {message}")
        self.detector = detector


class BudgetSpent(DetectorError):
    """The running plugin call is past its time budget; raised by :func:`faithguard.checkpoint`."""


class Skipped(FaithGuardError):
    """A plugin chose not to run on this call (sampled out, over a budget, input too large).

    Recorded in ``Report.skipped``, never counted as a detector error.
    """


class JudgeError(FaithGuardError):
    """The LLM judge could not produce a usable answer."""


class JudgeUnavailable(JudgeError):
    """The judge endpoint is down, slow, or rate limited."""


class JudgeSkipped(JudgeUnavailable):
    """The judge was not asked on purpose (the request fell outside its sampling rate, or used its calls)."""


class JudgeOutputError(JudgeError):
    """The judge answered with output that does not fit the schema."""


class HallucinationBlocked(FaithGuardError):
    """A block policy stopped the call. ``report`` holds the reason."""

    def __init__(self, report: Report | InspectReport, message: str | None = None) -> None:
        kinds = sorted({v.kind for v in report.verdicts})
        super().__init__(message or f"blocked by faithguard: {', '.join(kinds) or 'policy'}")
        self.report = report

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.report, str(self)))
