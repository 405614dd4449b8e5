"""``TreeMatcher`` (node tests on arrays) gives exactly spaCy's ``DependencyMatcher`` output, order included.

Checked on every spec set of the package (the input checks' syntax specs, the role/persona specs, the scope
specs, the language-request specs), on texts written for this test and on generated ones; and on patterns whose
tests the array path does not take (spaCy's own step must then run).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.nlp import get_nlp, parse, tree_matches

#: Written for this test: first-person subjects and possessives, demonstratives, questions, passives, relative
#: clauses, imperatives, a role line, a language request and plain narrative.
_TEXTS = [
    "I wrote a short story and I want you to check the grammar.",
    "We attached our quarterly figures below; please compare them with last year's.",
    "Can you summarise these notes for my manager?",
    "You are a careful editor. Rewrite this paragraph in French.",
    "The report that my team prepared was reviewed by the board.",
    "Please answer in Spanish and keep it under fifty words.",
    "Here is my cover letter. What do you think of it?",
    "The river flooded the valley, and the farmers moved their sheep to higher ground.",
    "Is the draft I sent yesterday any good?",
    "Translate the following sentence into German: the train leaves at noon.",
    "Describe how our new policy affects the customers who signed up last month.",
    "She was promoted after the project was finished.",
]

_WORDS = [
    "i",
    "we",
    "you",
    "my",
    "our",
    "this",
    "these",
    "the",
    "a",
    "report",
    "draft",
    "essay",
    "summarise",
    "check",
    "rewrite",
    "send",
    "attached",
    "below",
    "please",
    "is",
    "was",
    "are",
    "can",
    "what",
    "how",
    "why",
    "and",
    "but",
    "in",
    "to",
    "of",
    "for",
    "with",
    "French",
    "letter",
    "team",
    "yesterday",
    "it",
    "them",
]


def _reference(matcher: Any) -> Any:
    """spaCy's own DependencyMatcher holding the same patterns under the same keys, in the same order."""
    from spacy.matcher import DependencyMatcher

    ref = DependencyMatcher(matcher.vocab)
    for key, patterns in matcher._raw_patterns.items():
        ref.add(key, patterns)
    return ref


def _package_matchers() -> dict[str, Any]:
    from faithguard.engine import content, language_request, scope
    from faithguard.inputs import syntax

    vocab = get_nlp().vocab
    return {
        "inputs.syntax": syntax._matcher(vocab)[0],
        "engine.content": content._matcher(),
        "engine.scope": scope._matcher(),
        "engine.language_request": language_request._matcher(vocab)[1],
    }


def _same(matcher: Any, text: str) -> None:
    doc = parse(text)
    assert tree_matches(matcher, doc) == tree_matches(_reference(matcher), doc), text


@pytest.mark.parametrize("name", ["inputs.syntax", "engine.content", "engine.scope", "engine.language_request"])
def test_every_spec_set_matches_as_spacy_does(name: str) -> None:
    matcher = _package_matchers()[name]
    assert matcher._node_plan() is not None, "the package's specs should all take the array path"
    ref = _reference(matcher)
    found = 0
    for text in [*_TEXTS, " ".join(_TEXTS)]:
        doc = parse(text)
        ours = tree_matches(matcher, doc)
        assert ours == tree_matches(ref, doc), text
        found += len(ours)
    assert found > 0 or name != "inputs.syntax"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=40), st.sampled_from([".", "?", "!", ""]))
def test_generated_texts_match_as_spacy_does(words: list[str], end: str) -> None:
    text = " ".join(words) + end
    for matcher in _package_matchers().values():
        _same(matcher, text)


def _one(attrs: dict[str, Any]) -> Any:
    from faithguard.nlp_tree import TreeMatcher

    m = TreeMatcher(get_nlp().vocab)
    m.add(
        "p",
        [
            [
                {"RIGHT_ID": "verb", "RIGHT_ATTRS": {"POS": "VERB"}},
                {"LEFT_ID": "verb", "REL_OP": ">", "RIGHT_ID": "arg", "RIGHT_ATTRS": attrs},
            ]
        ],
    )
    return m


