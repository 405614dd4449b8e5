"""The term checks read English only: words of another language are undecided, never unknown or fabricated.

Sentences written for these tests (terms/language.py's thresholds: MIN_LETTERS, OTHER_LANGUAGE_CONFIDENCE).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.terms.language import LanguageMap

GERMAN = (
    "Die Stadtverwaltung hat die Pläne für den neuen Radweg am Montag vorgestellt. "
    "Viele Anwohner begrüßen die Entscheidung, aber einige Händler fürchten um ihre Kundschaft. Danke!"
)
SPANISH = (
    "La Biblioteca Municipal abrirá una nueva sala de lectura para los niños del barrio. "
    "El Consejo Escolar aprobó el presupuesto durante la reunión del jueves."
)
MIXED = (
    "The Harbour Board opened the Quorvel Drift Terminal last spring. "
    "Its motto is written in French. La mer est notre maison et nous la protégeons chaque jour. "
    "Bravo! The terminal now serves the ferries to the northern islands. Nice."
)


def _at(text: str, word: str) -> str | None:
    return LanguageMap(text).other_language(text.index(word))


@pytest.mark.parametrize(
    ("text", "word", "expected"),
    [
        (GERMAN, "Stadtverwaltung", "de"),
        (GERMAN, "Anwohner", "de"),
        (GERMAN, "Danke", "de"),  # too short alone: the sentence before it
        (SPANISH, "Biblioteca", "es"),
        (SPANISH, "Consejo", "es"),
        (MIXED, "Quorvel", None),  # English sentences stay read
        (MIXED, "La mer", "fr"),  # a quoted French sentence is not
        (MIXED, "Bravo", "fr"),  # short: read as the sentence before it
        (MIXED, "Nice", None),  # short, after an English sentence
        ("Ok. " + SPANISH, "Ok", "es"),  # short and first: the nearest sentence after it
        ("Quorvel.", "Quorvel", None),
    ],
)
def test_a_sentence_in_another_language_is_not_read(text: str, word: str, expected: str | None) -> None:
    assert _at(text, word) == expected


def test_empty_text_is_read_as_nothing_else() -> None:
    assert LanguageMap("").other_language(0) is None


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300), at=st.integers(min_value=-5, max_value=400))
def test_any_text_and_position_gives_a_code_or_none(text: str, at: int) -> None:
    found = LanguageMap(text).other_language(at)
    assert found is None or (isinstance(found, str) and found != "en")


def test_a_german_answer_introduces_no_fabricated_terms() -> None:
    from faithguard import Guard

    guard = Guard(judge=None)
    report = guard.check("Describe the new bike lane plan in German.", GERMAN)
    assert [v for v in report.verdicts if v.kind == "fabricated_term"] == []
    unread = report.findings.get("introduced_unread")
    assert isinstance(unread, dict) and unread["by_language"].get("de", 0) >= 1  # said, not silent


def test_an_invented_name_in_an_english_answer_is_still_flagged() -> None:
    from faithguard import Guard

    guard = Guard(judge=None)
    answer = (
        "The new lane connects the station to the harbour. It was designed with the Quorvel Drift Method, "
        "which the city engineers use for every route."
    )
    report = guard.check("Describe the new bike lane plan.", answer)
    assert "Quorvel Drift Method" in [v.term for v in report.verdicts if v.kind == "fabricated_term"]


def test_a_german_request_gets_no_unknown_term_warnings() -> None:
    from faithguard import Guard

    guard = Guard(judge=None)
    report = guard.inspect(GERMAN)
    assert [v for v in report.verdicts if v.kind == "unknown_term"] == []
    assert all(t.known is not False for t in report.terms)  # undecided (or backed), never unknown
    assert report.findings["terms_unread"]["by_language"].get("de", 0) >= 1


def test_an_invented_term_in_an_english_request_is_still_unknown() -> None:
    from faithguard import Guard

    guard = Guard(judge=None)
    report = guard.inspect("How does the quantoplexic index affect stock prices?")
    assert any(v.kind == "unknown_term" for v in report.verdicts)


@pytest.mark.parametrize(
    ("text", "term", "expected"),
    [
        ("Var ligger stationen?", "Var ligger", "sv"),  # too short to identify surely, but ordinary Swedish words
        ("Co to znaczy?", "znaczy", "pl"),
        ("Qué pasa con Zorvantium?", "Zorvantium", None),  # an invented word is listed in no language
        ("How does the Cascade Drift work?", "Cascade Drift", None),  # an English text: no other language guessed
        # another language's ordinary word inside an English sentence: the word's own likeliest languages (session 19,
        # helper 96: "Anmeldung", "Steuererklärung" were unknown terms)
        ("Which documents do I need for the Krankenversicherung?", "Krankenversicherung", "de"),
        ("Is the Wohnung near the station?", "Wohnung", "de"),
        ("Is the Vexmorian protocol safe?", "Vexmorian", None),  # invented: listed in no language
    ],
)
def test_ordinary_words_of_a_short_texts_language_are_not_terms(text: str, term: str, expected: str | None) -> None:
    assert LanguageMap(text).foreign_words(term, text.index(term)) == expected


def test_a_short_request_in_another_language_gets_no_unknown_term() -> None:
    from faithguard import Guard

    report = Guard(judge=None).inspect("Var ligger stationen?")
    assert [v for v in report.verdicts if v.kind == "unknown_term"] == []
    assert report.findings["terms_unread"]["by_language"] == {"sv": 1}


@pytest.mark.parametrize(
    ("term", "language", "expected"),
    [
        ("Trevolan Index", "es", True),  # composed with an English word: an English name, judged
        ("Pemsworth Cascade Protocol", "fr", True),
        ("Stadtbibliothek Trevolan", "de", False),  # no English word in it
        ("Biblioteca Trevolan", "es", False),
    ],
)
def test_a_name_composed_with_an_english_word_is_read(term: str, language: str, expected: bool) -> None:
    assert LanguageMap.english_name(term, language) is expected


def test_an_invented_english_name_among_spanish_names_is_still_flagged() -> None:
    from faithguard import Guard

    answer = "Doña Ana de la Peña y Soto, Don Luis de Vega y Ortiz and the Trevolan Index board met in Toledo."
    report = Guard(judge=None).check("Who met in Toledo last week?", answer)
    assert "Trevolan Index" in " ".join(v.term or "" for v in report.verdicts if v.kind == "fabricated_term")
