"""Descriptions built from backed parts and names the request gives are not unknown terms (terms/compose.py).

Every sentence here was written for these tests; each rule has positive and negative fixtures.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from faithguard.detector import CallContext
from faithguard.nlp import parse
from faithguard.terms.compose import composed_reason, introduces_instance
from faithguard.terms.detectors import UnknownTermsDetector
from faithguard.terms.kbindex import TermIndex, build_index
from faithguard.terms.normalize import fold_accents
from faithguard.terms.sources import ContextSource, IndexSource, LexiconSource

#: Titles a tiny trusted index holds (the parts the fixtures below are built from).
BACKED = ["fermentation", "road trip", "sailboat", "side length", "news article", "character"]
BACKED += ["Xiaomi", "Europe", "Git", "Windows"]


def _reason(sentence: str, phrase: str, backed: list[str] | None = None) -> str | None:
    doc = parse(sentence)
    start = sentence.index(phrase)
    keys = {b.lower() for b in (BACKED if backed is None else backed)}
    return composed_reason(doc, start, start + len(phrase), phrase, lambda p: p.lower() in keys)


@pytest.mark.parametrize(
    ("sentence", "phrase"),
    [
        ("Plan a proper road trip along the coast.", "proper road trip"),  # common adjective
        ("Sell me a small sailboat today.", "small sailboat"),
        ("Find the volume from the given side length.", "given side length"),  # leading participle
        ("Write a 300-word news article about rain.", "word news article"),  # measure cut from a number
        ("Invent a super-powered character for my game.", "super-powered character"),  # hyphenated adjective
    ],
)
def test_descriptive_modifiers_over_a_backed_phrase(sentence: str, phrase: str) -> None:
    assert _reason(sentence, phrase) == "describes_backed"


@pytest.mark.parametrize(
    ("sentence", "phrase"),
    [
        ("Explain the quantoplexic sailboat design.", "quantoplexic sailboat"),  # rare adjective names
        ("How does the turbo-jump character move?", "turbo-jump character"),  # a noun compound names
        ("Plan a proper river cruise for us.", "proper river cruise"),  # remainder not backed
        ("How do cooks use velvet-fold fermentation today?", "velvet-fold fermentation"),  # hyphenated noun
    ],
)
def test_name_parts_are_not_dropped(sentence: str, phrase: str) -> None:
    assert _reason(sentence, phrase) is None


@pytest.mark.parametrize(
    ("sentence", "phrase"),
    [
        ("Compare the sales of Xiaomi in Europe last year.", "Xiaomi in Europe"),
        ("How do I set up Git in Windows?", "Git in Windows"),
    ],
)
def test_joined_backed_names(sentence: str, phrase: str) -> None:
    assert _reason(sentence, phrase) == "backed_parts"


def test_joined_names_with_an_unbacked_part_stay() -> None:
    assert _reason("How do I set up Zorbex in Windows?", "Zorbex in Windows") is None


@pytest.mark.parametrize(
    ("sentence", "phrase"),
    [
        ('Write an advert for a company called "Brisk and Bolt".', "Brisk and Bolt"),
        ("Describe a fictional island named Veloria in detail.", "Veloria"),
    ],
)
def test_names_the_request_gives(sentence: str, phrase: str) -> None:
    assert _reason(sentence, phrase, backed=[]) == "named_by_request"


def test_a_definite_called_phrase_is_still_checked() -> None:
    # "the technique called X" presupposes X exists: the user is not defining it.
    assert _reason("Explain the technique called Veloria Fusion in detail.", "Veloria Fusion", backed=[]) is None


@pytest.mark.parametrize(
    ("sentence", "phrase", "expected"),
    [
        ("Write a logic quiz for teenagers.", "logic quiz", True),
        ("Construct an ORM query for the table.", "ORM query", True),
        ("How does the logic quiz format work?", "logic quiz format", False),
        ("Explain information cascade flux in markets.", "information cascade flux", False),
    ],
)
def test_indefinite_phrases_introduce_an_instance(sentence: str, phrase: str, expected: bool) -> None:
    start = sentence.index(phrase)
    assert introduces_instance(parse(sentence), start, start + len(phrase)) is expected


def _detector(tmp_path: Path, titles: list[str]) -> UnknownTermsDetector:
    path = tmp_path / "kb.idx"
    build_index(titles, path)
    return UnknownTermsDetector([ContextSource(), IndexSource(path, coverage=0.9, max_words=3), LexiconSource()])


def test_detector_leaves_descriptions_undecided_and_flags_inventions(tmp_path: Path) -> None:
    det = _detector(tmp_path, ["road trip", "technique", "logic"])
    plain = det.run(CallContext(query="Plan a proper road trip for my family."))
    assert plain.findings["unknown_terms"] == []
    made = det.run(CallContext(query="Explain the turbo-jump technique in basketball."))
    assert made.findings["unknown_terms"] == ["turbo-jump technique"]
    quiz = det.run(CallContext(query="Write a logic quiz for teenagers."))
    assert quiz.findings["unknown_terms"] == []  # indefinite: an instance to make, not a named concept


def test_accents_fold_in_index_and_lookup(tmp_path: Path) -> None:
    assert fold_accents("damgård jurik") == "damgard jurik"
    assert fold_accents("łódź") == "lodz"
    path = tmp_path / "kb.idx"
    build_index(["Gödel's incompleteness theorems", "Damgard-Jurik cryptosystem"], path)
    with TermIndex(path) as idx:
        assert "Godel's incompleteness theorems" in idx  # stored folded at build time
        assert "Damgård–Jurik cryptosystem" in idx  # folded at lookup time
        assert "Damgård–Jurik protocol" not in idx


def test_a_word_the_lexicon_knows_is_not_a_name_to_describe(tmp_path: Path) -> None:
    # "X + ordinary head noun" describes X only when X is a name some title source holds ("Chinese handball
    # technique"); an adjective that only the frequency list knows ("heliotropic") names nothing.
    det = _detector(tmp_path, ["Chinese handball", "breathing", "technique"])
    coined = det.run(CallContext(query="What are the benefits of heliotropic breathing for runners?"))
    assert coined.findings["unknown_terms"] == ["heliotropic breathing"]
    named = det.run(CallContext(query="How is the Chinese handball technique taught?"))
    assert named.findings["unknown_terms"] == []


def _label(text: str, name: str) -> bool:
    from faithguard.terms.compose import layout_label

    start = text.index(name)
    return layout_label(text, start, start + len(name))


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("Intro.\n## Harvest Plan\nMore text.", "Harvest Plan", True),  # heading line
        ("Steps:\n1. Planning Stage\n2. Next", "Planning Stage", True),  # numbered entry
        ("Venue Address: 4 Elm Road\n", "Venue Address", True),  # label before a colon
        ("- Field Work (20%): two reports\n", "Field Work", True),  # label with an aside
        ("Look 1: Coastal Bloom\nText follows.", "Coastal Bloom", True),  # value of a label line
        ("| Start Date | End Date |\n", "Start Date", True),  # table cell
        ("Date: [Event Date]\n", "Event Date", True),  # placeholder
        ("Share it with #GreenCities today.", "GreenCities", True),  # hashtag
        ("ARTICLE ONE GRANT OF POWER applies.", "GRANT OF POWER", True),  # capitals
        ("The Harvest Plan reduces waste by half in most farms.", "Harvest Plan", False),  # prose
        ("Engineers rely on the Coastal Bloom Method: it is cheap.", "Coastal Bloom Method", False),
    ],
)
def test_layout_labels_are_not_claims(text: str, name: str, expected: bool) -> None:
    assert _label(text, name) is expected


def test_answer_side_skips_layout_and_people(tmp_path: Path) -> None:
    from faithguard.terms.detectors import FabricatedTermsDetector

    path = tmp_path / "kb.idx"
    build_index(["irrigation"], path)
    sources = [ContextSource(), IndexSource(path, coverage=0.9, max_words=3), LexiconSource()]
    det = FabricatedTermsDetector(sources=sources)
    query = "How should I plan irrigation?"
    layout = "## Watering Schedule\nWater early.\n\nSoil Check: weekly\n"
    res = det.run(CallContext(query=query, response=layout))
    assert res.findings.get("introduced_terms", []) == []
    made = "Use the Harmonic Drip Principle, which pulses water in waves to stop runoff."
    res = det.run(CallContext(query=query, response=made))
    assert res.findings["introduced_terms"] == ["Harmonic Drip Principle"]
