"""The shared parse reads bounded text in bounded time (issue 16): long runs of non-blanks are cut for the tokenizer,
and a request past the parse's limits makes each check that reads it undetermined instead of reading past its budget.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard import CallContext, DetectorResult, Guard, InputError, InputTooLarge
from faithguard.nlp import MAX_RUN_CHARS, PARSE_MAX_CHARS, PARSE_MAX_TOKENS, parse, readable, tokenizable

from .helpers import bare_guard

# Texts made of pieces a tokenizer meets: words, blanks, punctuation, and runs of one character of any length.
_PIECES = st.one_of(
    st.text(alphabet="ab :*\n", max_size=30),
    st.builds(lambda ch, n: ch * n, st.sampled_from("a:*=x. \n"), st.integers(0, 3 * MAX_RUN_CHARS)),
)
_TEXTS = st.lists(_PIECES, max_size=8).map("".join)


@settings(max_examples=200, deadline=None)
@given(_TEXTS)
def test_tokenizable_keeps_length_and_cuts_only_long_runs(text: str) -> None:
    out = tokenizable(text)
    assert len(out) == len(text)  # token offsets still index the caller's text
    assert all(len(run) <= MAX_RUN_CHARS for run in out.split())
    changed = [i for i, (a, b) in enumerate(zip(text, out, strict=True)) if a != b]
    assert all(out[i] == " " for i in changed)
    long_runs = [m.span() for m in re.finditer(rf"\S{{{MAX_RUN_CHARS + 1},}}", text)]
    assert all(any(a <= i < b for a, b in long_runs) for i in changed)
    if not long_runs:
        assert out == text


def test_a_long_run_reaches_the_tokenizer_in_pieces_and_offsets_still_index_the_text() -> None:
    text = "Read this: " + "q" * (3 * MAX_RUN_CHARS) + " and stop."
    doc = parse(text)
    assert max(len(t) for t in doc) <= MAX_RUN_CHARS
    assert doc.text == text  # readers of doc.text see the caller's characters, cut runs included
    assert all(text[t.idx : t.idx + len(t)] == t.text for t in doc)
    assert doc[-2].text == "stop" and text[doc[-2].idx :].startswith("stop")


def test_a_name_quoted_inside_a_long_run_is_still_read() -> None:
    # minified JSON: the cut of a long run fell on the quote before the name, and the term reader read doc.text
    query = 'Here is my config: {"mode":"' + "x" * 190 + '","engine":"Zorblaxion"} What does the engine setting do?'
    terms = [t.term for t in Guard(judge=None).inspect(query).terms]
    assert "Zorblaxion" in terms


def test_a_batch_parse_leaves_a_text_over_the_token_bound_to_parse_which_declines_it() -> None:
    import pickle

    from faithguard.nlp import parse_all

    over = "Zorvath said " + ":" * (PARSE_MAX_TOKENS + 10)
    parse_all([over, "Quellin said " + ";" * 10])
    with pytest.raises(InputTooLarge, match="tokens"):
        parse(over)  # not parsed and cached by the batch
    again = pickle.loads(pickle.dumps(InputTooLarge("the request", 30_000, 20_000)))
    assert isinstance(again, InputTooLarge) and again.size == 30_000 and "20000" in str(again)


def test_parse_declines_a_text_over_its_character_limit_with_sizes_only() -> None:
    text = "word " * (PARSE_MAX_CHARS // 5 + 1)
    with pytest.raises(InputTooLarge) as caught:
        parse(text)
    assert (
        str(caught.value)
        == f"the request is {len(text)} characters; this check reads at most {PARSE_MAX_CHARS} characters"
    )
    with pytest.raises(InputTooLarge):
        readable(text)
    readable(text[:PARSE_MAX_CHARS])  # at the limit: read


def test_parse_declines_a_text_over_its_token_limit() -> None:
    text = ": " * (PARSE_MAX_TOKENS + 1)  # short in characters, one token per colon
    assert len(text) <= PARSE_MAX_CHARS
    with pytest.raises(InputTooLarge, match="tokens"):
        parse(text)


def test_a_request_over_the_limit_is_undetermined_and_says_which_checks_could_not_read_it() -> None:
    guard = Guard(judge=None)
    marker = "Zebulon-Marker-Text"
    query = f"Summarize this article in three sentences. {marker} " + "The river runs east. " * 1_000
    assert len(query) > PARSE_MAX_CHARS
    report = guard.check(query, "It is about a river. It runs east. That is all.")
    assert report.outcome == "undetermined" and not report.perfect
    assert report.skipped  # the checks that read the request say why they did not
    assert all("reads at most" in why for why in report.skipped.values())
    assert any("reads at most" in reason for reason in report.undetermined)
    assert not report.errors  # declined, not failed
    assert marker not in repr(report.skipped) + repr(report.undetermined)
    # an ordinary request right after is read as usual
    ordinary = guard.check("List three rivers in Spain.", "The Ebro, the Tagus and the Douro.")
    assert not ordinary.skipped and ordinary.constraints


class _Declines:
    """A third-party detector whose input is over its own limit."""

    name = "declines"
    stage: Literal["input", "output"] = "output"
    order = 50

    def run(self, ctx: CallContext) -> DetectorResult:
        raise InputTooLarge("the answer", len(ctx.response or ""), 3)


def test_a_plugin_raising_input_too_large_makes_the_call_undetermined_not_failed() -> None:
    guard = bare_guard(extra=[_Declines()])
    answer = "Three museums in Paris: Orsay, Rodin, Picasso."  # every constraint of the static decomposition met
    assert bare_guard().check("Name three museums in Paris.", answer).outcome == "ok"
    report = guard.check("Name three museums in Paris.", answer)
    assert report.skipped == {"declines": "the answer is 46 characters; this check reads at most 3 characters"}
    assert "declines: the answer is 46 characters; this check reads at most 3 characters" in report.undetermined
    assert report.outcome == "undetermined" and not report.perfect and not report.errors


def test_inspect_of_a_request_over_the_limit_says_it_was_not_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An input report with no verdict must not read as clean when its checks declined the request."""
    from faithguard.cli import main

    query = "Summarize the attached report. " + "The river runs east. " * 1_000
    pre = Guard(judge=None).inspect(query)
    assert not pre.verdicts and not pre.errors
    assert pre.skipped and pre.undetermined and not pre.checked
    ordinary = Guard(judge=None).inspect("List three rivers in Spain.")
    assert ordinary.checked and not ordinary.skipped and not ordinary.undetermined
    path = tmp_path / "long.txt"
    path.write_text(query, encoding="utf-8")
    assert main(["inspect", "-q", f"@{path}", "--fail-on", "warning", "-f", "json"]) == 0  # no alarm fired
    assert main(["inspect", "-q", f"@{path}", "--fail-on", "unchecked", "-f", "json"]) == 4
    assert main(["inspect", "-q", "List three rivers in Spain.", "--fail-on", "unchecked", "-f", "json"]) == 0
    capsys.readouterr()


