"""The whole-answer parse kept for a call checked again is the parse ``parse_many`` gives."""

from __future__ import annotations

from faithguard import nlp


def _annotations(doc: object) -> list[tuple[str, str, str, str, str, str]]:
    return [(t.text, t.tag_, t.pos_, t.dep_, t.lemma_, t.ent_type_) for t in doc]  # type: ignore[attr-defined]


def test_a_short_answer_is_parsed_once_with_every_pipe() -> None:
    text = "Marie Curie moved to Paris in 1891 and studied physics at the Sorbonne."
    first = nlp.parse_answer(text)
    assert nlp.parse_answer(text) is first  # positive: kept
    assert _annotations(first) == _annotations(next(nlp.parse_many([text], exclude=())))
    assert any(t.ent_type_ for t in first)  # NER ran


def test_a_long_answer_is_not_kept(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(nlp, "ANSWER_PARSE_MAX_CHARS", 20)
    text = "Ada Lovelace wrote the first published program."
    assert nlp.parse_answer(text) is not nlp.parse_answer(text)  # negative: over the size, parsed each time


def test_the_cache_holds_a_bounded_number_of_answers() -> None:
    nlp.clear_parse_cache()
    for i in range(nlp.ANSWER_PARSE_CACHE_SIZE + 5):
        nlp.parse_answer(f"Answer number {i} names Rome.")
    assert len(nlp._answers) == nlp.ANSWER_PARSE_CACHE_SIZE
    nlp.clear_parse_cache()
    assert not nlp._answers


def test_a_parse_without_entities_is_completed_to_the_full_parse() -> None:
    nlp.clear_parse_cache()
    text = "Grace Hopper worked on the Harvard Mark I and later joined Remington Rand in Philadelphia."
    plain = nlp.parse_answer(text, ner=False)
    assert not plain.ents  # negative: the NER pipe did not run
    assert nlp.parse_answer(text, ner=False) is plain  # kept for the next reader that needs no entities
    full = nlp.parse_answer(text)
    assert full is not plain and not plain.ents  # the kept Doc is not changed under its readers
    assert _annotations(full) == _annotations(next(nlp.parse_many([text], exclude=())))
    assert [(t.text, t.tag_, t.dep_, t.head.i, t.lemma_) for t in plain] == [
        (t.text, t.tag_, t.dep_, t.head.i, t.lemma_) for t in full
    ]
    assert nlp.parse_answer(text, ner=False) is full  # the parse with entities serves both kinds of reader
    nlp.clear_parse_cache()


def test_a_reader_without_entities_shares_the_parse_with_entities() -> None:
    nlp.clear_parse_cache()
    text = "Rosalind Franklin studied at Newnham College in Cambridge."
    full = nlp.parse_answer(text)
    assert nlp.parse_answer(text, ner=False) is full
    assert nlp.parse_answer(text) is full
    nlp.clear_parse_cache()
