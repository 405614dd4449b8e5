"""Detect IFBench's constraint types in a request through the declarative specs in ``data/ifbench.json``.

Parameters that name a part of the request itself (the text to repeat, the reference text of an
overlap ratio) are the request with the instruction sentences taken out.
"""

from __future__ import annotations

import re

from faithguard.verifiers.spec import VerifiableSpec, make_spec, sentence_span
from faithguard.verifiers.spec_loader import run_specs

__all__ = ["detect_ifbench"]


def _rest(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` without the sentences that hold the given instruction spans."""
    cut = sorted(sentence_span(text, a, b) for a, b in spans)
    out, pos = [], 0
    for a, b in cut:
        if a >= pos:
            out.append(text[pos:a])
        pos = max(pos, b)
    out.append(text[pos:])
    return re.sub(r"[ \t]+", " ", "".join(out)).strip()


def detect_ifbench(text: str) -> list[tuple[VerifiableSpec, tuple[int, int]]]:
    """IFBench constraints stated in ``text`` (IFBench's kwargs names), each with its match span."""
    found = run_specs("ifbench", text)
    if not found:
        return []
    rest: str | None = None
    out: list[tuple[VerifiableSpec, tuple[int, int]]] = []
    for spec, span, source in found:
        if source.post is not None and source.post.startswith("context:"):
            if rest is None:
                rest = _rest(text, [s for _, s, _ in found])
            if not rest:
                continue
            params = dict(spec.params)
            params[source.post.split(":", 1)[1]] = rest
            spec = make_spec(spec.verifier, params, spec.text)
        out.append((spec, span))
    return out
