"""Dependency patterns matched in bounded pieces (issue 16): the same matches as one call over the whole text,
for texts whose sentences are within the bound; a run-on sentence beyond it is not read.

Sentences written for this project; the pattern (a verb and its direct object) is defined here.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.nlp import CHUNK_TOKENS, MAX_TREE_TOKENS, get_nlp, parse, tree_matches

_SENTENCES = [
    "Paint the fence before lunch.",
    "The cat slept.",
    "Please water the plants and feed the fish.",
    "We watched a film about glaciers, then cooked dinner.",
    "Is it raining?",
    "Bring two chairs to the garden!",
]


def _matcher() -> Any:
    from spacy.matcher import DependencyMatcher

    m = DependencyMatcher(get_nlp().vocab)
    m.add(
        "verb_object",
        [
            [
                {"RIGHT_ID": "verb", "RIGHT_ATTRS": {"POS": "VERB"}},
                {"LEFT_ID": "verb", "REL_OP": ">", "RIGHT_ID": "object", "RIGHT_ATTRS": {"DEP": "dobj"}},
            ]
        ],
    )
    return m


def _whole(matcher: Any, doc: Any) -> list[tuple[int, list[int]]]:
    return sorted((mid, list(ids)) for mid, ids in matcher(doc))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_SENTENCES), min_size=1, max_size=120))
def test_pieces_find_what_one_whole_call_finds(sentences: list[str]) -> None:
    doc = parse(" ".join(sentences))
    if any(len(s) > MAX_TREE_TOKENS for s in doc.sents):
        return
    matcher = _matcher()
    assert sorted(tree_matches(matcher, doc)) == _whole(matcher, doc)


def test_a_long_text_is_read_in_pieces_with_every_match_kept() -> None:
    doc = parse(" ".join(_SENTENCES * 40))
    assert len(doc) > 3 * CHUNK_TOKENS
    matcher = _matcher()
    found = tree_matches(matcher, doc)
    assert sorted(found) == _whole(matcher, doc)
    assert {doc[ids[1]].text for _, ids in found} >= {"fence", "plants", "fish", "film", "chairs"}


def test_a_run_on_sentence_beyond_the_bound_is_skipped_and_its_neighbours_read() -> None:
    run_on = ", ".join(["paint the fence"] * (MAX_TREE_TOKENS // 3 + 1))
    doc = parse(f"Water the plants. {run_on}. Feed the fish.")
    assert any(len(s) > MAX_TREE_TOKENS for s in doc.sents)
    objects = [doc[ids[1]].text for _, ids in tree_matches(_matcher(), doc)]
    assert objects == ["plants", "fish"]


def test_an_empty_text_has_no_matches() -> None:
    assert tree_matches(_matcher(), parse("")) == []
