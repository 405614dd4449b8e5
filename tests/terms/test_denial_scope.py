"""Sources say where they could deny a term, so the answer-name check parses only there (fixtures written here)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.detector import CallContext
from faithguard.terms import extract
from faithguard.terms.combine import may_deny
from faithguard.terms.detectors import FabricatedTermsDetector
from faithguard.terms.kbindex import build_index
from faithguard.terms.sources import ContextSource, GlossarySource, IndexSource, LexiconSource, WordNetSource

CTX = CallContext(query="")


class _Plain:
    """A third-party source built for the plain lookup protocol: it may deny anything."""

    name = "plain"

    def lookup(self, term: str, ctx: CallContext) -> bool | None:
        return False


class _Broken:
    name = "broken"

    def assess(self, term: str, ctx: CallContext, name_like: bool) -> object:
        raise AssertionError("not asked here")

    def may_deny(self, text: str) -> bool:
        raise RuntimeError("cannot tell")


def test_the_lexicon_may_deny_only_text_holding_an_unlisted_word() -> None:
    lex = LexiconSource()
    assert lex.may_deny("The Quorvelian Drift Principle explains tides.")
    assert lex.may_deny("Ask Zentrova's team.")  # the possessive form and the bare name are both read
    assert not lex.may_deny("The Treaty of Westphalia ended the war in 1648.")
    assert not lex.may_deny("Jean-Paul Sartre met O'Neill in New York.")


def test_sources_that_only_back_never_deny() -> None:
    for src in (ContextSource(), WordNetSource(), GlossarySource()):
        assert src.may_deny("The Quorvelian Drift Principle") is False


def test_an_exhaustive_glossary_and_a_covered_index_may_deny_anything(tmp_path: Path) -> None:
    listing = tmp_path / "terms.txt"
    listing.write_text("Calvin cycle\n", encoding="utf-8")
    assert GlossarySource(listing, exhaustive=True).may_deny("the river")
    assert not GlossarySource(listing).may_deny("the river")
    out = tmp_path / "kb.idx"
    build_index(["Calvin cycle"], out, coverage=0.8)
    assert IndexSource(out).may_deny("the river")
    assert not IndexSource(out, coverage=0.0).may_deny("the river")


def test_a_source_that_cannot_say_is_taken_to_deny() -> None:
    assert not may_deny([ContextSource(), LexiconSource()], "The Treaty of Westphalia.")
    assert may_deny([ContextSource(), _Plain()], "The Treaty of Westphalia.")  # type: ignore[list-item]
    assert may_deny([_Broken()], "The Treaty of Westphalia.")  # type: ignore[list-item]


def test_answer_names_are_parsed_only_where_a_source_could_deny(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []
    real = extract._names_of.__wrapped__

    def counting(text: str, regions: tuple[tuple[int, int], ...]) -> tuple[extract.Candidate, ...]:
        parsed.extend(text[s:e] for s, e in regions)
        return real(text, regions)

    monkeypatch.setattr(extract, "_names_of", counting)
    det = FabricatedTermsDetector(sources=[ContextSource(), LexiconSource()])
    q = "Why are spring tides higher?"
    known = "The Treaty of Westphalia is unrelated. Spring tides come when the Sun and the Moon line up."
    assert det.run(CallContext(query=q, response=known)).verdicts == []
    assert parsed == []
    made_up = "Spring tides follow the moon. The Quorvelian Drift Principle explains them."
    res = det.run(CallContext(query=q, response=made_up))
    assert [v.term for v in res.verdicts] == ["Quorvelian Drift Principle"]
    assert parsed == ["The Quorvelian Drift Principle explains them."]
    monkeypatch.setattr(extract, "_names_of", counting)
    parsed.clear()
    det_plain = FabricatedTermsDetector(sources=[ContextSource(), _Plain()])  # type: ignore[list-item]
    det_plain.run(CallContext(query=q, response=known))
    assert parsed  # a source that cannot say where it denies gets every name region read


_LETTERS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzQXZJK-' ", min_size=1, max_size=40)


@settings(max_examples=200, deadline=None)
@given(_LETTERS, st.integers(0, 40), st.integers(0, 40))
def test_a_term_cut_from_text_the_lexicon_calls_safe_is_never_denied(text: str, a: int, b: int) -> None:
    lex = LexiconSource()
    start, end = sorted((a % (len(text) + 1), b % (len(text) + 1)))
    # cut at word boundaries, as a candidate is (spaCy tokens never split a run of letters here)
    while 0 < start < len(text) and text[start - 1].isalpha() and text[start].isalpha():
        start -= 1
    while 0 < end < len(text) and text[end - 1].isalpha() and text[end].isalpha():
        end += 1
    term = text[start:end]
    if not lex.may_deny(text):
        assert lex.lookup(term, CTX) is not False


def test_a_subclass_that_changes_how_it_answers_is_not_taken_at_its_parents_word() -> None:
    class Denying(WordNetSource):
        def lookup(self, term: str, ctx: CallContext) -> bool | None:
            return False

    class DenyingAndSaysSo(Denying):
        def may_deny(self, text: str) -> bool:
            return "Quorvel" in text

    assert may_deny([Denying()], "The Treaty of Westphalia.")
    assert not may_deny([DenyingAndSaysSo()], "The Treaty of Westphalia.")
    assert may_deny([DenyingAndSaysSo()], "The Quorvel Drift.")


def test_digits_that_are_not_decimal_split_words_as_marks_do() -> None:
    assert LexiconSource().may_deny("Zorblaxian²") and LexiconSource().may_deny("ʼ²")
