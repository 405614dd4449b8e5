"""Deterministic verifiers: detect verifiable instructions in a query and check them in a response.

Covers the 25 IFEval instruction types (IFEval ids and kwargs names, strict definitions) and
creative-writing constraints under ``creative:`` ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from faithguard.verifiers import check_creative as _check_creative
from faithguard.verifiers import check_ifeval as _check_ifeval
from faithguard.verifiers.detect_creative import detect_creative
from faithguard.verifiers.detect_format import detect_format, detect_paragraphs, detect_repeat, detect_startend
from faithguard.verifiers.detect_ifeval import (
    detect_case,
    detect_keywords,
    detect_language,
    detect_length,
    detect_letters,
    detect_no_comma,
)
from faithguard.verifiers.registry import VerifierOutcome, registered_ids, run_checker
from faithguard.verifiers.spec import VerifiableSpec

__all__ = ["IFEVAL_IDS", "VERIFIER_IDS", "VerifiableSpec", "VerifierOutcome", "detect", "verify"]

del _check_creative, _check_ifeval  # imported for their registrations

#: Every supported verifier id.
VERIFIER_IDS: tuple[str, ...] = registered_ids()
#: The 25 IFEval instruction ids.
IFEVAL_IDS: tuple[str, ...] = tuple(v for v in VERIFIER_IDS if not v.startswith("creative:"))

_MAX_QUERY = 20_000


def _key(spec: VerifiableSpec) -> tuple[str, str]:
    return spec.verifier, repr(sorted(spec.params.items()))


def detect(text: str) -> list[VerifiableSpec]:
    """Find the verifiable instructions stated in a query, with IFEval-style parameters."""
    if not isinstance(text, str) or not text.strip():
        return []
    text = text[:_MAX_QUERY]
    found: list[VerifiableSpec] = []
    case = detect_case(text)
    english_case = any(s.verifier in {"change_case:english_capital", "change_case:english_lowercase"} for s in case)
    paragraphs = detect_paragraphs(text)
    found.extend(detect_repeat(text))
    found.extend(detect_keywords(text))
    found.extend(detect_letters(text))
    found.extend(detect_language(text, english_case=english_case))
    found.extend(detect_length(text))
    found.extend(paragraphs)
    found.extend(detect_format(text))
    found.extend(detect_startend(text))
    found.extend(case)
    found.extend(detect_no_comma(text))
    found.extend(detect_creative(text, has_paragraph_spec=bool(paragraphs)))
    out: list[VerifiableSpec] = []
    seen: set[tuple[str, str]] = set()
    for spec in found:
        k = _key(spec)
        if k not in seen:
            seen.add(k)
            out.append(spec)
    return out


def verify(verifier: str, params: Mapping[str, Any], response: str) -> VerifierOutcome:
    """Check ``response`` against one verifier; raises ConfigError for an unknown verifier id."""
    return run_checker(verifier, params or {}, response)
