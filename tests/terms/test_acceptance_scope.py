"""Acceptance cues must govern the term they label: one fixture table per misread class (issue 12).

Every answer was written for its class here; none is copied from an evaluation set.
"""

from __future__ import annotations

import pytest

from faithguard.terms.acceptance import classify_terms

# (class, answer, {term: expected label})
CASES = [
    # A cue word that is part of a term's own name is not a cue.
    ("cue_inside_name", "A pump fake can pull a defender off his feet.", {"pump fake": "MENTIONED"}),
    ("cue_inside_name", "The fake punt worked because the gunner stayed wide.", {"fake punt": "MENTIONED"}),
    ("cue_inside_name", "The Zellow Pivot is a fake move that no coach teaches.", {"Zellow Pivot": "UNREAL"}),
    # A refusal of one term does not leak to the other term of the sentence.
    (
        "no_leak",
        "I couldn't find anything on the Varnette Loop, but the Krebs cycle releases stored energy.",
        {"Varnette Loop": "UNKNOWN", "Krebs cycle": "MENTIONED"},
    ),
    (
        "no_leak",
        "The pump fake is a basketball move; the Glimmer Hop isn't a recognised term.",
        {"pump fake": "MENTIONED", "Glimmer Hop": "UNREAL"},
    ),
    # "X, however, isn't a recognised term": the parenthetical stays inside X's clause.
    (
        "parenthetical",
        "Osmosis is well understood. The Helix Drift Model, however, isn't a recognised term.",
        {"Osmosis": "MENTIONED", "Helix Drift Model": "UNREAL"},
    ),
    (
        "parenthetical",
        "The Helix Drift Model, on the other hand, is not a recognised concept in physics.",
        {"Helix Drift Model": "UNREAL"},
    ),
    ("parenthetical", "Osmosis, however, moves water across a membrane.", {"Osmosis": "MENTIONED"}),
    # "made-up" and "fictional" say the term is not real (UNREAL), not that it is unknown.
    ("unreal_adjective", "The Brellick Constant appears to be made-up.", {"Brellick Constant": "UNREAL"}),
    ("unreal_adjective", "The Brellick Constant is a fictional concept.", {"Brellick Constant": "UNREAL"}),
    ("unreal_adjective", "The Brellick Constant is not a made-up idea.", {"Brellick Constant": "MENTIONED"}),
]


@pytest.mark.parametrize(("cls", "answer", "expected"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_scoped_cue(cls: str, answer: str, expected: dict[str, str]) -> None:
    assert classify_terms(answer, list(expected)) == expected, cls


def test_every_class_has_a_negative() -> None:
    by_class: dict[str, set[str]] = {}
    for cls, _, expected in CASES:
        by_class.setdefault(cls, set()).update(expected.values())
    assert all("MENTIONED" in labels for labels in by_class.values()), by_class
