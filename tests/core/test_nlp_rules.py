"""The attribute ruler matched by look-up gives spaCy's Matcher's matches, so every annotation is unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spacy.pipeline.attributeruler import AttributeRuler

from faithguard.nlp import get_nlp
from faithguard.nlp_rules import index_attribute_ruler, index_lemma_tables


def _before_ruler(text: str) -> Any:
    """The Doc as the attribute ruler receives it (tagged and parsed, not yet ruled)."""
    nlp = get_nlp()
    doc = nlp.make_doc(text)
    for name, proc in nlp.pipeline:
        if name == "attribute_ruler":
            break
        doc = proc(doc)
    return doc


def _both(text: str) -> tuple[list[Any], list[Any]]:
    ruler = get_nlp().get_pipe("attribute_ruler")
    doc = _before_ruler(text)
    return sorted(set(AttributeRuler.match(ruler, doc))), ruler.match(doc)


def test_the_shared_pipeline_uses_the_index() -> None:
    assert "match" in vars(get_nlp().get_pipe("attribute_ruler"))


# Written for the pattern kinds the model ships: two-token patterns ("ai" + "n't", "gon" + "na", "y'" + "all"),
# regex ("nothin'"), dependency tests (object pronouns, expletive "there"), white space, plain tag-map rows.
@pytest.mark.parametrize(
    "text",
    [
        "It ain't over, y'all, and we're gonna win.",
        "There is nothin' left; there are two cats.",
        "She gave it to me and I thanked you for it.",
        "Did you do it?  \n\n  Yes, he has had enough.",
        "Which do you want? That is the one I gave him.",
        "Not now: it isn't, I'm sure, and they've gone.",
        "",
        "   ",
    ],
)
def test_matches_equal_the_matchers(text: str) -> None:
    by_matcher, by_index = _both(text)
    assert by_index == by_matcher


def test_a_text_with_exceptions_has_exception_matches() -> None:
    # positive: the two-token "gon na" rule fires at both of its tokens' patterns
    ruler = get_nlp().get_pipe("attribute_ruler")
    doc = _before_ruler("We are gonna go.")
    spans = {(s, e) for _, _, s, e in ruler.match(doc)}
    assert any(e - s == 2 for s, e in spans)
    # negative: no two-token rule fires on plain text
    doc = _before_ruler("We are going to go.")
    assert all(e - s == 1 for _, _, s, e in ruler.match(doc))


def test_annotations_after_the_ruler_are_the_matchers() -> None:
    nlp = get_nlp()
    ruler = nlp.get_pipe("attribute_ruler")
    text = "Y'all ain't seen nothin' yet, so there is more. Give it to them!"
    indexed = ruler(_before_ruler(text))
    plain = _before_ruler(text)
    ruler.set_annotations(plain, AttributeRuler.match(ruler, plain))
    assert [(t.pos_, t.tag_, t.lemma_, str(t.morph), t.dep_) for t in indexed] == [
        (t.pos_, t.tag_, t.lemma_, str(t.morph), t.dep_) for t in plain
    ]


def test_a_pattern_it_cannot_read_leaves_the_matcher() -> None:
    import spacy

    nlp = spacy.blank("en")
    ruler: Any = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"ORTH": "x"}]], {"LEMMA": "ex"})  # ORTH is not among the attributes it reads
    assert index_attribute_ruler(nlp) is False
    assert "match" not in vars(ruler)
    readable = spacy.blank("en")
    readable_ruler: Any = readable.add_pipe("attribute_ruler")
    readable_ruler.add([[{"LOWER": "x"}]], {"LEMMA": "ex"})
    assert index_attribute_ruler(readable) is True


_WORDS = st.sampled_from(
    [
        "the",
        "a",
        "is",
        "are",
        "was",
        "ai",
        "n't",
        "gon",
        "na",
        "y'",
        "all",
        "nothin'",
        "there",
        "it",
        "you",
        "i",
        "him",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "not",
        "'s",
        "'re",
        "cat",
        "run",
        "ran",
        "Paris",
        "quickly",
        "that",
        "which",
        "if",
        "because",
        "to",
        "of",
        ",",
        ".",
        "?",
        "!",
        "\n",
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_WORDS, max_size=40), st.text(max_size=40))
def test_any_text_gets_the_matchers_matches(words: list[str], noise: str) -> None:
    by_matcher, by_index = _both(" ".join(words) + " " + noise)
    assert by_index == by_matcher


# -- lemmatizer: known lemmas tested in sets ------------------------------------------------------------------


def _lemmas(text: str) -> list[str]:
    nlp = get_nlp()
    nlp.get_pipe("lemmatizer").cache.clear()  # lemmas of earlier texts must not answer for this one
    return [t.lemma_ for t in nlp(text)]


def _lemmas_with_lists(text: str) -> list[str]:
    """The lemmas spaCy's own list-backed ``lemma_index`` gives (the table restored afterwards)."""
    table = get_nlp().get_pipe("lemmatizer").lookups.get_table("lemma_index")
    saved = dict(table.items())
    try:
        for key, forms in saved.items():
            table[key] = sorted(forms)
        return _lemmas(text)
    finally:
        for key, forms in saved.items():
            table[key] = forms


def test_the_shared_pipeline_tests_lemmas_in_sets() -> None:
    table = get_nlp().get_pipe("lemmatizer").lookups.get_table("lemma_index")
    assert table and all(isinstance(forms, frozenset) for forms in table.values())


def test_a_pipeline_without_a_rule_lemmatizer_is_left_alone() -> None:
    import spacy

    assert index_lemma_tables(spacy.blank("en")) is False


# Written for the lemmatizer's paths: regular and irregular inflection (exceptions), rule forms in and out of the
# index ("running" -> "run", "geese" -> "goose"), base forms, proper nouns, numbers, punctuation, unknown words.
@pytest.mark.parametrize(
    "text",
    [
        "The geese were running faster than the mice had flown.",
        "She sang; they've been singing better songs since 1999.",
        "Zorblaxes glorped the frimbled wugs quickly.",
        "Paris's oldest bridges span the Seine's widest bends!",
        "",
    ],
)
def test_lemmas_equal_the_list_backed_lemmatizers(text: str) -> None:
    assert _lemmas(text) == _lemmas_with_lists(text)


def test_inflected_forms_still_reach_their_lemmas() -> None:
    # positive and negative: a known lemma is found through the set; a form that is not a word keeps itself
    text = "The geese were running to the zorblaxes"
    lemmas = dict(zip(text.split(), _lemmas(text), strict=True))
    assert (lemmas["geese"], lemmas["running"], lemmas["were"]) == ("goose", "run", "be")
    assert lemmas["zorblaxes"] in {"zorblaxe", "zorblax", "zorblaxes"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_WORDS, max_size=30))
def test_any_text_gets_the_list_backed_lemmas(words: list[str]) -> None:
    text = " ".join(words)
    assert _lemmas(text) == _lemmas_with_lists(text)
