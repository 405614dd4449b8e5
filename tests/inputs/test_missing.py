"""Missing-content detection: positives, hard negatives, follow-up classifier, robustness."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.detector import CallContext, Detector
from faithguard.inputs import FollowupDetector, MissingContentDetector, classify_followup
from faithguard.inputs.plugin import register_detectors
from faithguard.models import Message, Severity

TEXT = (
    "The harbour authority extended the ferry timetable after commuters petitioned for later crossings, "
    "and the first month showed ridership up by a fifth on weekday evenings."
)

DET = MissingContentDetector()

POSITIVES = [
    CallContext(query="Give me the gist of the report, please."),
    CallContext(query="Proofread this letter before I send it to the landlord."),
    CallContext(query="Check the attached invoice spreadsheet for errors."),
    CallContext(query="Summarise the passage below in two lines.\n\n"),
    CallContext(query="Which of the three memos is the most urgent?", documents=[TEXT]),
    CallContext(query="What is the conclusion of Document 2?", documents=[TEXT]),
    CallContext(query="Condense this for a tweet:\n{{ article_body }}"),
    CallContext(query="<doc></doc>\nWhat does the doc say about ferries?"),
    CallContext(query="Compare the essays.\n\nEssay 1: " + TEXT + "\n\nEssay 2:"),
    CallContext(query="Why did ridership rise?", system="Answer using only the provided context."),
]

NEGATIVES = [
    CallContext(query="Give me the gist of the report, please.", documents=[TEXT]),
    CallContext(query="Summarise the passage below in two lines.\n\n" + TEXT),
    CallContext(query="Which of the three memos is the most urgent?", documents=[TEXT, TEXT, TEXT]),
    CallContext(query="Compose a report about ferry ridership in Oslo."),
    CallContext(query="Who painted the Mona Lisa?"),
    CallContext(query="The following week, what changed for commuters?"),
    CallContext(query="What did the report of the Truth Commission recommend?"),
    CallContext(
        query="Summarize the article, keeping the numbers.", history=[Message(role="user", content="Article: " + TEXT)]
    ),
    CallContext(query="Why did ridership rise?", system="Answer using only the provided context.\n\nContext: " + TEXT),
    CallContext(query="How do I open the file in Python without loading it all?"),
]


@pytest.mark.parametrize("ctx", POSITIVES, ids=lambda c: c.query[:40])
def test_positives_fire(ctx: CallContext) -> None:
    res = DET.run(ctx)
    found = res.findings["missing_content"]
    assert found, ctx.query
    assert all({"reference", "expected", "found", "explanation"} <= set(f) for f in found)
    assert res.verdicts and all(v.kind == "missing_content" and v.severity is Severity.CRITICAL for v in res.verdicts)
    assert "?" in (res.clarification or "")


@pytest.mark.parametrize("ctx", NEGATIVES, ids=lambda c: c.query[:40])
def test_hard_negatives_stay_quiet(ctx: CallContext) -> None:
    res = DET.run(ctx)
    assert res.findings["missing_content"] == []
    assert res.verdicts == []


def test_counts_are_reported() -> None:
    res = DET.run(CallContext(query="Rank these four excerpts by tone.", documents=[TEXT, TEXT]))
    (finding,) = res.findings["missing_content"]
    assert finding["expected"] == 4 and finding["found"] == 2


def test_ordinal_index_resolved_by_label() -> None:
    q = "What does Article 2 add?\n\nArticle 1: " + TEXT + "\n\nArticle 2: " + TEXT
    assert DET.run(CallContext(query=q)).findings["missing_content"] == []


def test_patterns_only_mode_still_works() -> None:
    assert MissingContentDetector(use_parser=False).run(CallContext(query="Summarize the article.")).verdicts


def test_plugin_registers_both_stages() -> None:
    got: list[Detector] = []
    register_detectors(register=got.append)
    assert {(d.name, d.stage, d.order) for d in got} == {
        ("missing_content", "input", 50),
        ("missing_content_followup", "output", 120),
    }
    assert all(isinstance(d, Detector) for d in got)


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        ("You haven't shared the report yet. Could you paste it?", "asks"),
        ("I can't see any attachment in your message.", "asks"),
        ("Only two of the memos were included; please send the third.", "asks"),
        (
            "Nothing is missing from this argument: the report shows ridership climbed by a fifth in a month.",
            "proceeds",
        ),
        (
            "The report finds that later ferries raised evening ridership by twenty percent and recommends more.",
            "proceeds",
        ),
        ("Article 3 was not provided, so I'll assume it covers fares; it supports Article 1 on demand.", "proceeds"),
        ("OK.", "undecided"),
        ("Gladly. Send over the two drafts you mean and I will line them up side by side.", "asks"),
        ("Paste in the log text whenever you are ready; I will go through them one at a time.", "asks"),
        ("Send a reminder email to the tenants two days before the inspection, and attach the checklist.", "proceeds"),
    ],
)
def test_followup_classifier(response: str, decision: str) -> None:
    assert classify_followup(response)[0] == decision


def test_followup_detector_flags_proceeding_response() -> None:
    det = FollowupDetector()
    missing = [{"reference": "the report", "expected": 1, "found": 0, "explanation": "x"}]
    base = CallContext(query="Summarize the report.", findings={"missing_content": missing})
    base.response = "The report says ferry ridership grew after the timetable was extended into the evening hours."
    res = det.run(base)
    assert [v.kind for v in res.verdicts] == ["misinterpretation"]
    base.response = "Could you share the report? It wasn't attached."
    assert det.run(base).verdicts == []
    base.response = "Hm."
    res = det.run(base)
    assert res.verdicts == [] and res.findings["missing_content_followup"]["decision"] == "undecided"
    assert det.run(CallContext(query="q", response="anything at all here")).verdicts == []


@settings(max_examples=60, deadline=None)
@given(query=st.text(max_size=300), doc=st.text(max_size=200), system=st.text(max_size=120))
def test_never_crashes_on_arbitrary_text(query: str, doc: str, system: str) -> None:
    res = DET.run(CallContext(query=query, documents=[doc], system=system, history=[Message(role="user", content=doc)]))
    assert isinstance(res.findings["missing_content"], list)
    decision, _ = classify_followup(query)
    assert decision in ("asks", "proceeds", "undecided")


def test_judge_precheck_findings_are_merged_when_offline_finds_nothing() -> None:
    from faithguard.detector import CallContext
    from faithguard.inputs.missing import MissingContentDetector

    ctx = CallContext(query="What is the capital of France?")
    det = MissingContentDetector()
    assert det.run(ctx).verdicts == []
    ctx.findings["judge_missing_content"] = [{"reference": "the transcript", "expected": 1, "found": 0}]
    result = det.run(ctx)
    assert [v.kind for v in result.verdicts] == ["missing_content"]
    assert result.findings["missing_content"][0]["reference"] == "the transcript"
    assert "LLM judge" in result.verdicts[0].explanation


def test_short_statement_proceeds_short_question_is_undecided() -> None:
    from faithguard.inputs.followup import classify_followup

    assert classify_followup("The warranty period is two years from the date of purchase.")[0] == "proceeds"
    assert classify_followup("Which article?")[0] in ("asks", "undecided")
    assert classify_followup("Okay.")[0] == "undecided"


# A request naming the missing reference's own noun asks, whatever the noun (the noun comes from the findings).
@pytest.mark.parametrize(
    ("response", "refs", "decision"),
    [
        (
            "Glad to help! Kindly send the recipe card and tell me which step keeps failing for you.",
            ("the recipe card",),
            "asks",
        ),
        (
            "Of course. Could you share the tenancy agreement first, so I can quote the right clause back to you?",
            ("my tenancy agreement",),
            "asks",
        ),
        # the same response without the reference named: the noun alone is no ask
        ("Glad to help! Kindly send the recipe card and tell me which step keeps failing for you.", (), "proceeds"),
        # a proceeding answer that invites feedback names no missing reference
        (
            "The recipe works best with cold butter and a hot oven; bake it for twenty minutes. Please send feedback.",
            ("the recipe card",),
            "proceeds",
        ),
    ],
)
def test_followup_request_names_the_reference(response: str, refs: tuple[str, ...], decision: str) -> None:
    assert classify_followup(response, refs)[0] == decision


# A note of the gap that carries on past a contrast in the same sentence guesses: it proceeds.
@pytest.mark.parametrize(
    ("response", "decision"),
    [
        (
            "Without reading the lease I can't be sure, but most leases "
            "forbid pets unless the landlord agrees in writing.",
            "proceeds",
        ),
        (
            "I can't see the attached spreadsheet, though typically the north "
            "region has the thinnest margins in such data.",
            "proceeds",
        ),
        # a note followed by a request asks
        (
            "I can't see the attached spreadsheet, but if you paste it here "
            "I will find the region with the lowest margin.",
            "asks",
        ),
        # a note that ends its sentence asks
        (
            "I can't see the attached spreadsheet. It may not have uploaded; could you try attaching it once more?",
            "asks",
        ),
    ],
)
def test_followup_hedge_then_guess_proceeds(response: str, decision: str) -> None:
    assert classify_followup(response)[0] == decision


# A contrast after a semicolon carries on past the gap note, with a near miss that must not change.
@pytest.mark.parametrize(
    ("response", "decision"),
    [
        (
            "I couldn't find the recipe card attached; however, most cards "
            "like this list flour first and sugar second.",
            "proceeds",
        ),
        (
            "Mind the oven temperature: bake the muffins at 180 degrees for "
            "twenty minutes and let them cool on a rack.",
            "proceeds",
        ),
    ],
)
def test_followup_contrast_after_semicolon(response: str, decision: str) -> None:
    assert classify_followup(response)[0] == decision


@settings(max_examples=60, deadline=None)
@given(response=st.text(max_size=300), refs=st.lists(st.text(max_size=40), max_size=3))
def test_followup_with_arbitrary_references_never_crashes(response: str, refs: list[str]) -> None:
    decision, _ = classify_followup(response, tuple(refs))
    assert decision in ("asks", "proceeds", "undecided")


@settings(max_examples=40, deadline=None)
@given(query=st.text(alphabet=st.characters(codec="ascii"), max_size=200))
def test_requests_without_documents_never_crash(query: str) -> None:
    # no documents or history: the deictic parse path runs on arbitrary text
    assert isinstance(DET.run(CallContext(query=query)).findings["missing_content"], list)


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        # the question the request points to is there, however it opens
        (
            "Please answer the following question.\n\nYou rent a flat for two years. Who pays the repairs?",
            False,
        ),
        ("Answer the next question in one line. What makes a rainbow appear after rain?", False),
        # no question supplied, or the reference is not to a question
        ("Please answer the following question for my exam prep.", True),
        ("Answer the question below.\n\nKeep it short, please.", True),
        ("Summarise the following report. Why does it matter?", True),
    ],
)
def test_a_question_the_request_points_to_is_supplied_by_a_question(query: str, missing: bool) -> None:
    assert bool(DET.run(CallContext(query=query)).findings["missing_content"]) is missing


_TRIGGERS = (
    "the following",
    "below",
    "here is",
    "Here it is",
    "as follows",
    "attached",
    "I've uploaded",
    "pasted",
    "(1)",
    "(2)",
    "b)",
    "what my boss sent me",
    "the notes I gave you",
    "Reply to her message",
    "| a | b |\n|---|---|\n",
    "> quoted line\n",
    ":",
    " - ",
    "'",
    "\u201c",
    "\n\n",
)


@settings(max_examples=80, deadline=None)
@given(parts=st.lists(st.one_of(st.sampled_from(_TRIGGERS), st.text(max_size=40)), min_size=1, max_size=12))
def test_never_crashes_on_pointers_claims_and_enumerations(parts: list[str]) -> None:
    """The parse-based readings (forward pointers, attachment claims, handed items, enumerations, markdown blocks)
    run only without documents: random text around their trigger words never breaks them."""
    res = DET.run(CallContext(query=" ".join(parts)))
    findings = res.findings["missing_content"]
    assert isinstance(findings, list)
    assert all(isinstance(f["explanation"], str) and f["explanation"] for f in findings)
