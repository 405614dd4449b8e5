"""The acceptance reader parses only the sentences a cue can reach (fixtures written here, none from a dev set)."""

from __future__ import annotations

import pytest

import faithguard.nlp as nlp
from faithguard.terms.acceptance import classify_terms

FILLER = " ".join("Tides follow the moon each day and night." for _ in range(12))


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    texts: list[str] = []
    real = nlp.parse_answer

    def counting(text: str, *, ner: bool = True) -> object:
        texts.append(text)
        return real(text, ner=ner)

    monkeypatch.setattr(nlp, "parse_answer", counting)
    return texts


def test_a_direct_refusal_in_a_long_answer_parses_only_its_neighbourhood(parsed: list[str]) -> None:
    answer = f"{FILLER} The Quorvel Drift is not a real principle. {FILLER}"
    assert classify_terms(answer, ["Quorvel Drift"]) == {"Quorvel Drift": "UNREAL"}
    assert len(parsed) == 1 and "not a real principle" in parsed[0] and len(parsed[0]) < len(answer) / 3


def test_a_pronoun_two_sentences_on_still_reaches_the_term(parsed: list[str]) -> None:
    answer = "People cite the Quorvel Drift. Blogs repeat the claim. However, it does not exist."
    assert classify_terms(answer, ["Quorvel Drift"]) == {"Quorvel Drift": "UNREAL"}


def test_a_cue_out_of_reach_of_every_mention_is_not_parsed(parsed: list[str]) -> None:
    answer = f"The Quorvel Drift moves sand. {FILLER} Some say unicorns do not exist."
    assert classify_terms(answer, ["Quorvel Drift"]) == {"Quorvel Drift": "MENTIONED"}
    assert parsed == []


def test_windows_read_as_the_whole_parse_does() -> None:
    answers = [
        f"{FILLER} The Quorvel Drift is not a real principle. {FILLER}",
        "People cite the Quorvel Drift. Blogs repeat the claim. However, it does not exist.",
        "I couldn't find the Zentrova Index, but the Quorvel Drift is a documented effect.",
        f"The Quorvel Drift moves sand. {FILLER} I'm not familiar with the Zentrova Index.",
    ]
    terms = ["Quorvel Drift", "Zentrova Index"]
    for answer in answers:
        whole = nlp.parse_answer(answer, ner=False)
        assert classify_terms(answer, terms) == classify_terms(answer, terms, doc=whole), answer


def test_list_lines_without_marks_do_not_count_as_sentences() -> None:
    answers = [
        "Quorvel Drift\n- fast\n- cheap\n- green\n- clean\nIt does not exist.",
        "I'm not aware of any\n- principle\n- law\n- theory\n- effect\ncalled the Quorvel Drift.",
    ]
    for answer in answers:
        whole = nlp.parse_answer(answer, ner=False)
        assert classify_terms(answer, ["Quorvel Drift"]) == classify_terms(answer, ["Quorvel Drift"], doc=whole)
