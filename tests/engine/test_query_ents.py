"""Rule-based query entities (the spaCy NER pipe is skipped for requests)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.engine.decompose import decompose_text, parse_query
from faithguard.engine.query_ents import date_time_spans


def _dates(text: str) -> list[str]:
    return sorted(text[a:b] for a, b, label in date_time_spans(text) if label == "DATE")


def test_dates_periods_and_years() -> None:
    assert "the 18th century" in _dates("List poets before the 18th century.")
    assert "between 1900 and 1930" in _dates("Name films made between 1900 and 1930.")
    assert "the 1990s" in _dates("Songs from the 1990s")
    assert "the past 10 years" in _dates("Trends over the past 10 years")
    assert "2010" in _dates("Compare them since 2010.")
    assert "May 2020" in _dates("It opened in May 2020.")
    assert _dates("Write at least 1500 words. You may use 2000 characters.") == []
    assert _dates("May I ask you something?") == []


def test_clock_times_and_durations() -> None:
    labels = {(text[a:b], lab) for text in ["Meet at 5 pm for 30 minutes."] for a, b, lab in date_time_spans(text)}
    assert ("5 pm", "TIME") in labels and ("30 minutes", "TIME") in labels


def test_rule_entities_on_the_parse() -> None:
    doc = parse_query("Which European explorers sailed from Portugal to the Pacific Ocean after 1500 in JSON format?")
    ents = {(e.text, e.label_) for e in doc.ents}
    assert ("European", "NORP") in ents and ("Portugal", "GPE") in ents and ("Pacific Ocean", "LOC") in ents
    assert ("1500", "DATE") in ents
    assert not any(e.text == "JSON" for e in doc.ents)  # capitalised but not a place


def test_place_after_a_title_is_a_location() -> None:
    d = decompose_text("Write an essay about the President of the United States in the 1960s.")
    cats = {c.text: str(c.category) for c in d.constraints}
    assert cats.get("in the 1960s") == "time"
    assert any(cat == "location" and "United States" in text for text, cat in cats.items()), cats


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_date_spans_are_in_bounds(text: str) -> None:
    for a, b, label in date_time_spans(text):
        assert 0 <= a < b <= len(text) and label in {"DATE", "TIME"}


def test_entities_are_set_once_per_doc_and_stay_the_rules() -> None:
    from faithguard.engine.query_ents import _SET, set_rule_entities
    from faithguard.lexical import wordnet
    from faithguard.nlp import get_nlp

    wordnet.available()  # waits for the load: the mark is set only once WordNet's answers are final
    assert wordnet.settled()
    nlp = get_nlp()
    text = "Plan a trip from Seville to the Golden Gate Bridge on 4 July 2025 at 9 am."
    doc = nlp.make_doc(text)
    for name, proc in nlp.pipeline:
        if name != "ner":
            doc = proc(doc)
    assert not doc.user_data.get(_SET)  # negative: a fresh parse has no rule entities yet
    first = [(e.text, e.label_) for e in set_rule_entities(doc).ents]
    assert first and doc.user_data.get(_SET)  # positive: set, and marked
    doc.ents = []  # a second call on a marked Doc does not redo the work
    assert list(set_rule_entities(doc).ents) == []
    fresh = nlp.make_doc(text)
    for name, proc in nlp.pipeline:
        if name != "ner":
            fresh = proc(fresh)
    assert [(e.text, e.label_) for e in set_rule_entities(fresh).ents] == first