def test_an_answer_passage_over_the_token_bound_is_declined_not_parsed() -> None:
    from faithguard.nlp import parse_many

    blob = "=" * (PARSE_MAX_TOKENS * 2)  # a token per mark: twice the bound, in one "sentence"
    assert [len(doc) for doc in parse_many(["Fine words.", "=" * 100])] == [3, 100]  # a token per mark
    with pytest.raises(InputTooLarge, match="a passage of the answer"):
        list(parse_many(["Fine words.", blob]))
    report = Guard(judge=None).check("Summarise the attached article.", blob)
    assert not any(e.error_type == "timeout" for e in report.errors)  # it waited out its budget in the model
    assert report.outcome != "ok"


def test_an_answer_that_is_not_valid_text_is_refused_or_left_unscored() -> None:
    from faithguard import GuardedCall

    guard = Guard(judge=None)
    with pytest.raises(InputError, match="surrogate"):
        guard.check("List three rivers in Spain.", "The Ebro \ud800 and the Tagus.")
    call = GuardedCall(guard, query="List three rivers in Spain.")
    decision = call.after({"choices": [{"message": {"role": "assistant", "content": "Ebro \ud800"}}]})
    assert decision.report is not None and decision.report.outcome == "undetermined"
    assert any(r.startswith("unreadable_answer") for r in decision.report.undetermined)
    decision.report.model_dump_json()  # the report holds no unencodable text
    streamed = GuardedCall(guard, query="List three rivers in Spain.").after(text="Ebro \udfff")
    assert streamed.report is not None and streamed.report.outcome == "undetermined"
