"""The semantic detector: is the answer about what was asked, and is every part of the request covered?

Evidence, never proof: a high calibrated probability that the answer is about something else yields a
``misinterpretation`` verdict (and marks still-undecided content constraints violated); a sub-question
that no passage of an otherwise on-topic answer is about yields an ``omission`` verdict. A low
probability only says "on topic" in the findings: similarity never marks a constraint satisfied.
Between the two bands the layer reports ``unknown``.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt
from cachetools import LRUCache

from faithguard.detector import CallContext
from faithguard.models import Category, DetectorResult, Severity, Status, Verdict, VerdictKind

__all__ = ["Calibration", "SemanticDetector", "TextEncoder", "band_of", "chunk_passages", "topic_features"]

Band = Literal["off_topic", "unknown", "on_topic"]
F32 = npt.NDArray[np.float32]

#: Probability at or above which the answer counts as about something else. Provenance: the paper's
#: bands are not probabilities; 0.8 keeps the expected false-alarm share of a fired verdict at <= 20%
#: under the study-split calibration. Fixtures: tests/semantic/test_detector.py::test_bands.
OFF_TOPIC_P = 0.8
#: At or below this the answer is reported on topic (a finding only). Same provenance, mirrored.
ON_TOPIC_P = 0.2
#: Passages of at most this many words; at most this many passages are encoded (bounded work per check).
PASSAGE_WORDS = 40
MAX_PASSAGES = 4
#: Request text longer than this many characters is cut before encoding (the tokenizer cuts at 128 tokens).
_REQUEST_CHARS = 2000

_WORD = re.compile(r"\S+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class TextEncoder(Protocol):
    """What the detector needs from an embedding model: unit vectors, one row per text."""

    def encode(self, texts: Sequence[str]) -> F32:
        """Embed texts."""
        ...


@dataclass(frozen=True)
class Calibration:
    """Logistic map from (cos to the whole answer, cos to the best passage) to P(answer is off topic)."""

    bias: float
    weights: tuple[float, float]
    fitted_on: str = ""

    def probability(self, cos_mean: float, cos_best: float) -> float:
        """P(off topic) for one request/answer pair."""
        z = self.bias + self.weights[0] * cos_mean + self.weights[1] * cos_best
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))

    @classmethod
    def builtin(cls) -> Calibration:
        """The calibration shipped in ``calibration.json`` (fitted by benchmarks/fit_semantic.py)."""
        raw = json.loads(resources.files("faithguard.semantic").joinpath("calibration.json").read_text("utf-8"))
        return cls(float(raw["bias"]), (float(raw["weights"][0]), float(raw["weights"][1])), str(raw["fitted_on"]))


def band_of(p: float) -> Band:
    """off_topic (>= OFF_TOPIC_P), on_topic (<= ON_TOPIC_P), else unknown."""
    if p >= OFF_TOPIC_P:
        return "off_topic"
    if p <= ON_TOPIC_P:
        return "on_topic"
    return "unknown"


def chunk_passages(text: str, *, words: int = PASSAGE_WORDS, limit: int = MAX_PASSAGES) -> list[str]:
    """Split an answer into passages of <= ``words`` words along lines and sentences; at most ``limit``,
    spread evenly over the answer when there are more."""
    pieces: list[str] = []
    for line in text.splitlines():
        pieces.extend(s for s in _SENTENCE_END.split(line) if s.strip())
    passages: list[str] = []
    current: list[str] = []
    for piece in pieces:
        toks = _WORD.findall(piece)
        start = 0
        while start < len(toks):
            room = words - len(current)
            current.extend(toks[start : start + room])
            start += room
            if len(current) >= words:
                passages.append(" ".join(current))
                current = []
        if current and len(current) >= words // 2:
            passages.append(" ".join(current))
            current = []
    if current:
        passages.append(" ".join(current))
    if len(passages) > limit:
        step = (len(passages) - 1) / (limit - 1)
        passages = [passages[round(i * step)] for i in range(limit)]
    return passages


def topic_features(request: F32, passages: F32) -> tuple[float, float]:
    """(cos(request, mean of passages), max cos(request, passage)) over unit vectors."""
    mean = passages.mean(axis=0)
    norm = float(np.linalg.norm(mean))
    cos_mean = float(request @ mean) / norm if norm > 0 else 0.0
    return cos_mean, float((passages @ request).max())


def _checkpoint() -> None:
    try:
        from faithguard.runner import checkpoint  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return
    checkpoint()


class SemanticDetector:
    """Output stage, order 150: embedding evidence for misinterpretation and omission."""

    name = "semantic"
    stage: Literal["input", "output"] = "output"
    order = 150
    timeout: float | None = None

    def __init__(
        self,
        encoder: TextEncoder | None = None,
        *,
        calibration: Calibration | None = None,
        loader: Callable[[], TextEncoder] | None = None,
        cache_size: int = 4096,
    ) -> None:
        self._encoder = encoder
        self._loader = loader
        self.calibration = calibration or Calibration.builtin()
        self._cache: LRUCache[str, F32] = LRUCache(maxsize=cache_size)  # ~1.5 KB per text
        self._lock = threading.Lock()

    def warmup(self) -> None:
        """Load the embedding model now (ConfigError naming the install line when it is missing)."""
        self._get_encoder().encode(["warm up"])

    def _get_encoder(self) -> TextEncoder:
        if self._encoder is None:
            with self._lock:
                if self._encoder is None:
                    if self._loader is not None:
                        self._encoder = self._loader()
                    else:
                        from faithguard.semantic._model import get_encoder

                        self._encoder = get_encoder()
        return self._encoder

    def _embed_cached(self, texts: Sequence[str]) -> F32:
        """Embeddings remembered by text (request side and answer passages): a repeated query or
        answer is not encoded again. Bounded by ``cache_size`` texts (384 floats each)."""
        enc = self._get_encoder()
        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            vecs = enc.encode(missing)
            with self._lock:
                for t, v in zip(missing, vecs, strict=True):
                    self._cache[t] = v
        with self._lock:
            return np.stack([self._cache[t] for t in texts])

    def features(self, query: str, documents: Sequence[str], response: str) -> tuple[float, float] | None:
        """The calibration's inputs for one call; None when the request or the answer is empty."""
        passages = chunk_passages(response)
        if not query.strip() or not passages:
            return None
        request = query if not documents else query + "\n\n" + "\n\n".join(documents)
        req = self._embed_cached([query[:_REQUEST_CHARS], request[:_REQUEST_CHARS]])
        pvecs = self._embed_cached(passages)
        # The request is read both alone and with its documents; the closer reading counts.
        return max(topic_features(req[0], pvecs), topic_features(req[1], pvecs))

    def probability(self, query: str, response: str, documents: Sequence[str] = ()) -> float | None:
        """P(the answer is about something other than the request); None when either side is empty."""
        feats = self.features(query, documents, response)
        return None if feats is None else self.calibration.probability(*feats)

    def run(self, ctx: CallContext) -> DetectorResult:
        """Band the answer's topic against the request, then look for sub-questions nothing covers."""
        passages = chunk_passages(ctx.response or "")
        if not ctx.query.strip() or not passages:
            return DetectorResult(findings={"semantic": {"band": "unknown", "reason": "empty request or answer"}})
        request = ctx.query if not ctx.documents else ctx.query + "\n\n" + "\n\n".join(ctx.documents)
        subs = [s.text for s in ctx.decomposition.subquestions] if len(ctx.decomposition.subquestions) > 1 else []
        req_side = self._embed_cached([ctx.query[:_REQUEST_CHARS], request[:_REQUEST_CHARS], *subs])
        _checkpoint()
        pvecs = self._embed_cached(passages)
        _checkpoint()
        # The request is read both alone and with its documents; the closer reading counts.
        feats = max(topic_features(req_side[0], pvecs), topic_features(req_side[1], pvecs))
        p = self.calibration.probability(*feats)
        band = band_of(p)
        finding: dict[str, Any] = {"band": band, "p_off_topic": round(p, 4), "passages": len(passages)}
        verdicts: list[Verdict] = []
        updates: dict[str, tuple[Status, str | None]] = {}
        if band == "off_topic":
            content = [
                c
                for c in ctx.constraints
                if c.status is Status.UNKNOWN and c.verifier is None and c.category is Category.SUBJECT
            ]
            reason = f"answer is about something else (semantic p={p:.2f})"
            for c in content:
                updates[c.id] = (Status.VIOLATED, reason)
            verdicts.append(
                Verdict(
                    kind=VerdictKind.MISINTERPRETATION,
                    severity=Severity.WARNING,
                    constraint_ids=[c.id for c in content],
                    explanation=reason,
                    detector=self.name,
                )
            )
        elif subs:
            uncovered = []
            for i, sub_vec in enumerate(req_side[2:]):
                p_sub = self.calibration.probability(*topic_features(sub_vec, pvecs))
                if band_of(p_sub) == "off_topic":
                    uncovered.append((i, p_sub))
            finding["uncovered_subquestions"] = [i for i, _ in uncovered]
            for i, p_sub in uncovered:
                ids = [c.id for c in ctx.constraints if c.subquestion == i and c.status is Status.UNKNOWN]
                verdicts.append(
                    Verdict(
                        kind=VerdictKind.OMISSION,
                        severity=Severity.WARNING,
                        constraint_ids=ids,
                        explanation=f"no passage is about sub-question {i + 1} (semantic p={p_sub:.2f})",
                        detector=self.name,
                    )
                )
        return DetectorResult(verdicts=verdicts, updates=updates, findings={"semantic": finding})
