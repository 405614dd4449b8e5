"""Acceptance classification (incl. negation scope), labels and the two detectors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faithguard.detector import CallContext, Detector
from faithguard.terms.acceptance import classify_acceptance, classify_terms
from faithguard.terms.detectors import FabricatedTermsDetector, UnknownTermsDetector, resolve_term
from faithguard.terms.labels import answer_label, meaning_check, term_label
from faithguard.terms.sources import ContextSource, GlossarySource, IndexSource, LexiconSource

T = "Nano-Sync Fusion Technology"


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Nano-Sync Fusion Technology aligns nanodevices with a shared clock.", "MENTIONED"),
        ("I could not find any information about Nano-Sync Fusion Technology.", "UNKNOWN"),
        ("There is no such thing as Nano-Sync Fusion Technology.", "UNREAL"),
        ("Nano-Sync Fusion Technology does not exist as far as I know.", "UNREAL"),
        ("This isn't hype: Nano-Sync Fusion Technology is a real advance.", "MENTIONED"),
        ("This isn't a made-up idea: Nano-Sync Fusion Technology is a real advance.", "MENTIONED"),
        ("I couldn't find the Foo Act, but Nano-Sync Fusion Technology syncs devices.", "MENTIONED"),
        ("Although not widely recognised, Nano-Sync Fusion Technology is a method for syncing devices.", "MENTIONED"),
        ("Nano-Sync Fusion Technology is not a recognized term in nanotechnology.", "UNREAL"),
        ("Nano-Sync Fusion Technology appears to be a fictional concept.", "UNREAL"),
        ("Nanorobots are real. As for Nano-Sync Fusion Technology, I'm not familiar with it.", "UNKNOWN"),
        ("Nano-Sync Fusion Technology is mentioned online. However, it does not exist.", "UNREAL"),
        ("Consider a hypothetical scenario where Nano-Sync Fusion Technology is used in hospitals.", "MENTIONED"),
        ("The NSFT approach syncs devices.", "MENTIONED"),
        ("Nanorobots exist.", "ABSENT"),
    ],
)
def test_acceptance_cases(answer: str, expected: str) -> None:
    assert classify_acceptance(answer, T, context_terms=["nanorobots"]) == expected


def test_refusal_is_attributed_to_the_right_term() -> None:
    answer = "Nanorobotics builds tiny machines. I'm not aware of Nano-Sync Fusion Technology, though."
    labels = classify_terms(answer, ["Nanorobotics", T])
    assert labels == {"Nanorobotics": "MENTIONED", T: "UNKNOWN"}


def test_term_and_answer_labels() -> None:
    assert term_label(False, "MENTIONED") == "h"
    assert term_label(False, "UNREAL") == "v"
    assert term_label(False, "UNKNOWN") == "v"
    assert term_label(True, "UNKNOWN") == "i"
    assert term_label(True, "UNREAL") == "h"
    assert term_label(True, "MENTIONED", meaning=False) == "h"
    assert term_label(True, "ABSENT") == "i"
    assert answer_label(["v", "i", "h"]) == "hallucination"
    assert answer_label(["v", "i"]) == "irrelevant"
    assert answer_label(["v", "v"]) == "valid"
    assert answer_label([]) is None


def test_meaning_check() -> None:
    definition = "the quantity of virus in a given volume of blood or fluid"
    good = "Viral load measures the quantity of virus present in a volume of blood."
    assert meaning_check(good, "viral load", definition) is True
    off = (
        "Viral load is how many people share a clip: creators chase views, shares, likes, followers, trends, "
        "algorithms, hashtags, audiences, brands, sponsors, platforms, feeds and engagement metrics every day."
    )
    assert meaning_check(off, "viral load", definition) is False
    assert meaning_check("Unrelated text.", "viral load", definition) is None


def test_resolve_term_rules(index_path: Path) -> None:
    ctx = CallContext(query="q")

    class Broken:
        name = "broken"

        def lookup(self, term: str, ctx: CallContext) -> bool | None:
            raise RuntimeError("down")

    # An index is a title list, not exhaustive: its silence abstains unless it has a coverage.
    tf = resolve_term("information cascade flux", ctx, [Broken(), IndexSource(index_path), LexiconSource()])
    assert tf.known is None and tf.backed_by == [] and tf.sources_tried == ["broken", "index", "lexicon"]
    covered = [IndexSource(index_path, coverage=0.9), LexiconSource()]
    assert resolve_term("information cascade flux", ctx, covered).known is False
    # a source that raised may have backed it: no denial stands without it
    assert resolve_term("information cascade flux", ctx, [Broken(), *covered]).known is None
    # ...and only for a name-like candidate: a description is not what a title list holds.
    assert resolve_term("information cascade flux", ctx, covered, name_like=False).known is None
    assert resolve_term("information cascade flux", ctx, [LexiconSource()]).known is None
    assert resolve_term("nanorobotics", ctx, [IndexSource(index_path), LexiconSource()]).backed_by == ["index"]


def _input(query: str, sources: list[Any], documents: list[str] | None = None) -> tuple[CallContext, Any]:
    ctx = CallContext(query=query, documents=documents or [], knowledge_sources=sources)
    return ctx, UnknownTermsDetector().run(ctx)


def test_unknown_terms_detector_and_fabrication(index_path: Path) -> None:
    det = UnknownTermsDetector()
    assert isinstance(det, Detector) and det.stage == "input" and det.order == 60
    sources = [ContextSource(), IndexSource(index_path, coverage=0.9), LexiconSource()]
    ctx, res = _input("How does nanorobotics relate to Nano-Sync Fusion Technology?", sources)
    assert res.findings["unknown_terms"] == [T]
    assert [v.kind for v in res.verdicts] == ["unknown_term"]
    assert res.verdicts[0].severity.value == "warning"
    assert any(t.term.lower() == "nanorobotics" and t.known for t in res.terms)
    ctx.findings.update(res.findings)
    ctx.response = "Nano-Sync Fusion Technology lets nanorobots share one clock."
    out = FabricatedTermsDetector().run(ctx)
    assert [v.kind for v in out.verdicts] == ["fabricated_term"]
    assert out.verdicts[0].severity.value == "critical"
    assert out.answer_label == "hallucination"
    assert out.terms[0].acceptance == "MENTIONED"
    ctx.response = "I'm not familiar with Nano-Sync Fusion Technology. Could you share a source?"
    out = FabricatedTermsDetector().run(ctx)
    assert out.verdicts == [] and out.answer_label == "valid"


def test_context_backs_a_term(index_path: Path) -> None:
    sources = [ContextSource(), IndexSource(index_path), LexiconSource()]
    _, res = _input("Explain Nano-Sync Fusion Technology.", sources, ["Nano-Sync Fusion Technology is our product."])
    assert res.findings["unknown_terms"] == []


def test_undecided_without_denying_source() -> None:
    _, res = _input("Explain information cascade flux.", [ContextSource(), LexiconSource()])
    assert res.verdicts == []
    assert any(t.known is None for t in res.terms)


class _Judge:
    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def classify_terms(self, ctx: CallContext, terms: list[str]) -> Any:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize(
    ("judge", "kind", "by"),
    [
        (_Judge({T: "UNREAL"}), [], "judge"),
        (_Judge(RuntimeError("judge down")), ["fabricated_term"], "offline"),
        (_Judge(["not", "a", "dict"]), ["fabricated_term"], "offline"),
    ],
)
def test_optional_judge(judge: Any, kind: list[str], by: str) -> None:
    ctx = CallContext(query="q", response="Nano-Sync Fusion Technology syncs clocks.", judge=judge)
    ctx.findings = {"unknown_terms": [T]}
    out = FabricatedTermsDetector().run(ctx)
    assert [v.kind for v in out.verdicts] == kind
    assert out.findings["term_acceptance_by"] == by


def test_known_term_meaning_uses_glossary(tmp_path: Path) -> None:
    gl = tmp_path / "g.json"
    gl.write_text('{"Viral Load": "the quantity of virus in a given volume of blood or fluid"}', encoding="utf-8")
    ctx = CallContext(query="q", knowledge_sources=[GlossarySource(gl)])
    ctx.findings = {"unknown_terms": [], "known_terms": ["Viral Load"]}
    ctx.response = "Viral load measures the quantity of virus present in a volume of blood."
    assert FabricatedTermsDetector().run(ctx).answer_label == "valid"


def test_output_detector_without_response_or_terms() -> None:
    assert FabricatedTermsDetector().run(CallContext(query="q")).verdicts == []
    ctx = CallContext(query="q", response="text")
    assert FabricatedTermsDetector().run(ctx).findings == {}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=st.text(max_size=200), response=st.text(max_size=300))
def test_arbitrary_text_never_crashes(query: str, response: str) -> None:
    ctx = CallContext(query=query, knowledge_sources=[ContextSource(), LexiconSource()])
    res = UnknownTermsDetector().run(ctx)
    ctx.findings.update(res.findings)
    ctx.findings["unknown_terms"] = [*res.findings["unknown_terms"], "Zq-Flux", ""]
    ctx.response = response
    FabricatedTermsDetector().run(ctx)
    classify_terms(response, [query[:30] or "x"], context_terms=[response[:20]])


@pytest.mark.parametrize(
    ("answer", "refused"),
    [
        ("The Treaty of Westphalia is not a real treaty; nobody signed it.", True),
        ("The Treaty of Westphalia appears to be a fictional agreement.", True),
        ("The Treaty of Westphalia ended the Thirty Years' War in 1648.", False),
        ("I have no information about the Treaty of Westphalia.", False),  # UNKNOWN: irrelevant, not refused
    ],
)
def test_refusing_a_backed_term_is_flagged(index_path: Path, answer: str, refused: bool) -> None:
    # HypoTermQA: calling a valid term unreal is a hallucination (answer label), reported as refused_term.
    from faithguard.terms.detectors import REFUSED_TERM

    sources = [ContextSource(), IndexSource(index_path, coverage=0.9), LexiconSource()]
    query = "What did the Treaty of Westphalia settle?"
    found = UnknownTermsDetector(sources).run(CallContext(query=query)).findings
    assert found["known_terms"] == ["Treaty of Westphalia"]
    res = FabricatedTermsDetector(sources=sources).run(CallContext(query=query, response=answer, findings=found))
    kinds = [v.kind for v in res.verdicts]
    assert (REFUSED_TERM in kinds) is refused
    assert (res.answer_label == "hallucination") is refused