@pytest.mark.parametrize(
    "attrs",
    [
        {"DEP": "dobj"},
        {"DEP": {"IN": ["nsubj", "dobj"]}, "LOWER": {"NOT_IN": ["it"]}},
        {"MORPH": {"IS_SUPERSET": ["Person=1", "PronType=Prs"]}},
        {"IS_TITLE": True, "POS": {"IN": ["PROPN", "NOUN"]}},
        {"IS_ALPHA": False},
        {},
    ],
)
def test_array_tests_agree_with_spacy(attrs: dict[str, Any]) -> None:
    m = _one(attrs)
    assert m._node_plan() is not None
    for text in _TEXTS:
        _same(m, text)


@pytest.mark.parametrize(
    "attrs",
    [{"LENGTH": {">=": 4}}, {"TEXT": {"REGEX": "^[a-z]+s$"}}, {"ENT_TYPE": "PERSON"}, {"LOWER": {"FUZZY": "lettr"}}],
)
def test_other_tests_fall_back_to_spacy(attrs: dict[str, Any]) -> None:
    m = _one(attrs)
    assert m._node_plan() is None
    for text in _TEXTS:
        _same(m, text)


def test_patterns_added_later_are_tested() -> None:
    m = _one({"DEP": "dobj"})
    doc = parse("We attached our figures and sent the letter.")
    before = tree_matches(m, doc)
    m.add(
        "q",
        [
            [
                {"RIGHT_ID": "verb", "RIGHT_ATTRS": {"POS": "VERB"}},
                {"LEFT_ID": "verb", "REL_OP": ">", "RIGHT_ID": "who", "RIGHT_ATTRS": {"DEP": "nsubj"}},
            ]
        ],
    )
    after = tree_matches(m, doc)
    assert len(after) > len(before)
    assert after == tree_matches(_reference(m), doc)


def test_unparsed_text_gets_spacys_error() -> None:
    m = _one({"DEP": "dobj"})
    doc = get_nlp().make_doc("We attached our figures.")
    with pytest.raises(ValueError, match="E155"):
        m(doc)


def test_a_removed_rule_is_not_tested_any_more() -> None:
    # the same number of nodes before and after: the node tests must still be rebuilt (review finding)
    from faithguard.nlp_tree import TreeMatcher

    m = TreeMatcher(get_nlp().vocab)
    doc = parse("The cat chased the dog.")
    m.add("a", [[{"RIGHT_ID": "x", "RIGHT_ATTRS": {"DEP": "nsubj"}}]])
    assert tree_matches(m, doc) == tree_matches(_reference(m), doc) != []
    m.remove("a")
    m.add("b", [[{"RIGHT_ID": "x", "RIGHT_ATTRS": {"DEP": "dobj"}}]])
    assert tree_matches(m, doc) == tree_matches(_reference(m), doc) != []
    m.remove("b")
    m.add("b", [[{"RIGHT_ID": "x", "RIGHT_ATTRS": {"DEP": "det"}}]])
    assert tree_matches(m, doc) == tree_matches(_reference(m), doc)


@pytest.mark.parametrize("wanted", [["PronType=Prs"], ["PronType=Dem"], ["PronType=Dem,Prs"], ["Number=Plur"]])
def test_a_feature_with_several_values_is_tested_as_spacy_does(wanted: list[str]) -> None:
    # "PronType=Prs,Dem" is two features to spaCy's matcher (review finding)
    m = _one({"MORPH": {"IS_SUPERSET": wanted}})
    doc = get_nlp()("They watched these cats run.")
    for tok in doc:
        if tok.lower_ in ("they", "these"):
            tok.set_morph("PronType=Prs,Dem|Number=Plur")
    assert m(doc) == _reference(m)(doc)


def test_heads_in_a_cycle_fall_back_to_spacys_climb() -> None:
    # a hand-built Doc whose heads loop (a -> b -> c -> a): pointer jumping never settles (review finding)
    from spacy.tokens import Doc

    from faithguard.nlp_tree import TreeMatcher

    doc = Doc(get_nlp().vocab, words=["a", "b", "c", "d"], heads=[1, 2, 0, 3], deps=["dep", "dep", "dep", "ROOT"])
    m = TreeMatcher(get_nlp().vocab)
    m.add("any", [[{"RIGHT_ID": "x", "RIGHT_ATTRS": {"DEP": "dep"}}]])
    assert m(doc) == _reference(m)(doc)


def test_text_of_a_doc_is_its_text_made_once() -> None:
    from faithguard.nlp import parse, text_of

    doc = parse("Fix this -- I think it's broken.\n\nThanks!")
    first = text_of(doc)
    assert first == doc.text and text_of(doc) is first  # read again without joining the tokens anew
