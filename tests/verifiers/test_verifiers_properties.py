"""Property tests: arbitrary text never crashes detect() or verify()."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.models import Status
from faithguard.verifiers import VERIFIER_IDS, detect, verify

_PARAMS = {
    "keywords": ["a"],
    "keyword": "a",
    "frequency": 1,
    "relation": "at least",
    "forbidden_words": ["a"],
    "letter": "a",
    "let_frequency": 1,
    "let_relation": "at least",
    "language": "en",
    "num_sentences": 1,
    "num_paragraphs": 1,
    "num_words": 1,
    "nth_paragraph": 1,
    "first_word": "a",
    "num_placeholders": 1,
    "postscript_marker": "P.S.",
    "num_bullets": 1,
    "num_highlights": 1,
    "section_spliter": "Section",
    "num_sections": 1,
    "prompt_to_repeat": "a",
    "end_phrase": "a",
    "capital_frequency": 1,
    "capital_relation": "at least",
    "num_lines": 1,
    "num_stanzas": 1,
    "words": ["a"],
    "word": "a",
    "scheme": "AABB",
}
_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300) | st.sampled_from(
    ["", "***", "******", "<<>>", "```json\n{", "P.S.", "\n\n\n", "* * *", "[[]]", '"', "é" * 50]
)


@settings(max_examples=60, deadline=None)
@given(_TEXT)
def test_detect_never_crashes(text: str) -> None:
    for spec in detect(text):
        assert spec.verifier in VERIFIER_IDS
        assert isinstance(spec.params, dict)


@settings(max_examples=25, deadline=None)
@given(_TEXT)
def test_verify_never_crashes(text: str) -> None:
    for vid in VERIFIER_IDS:
        out = verify(vid, _PARAMS, text)
        assert out.status in (Status.SATISFIED, Status.VIOLATED, Status.UNKNOWN)


@settings(max_examples=30, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(sorted(_PARAMS)),
        st.none() | st.integers() | st.text(max_size=5) | st.lists(st.text(max_size=3), max_size=3),
    )
)
def test_verify_tolerates_bad_params(params: dict[str, object]) -> None:
    for vid in VERIFIER_IDS:
        verify(vid, params, "Some response, with words.")


def _sentence_span_by_scan(text: str, start: int, end: int | None = None) -> tuple[int, int]:
    """The reference: scan every sentence break from the start (what ``sentence_span`` did before it bisected)."""
    from faithguard.verifiers.spec import _SENT_END

    end = start if end is None else end
    left, right = 0, len(text)
    for m in _SENT_END.finditer(text):
        if m.end() <= start:
            left = m.end()
        elif m.start() >= end:
            right = m.start()
            break
    while left < right and text[left].isspace():
        left += 1
    while right > left and text[right - 1].isspace():
        right -= 1
    return left, right


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab .!?\n\t", max_size=60), st.data())
def test_sentence_span_by_bisection_equals_the_scan(text: str, data: st.DataObject) -> None:
    from faithguard.verifiers.spec import sentence_span

    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.one_of(st.none(), st.integers(start, len(text))))
    assert sentence_span(text, start, end) == _sentence_span_by_scan(text, start, end)
