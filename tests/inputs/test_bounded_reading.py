"""Reading a request never costs more than linear time in its length (issue 16); what the bounds skip is not read.

Sentences written for this project. Timing is measured by ``make bench`` and the audits, not asserted here; these
pin what the bounds do.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.inputs import mention_context, references, syntax
from faithguard.inputs.word_tests import request_object
from faithguard.nlp import MAX_TREE_TOKENS, parse


def test_a_run_on_sentence_beyond_the_bound_is_not_matched() -> None:
    spec = syntax.load_specs()[0]
    text, _ = spec.positive[0]
    assert syntax._match(parse(text))  # an ordinary request sentence is read
    clause = text.rstrip(".!?")
    run_on = ", and ".join([clause[0].lower() + clause[1:]] * (MAX_TREE_TOKENS // 4 + 1)) + "."
    doc = parse(run_on)
    long = [s for s in doc.sents if len(s) > MAX_TREE_TOKENS]
    assert long  # the construction makes at least one sentence beyond the bound
    found = {i for offs in syntax._match(doc).values() for i in offs}
    assert not any(s.start_char <= i < s.end_char for s in long for i in found)


def test_the_sentence_prefix_is_whole_when_short_and_bounded_when_long() -> None:
    text = "Please translate the menu."
    sents = [(0, len(text))]
    pos = text.index("the menu")
    assert mention_context.sentence_prefix(text, sents, pos) == "Please translate "
    assert request_object(mention_context.sentence_prefix(text, sents, pos))
    long_text = "word " * 60 + "according to the report"
    pos = long_text.index("the report")
    prefix = mention_context.sentence_prefix(long_text, [(0, len(long_text))], pos)
    assert len(prefix) <= mention_context.PREFIX_CHARS + 2
    assert references._CITED_BEFORE.search(prefix)  # a citing phrase right before the noun is still read
    assert not request_object(prefix)  # the opening verb is far back: no request object


def test_an_opening_word_far_back_does_not_match_mid_sentence() -> None:
    text = "Given " + "x " * 60 + "the figures"
    pos = text.index("the figures")
    assert not references._CITED_BEFORE.search(mention_context.sentence_prefix(text, [(0, len(text))], pos))


def _introduced_by_scan(noun: str, masked: str, at: int) -> bool:
    """The reference: walk every earlier word (what ``introduced_earlier`` did before its word index)."""
    import re

    from faithguard.inputs import discourse as d

    sents = d.sentences(masked[:at])
    for wm in d._WORD_RE.finditer(masked, 0, at):
        if not d._same_noun(wm.group(), noun):
            continue
        start = max(d.sentence_of(sents, wm.start())[0], wm.start() - d.CLAUSE_CHARS)
        clause = re.split(r"[,;:]", masked[start : wm.start()])[-1]
        before = [w.lower() for w in d._WORD_RE.findall(clause)][-4:]
        if any(w in d._DEFINITE_BEFORE or d.POSSESSIVE.search(w) for w in before) and not d._ordered_object(before):
            continue
        if d._FIRST_PERSON_RE.search(masked[start : wm.start()]):
            continue
        return True
    return False


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["two", "jokes", "the", "joke", "I", "have", "my", "write", ",", ".", "essays", "an"]),
        max_size=30,
    )
)
def test_the_word_index_reads_earlier_mentions_as_the_scan_did(words: list[str]) -> None:
    from faithguard.inputs.discourse import introduced_earlier

    masked = " ".join(words) + " the jokes"
    at = len(masked) - len("the jokes")
    assert introduced_earlier("jokes", masked, at) == _introduced_by_scan("jokes", masked, at)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.sampled_from(["two", "jokes", "the", "joke", "I", "have", "my", "write", ",", ".", "essays", "an", "\n"]),
        max_size=40,
    )
)
def test_introductions_read_once_answer_every_position_as_the_scan_did(words: list[str]) -> None:
    import re

    from faithguard.inputs.discourse import introduced_earlier

    masked = " ".join(words) + " the jokes"
    for m in re.finditer(r"\S+", masked):
        assert introduced_earlier("jokes", masked, m.start()) == _introduced_by_scan("jokes", masked, m.start())


_PIECES = [
    "write",
    "a",
    "an",
    "another",
    "poem",
    "report",
    "essay",
    "and",
    "then",
    "make",
    "please",
    "the",
    ",",
    ".",
    "3",
]


def _text_and_cuts(words: list[str]) -> tuple[str, list[int]]:
    text = (" ".join(words) + " the end").replace(" ,", ",").replace(" .", ".")  # marks close up: "poem, and"
    return text, [i for i in range(1, len(text) + 1) if text[i - 1] == " "]  # cuts after a space, as references stand


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_a_creation_opening_read_once_answers_every_cut_as_the_scan_did(words: list[str]) -> None:
    from faithguard.inputs import discourse

    text, cuts = _text_and_cuts(words)
    for k in cuts:
        assert discourse.opens_creation(text, k) == (discourse._CREATION_OPENING.search(text[:k]) is not None)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_the_coordinated_verb_found_in_the_last_words_is_the_one_the_whole_search_finds(words: list[str]) -> None:
    from faithguard.inputs import discourse

    text, cuts = _text_and_cuts(words)
    for k in cuts:
        before = text[:k]
        tail = before.rsplit(None, 4)
        bounded = discourse._COORDINATED_VERB.search(before, len(tail[0]) if len(tail) == 5 else 0)
        whole = discourse._COORDINATED_VERB.search(before)
        assert (bounded and bounded.span()) == (whole and whole.span())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_the_first_indefinite_mention_answers_every_cut_as_the_scan_did(words: list[str]) -> None:
    import re

    text, cuts = _text_and_cuts(words)
    forms = ("report", "essay")
    scan_re = re.compile(r"\b(?:a|an|another)\s+(?:[\w'’-]+\s+){0,3}?(?:report|essay)\b", re.I)
    first = mention_context._first_indefinite_end(forms, text)
    for k in cuts:
        assert (first is not None and first <= k) == (scan_re.search(text[:k]) is not None)
