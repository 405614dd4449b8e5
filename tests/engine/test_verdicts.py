"""Omission and misinterpretation verdicts, and plugin registration."""

from __future__ import annotations

from helpers import judge

from faithguard.detector import CallContext, Detector
from faithguard.engine.verdicts import ConstraintsDetector, MisinterpretationDetector, OmissionDetector
from faithguard.models import Category, Constraint, Status, Tier


def test_list_answered_with_explanation_is_misinterpretation() -> None:
    response = (
        "Exercise is good for you. It helps the heart and the mind. Many people find it helps them sleep. "
        "Doctors recommend it widely."
    )
    _, verdicts = judge("List five benefits of regular exercise.", response)
    mis = [v for v in verdicts if v.kind == "misinterpretation"]
    assert len(mis) == 1 and mis[0].severity == "critical" and "list" in mis[0].explanation.lower()


def test_compare_answered_with_evaluation_is_misinterpretation() -> None:
    response = (
        "Python is a language created by Guido van Rossum. It has a large ecosystem. Its strengths are "
        "readability and libraries. Overall, I would rate it 9/10."
    )
    _, verdicts = judge("Compare Python and Java for web development.", response)
    assert any(v.kind == "misinterpretation" and "evaluat" in v.explanation for v in verdicts)


def test_code_request_answered_with_prose() -> None:
    response = "You can reverse a string by slicing it. Slicing with a negative step works. It is fast. It is common."
    _, verdicts = judge("Write a Python function that reverses a string.", response)
    assert any(v.kind == "misinterpretation" for v in verdicts)
    _, verdicts = judge(
        "Write a Python function that reverses a string.", "```python\ndef rev(s):\n    return s[::-1]\n```"
    )
    assert not any(v.kind == "misinterpretation" for v in verdicts)


def test_invented_subquestion() -> None:
    q = "1. What is the capital of France? 2. What is its population?"
    response = (
        "1. What is the capital of France?\nParis.\n2. What is its population?\nAbout 2.1 million.\n"
        "3. What is the capital of Spain?\nMadrid."
    )
    _, verdicts = judge(q, response)
    mis = [v for v in verdicts if v.kind == "misinterpretation"]
    assert len(mis) == 1 and "Spain" in mis[0].explanation
    _, verdicts = judge(q, "1. Paris.\n2. About 2.1 million people.")
    assert not any(v.kind == "misinterpretation" for v in verdicts)


def test_good_answers_fire_nothing() -> None:
    _, verdicts = judge("List three rivers in Peru.", "1. Amazon\n2. Ucayali\n3. Marañón")
    assert verdicts == []


def test_an_optional_instruction_a_verifier_found_broken_is_an_omission() -> None:
    def optional(cid: str, decided_by: str | None, verifier: str | None) -> Constraint:
        return Constraint(
            id=cid,
            text="x",
            category=Category.OTHER,
            tier=Tier.OPTIONAL,
            status=Status.VIOLATED,
            verifier=verifier,
            decided_by=decided_by,
        )

    cs = [
        optional("c1", "verifier", "change_case:english_capital"),  # counts: an exact check failed
        optional("c2", "offline", None),  # a reading of an optional constraint: no verdict
        optional("c3", "judge:m", "change_case:english_capital"),  # not the verifier's decision
    ]
    res = OmissionDetector().run(CallContext(query="q", response="r", constraints=cs))
    assert [(v.constraint_ids, v.severity) for v in res.verdicts] == [(["c1"], "warning")]


def test_an_ignored_capitals_instruction_makes_the_outcome_a_hallucination() -> None:
    from faithguard import Guard

    report = Guard().check(
        "Describe a sunrise in two sentences, writing your entire reply in capital letters.",
        "The sun rises slowly over the hills. Its light turns the sky pink and gold.",
    )
    broken = [c for c in report.constraints if c.verifier == "change_case:english_capital"]
    assert broken and broken[0].status == "violated"
    assert report.outcome == "hallucination"
    assert any(v.kind == "omission" and broken[0].id in v.constraint_ids for v in report.verdicts)


def test_omission_only_counts_mandatory_and_important() -> None:
    cs = [
        Constraint(id="c1", text="x", category=Category.OTHER, tier=Tier.OPTIONAL, status=Status.VIOLATED),
        Constraint(id="c2", text="y", category=Category.QUALIFIER, tier=Tier.IMPORTANT, status=Status.VIOLATED),
        Constraint(id="c3", text="z", category=Category.SUBJECT, tier=Tier.MANDATORY, status=Status.UNKNOWN),
    ]
    res = OmissionDetector().run(CallContext(query="q", response="r", constraints=cs))
    assert [(v.constraint_ids, v.severity) for v in res.verdicts] == [(["c2"], "warning")]


def test_constraints_detector_keeps_decided_statuses() -> None:
    c = Constraint(id="c1", text="List", category=Category.ACTION, tier=Tier.MANDATORY, status=Status.SATISFIED)
    res = ConstraintsDetector().run(CallContext(query="List", response="", constraints=[c]))
    assert res.updates == {}


def test_detectors_protocol_and_plugin() -> None:
    from faithguard.engine import plugin

    found: list[object] = []
    plugin.register_detectors(register=found.append)
    plugin.register_decomposers(register=found.append)
    names = [getattr(o, "name", "") for o in found]
    assert names == ["constraints", "omission", "misinterpretation", "offline"]
    for d in found[:3]:
        assert isinstance(d, Detector) and d.stage == "output"
    assert [d.order for d in found[:3]] == [100, 300, 300]  # type: ignore[attr-defined]
    assert isinstance(MisinterpretationDetector(), Detector)


def test_broken_exclusion_is_a_misinterpretation() -> None:
    from faithguard import Guard

    query = (
        "List three European explorers who circumnavigated the globe before the 18th century "
        "and were not born in England or Portugal."
    )
    bad = (
        "1. Ferdinand Magellan, born in Portugal, led the first voyage around the globe (1519-1522).\n"
        "2. Juan Sebastian Elcano, born in Spain, completed it.\n"
        "3. Olivier van Noort, born in the Dutch Republic, circumnavigated the globe in 1598-1601."
    )
    report = Guard(judge=None).check(query, bad)
    excl = next(c for c in report.constraints if c.negated)
    assert excl.status == "violated"
    mis = [v for v in report.verdicts if v.kind == "misinterpretation" and excl.id in v.constraint_ids]
    assert len(mis) == 1 and mis[0].severity == "warning"
    good = bad.replace("Ferdinand Magellan, born in Portugal, led", "Francis Pretty, a chronicler, described")
    assert not [v for v in Guard(judge=None).check(query, good).verdicts if excl.id in v.constraint_ids]


def test_wrong_form_and_evaluating_instead_of_summarising_are_misinterpretations() -> None:
    from faithguard import Guard

    guard = Guard(judge=None)
    prose = (
        "The sea is vast and ever-changing. It covers most of our planet and shapes the weather. "
        "People have always been drawn to its beauty and its danger."
    )
    poem = guard.check("Write a short poem about the sea.", prose)
    assert "misinterpretation" in [v.kind for v in poem.verdicts]
    article = "The city approved a new tram line. " * 30
    review = (
        "This is a well-written and balanced article. I think it makes a compelling case. "
        "Overall I would rate it highly."
    )
    summary = guard.check("Summarize the following article in three sentences.", review, documents=[article])
    assert "misinterpretation" in [v.kind for v in summary.verdicts]
    fine = guard.check(
        "Summarize the following article in three sentences.",
        "The city approved a new tram line. It will open next year. It links the centre and the airport.",
        documents=[article],
    )
    assert "misinterpretation" not in [v.kind for v in fine.verdicts]


def test_a_list_family_verb_with_one_singular_object_is_no_list_request() -> None:
    prose = (
        "Dough rises because yeast eats sugar. The yeast breathes out carbon dioxide. The gas is trapped by "
        "gluten. Heat then sets the bubbles."
    )
    for query in ("Give an explanation of why bread dough rises.", "Provide a description of how dough rises."):
        _, verdicts = judge(query, prose)
        assert not [v for v in verdicts if v.kind == "misinterpretation"], query
    # several things asked: prose is still a mismatch
    _, verdicts = judge("Give three reasons why bread dough rises.", prose)
    assert [v for v in verdicts if v.kind == "misinterpretation"]


def test_questions_the_request_asked_for_are_the_deliverable() -> None:
    quiz = "1. What gas do plants absorb?\nCarbon dioxide.\n2. Where does photosynthesis happen?\nIn the leaves."
    for query in ("Write a short quiz about photosynthesis.", "Draft two interview questions about plants."):
        _, verdicts = judge(query, quiz)
        assert not [v for v in verdicts if "question" in (v.explanation or "").lower()], query
    # the quiz may be asked by a later verb of a multi-part request
    _, verdicts = judge("Write a short article about tides. Additionally, create a quiz with two questions.", quiz)
    assert not [v for v in verdicts if "question" in (v.explanation or "").lower()]
    # a request to answer a question asks for none: invented extra ones are still extra
    _, verdicts = judge(
        "Answer the following question: what is the capital of Peru?",
        "1. What is the capital of Peru?\nLima.\n2. What is the capital of Chile?\nSantiago.",
    )
    assert [v for v in verdicts if v.kind == "misinterpretation"]
    # a request that asks questions rather than for them: an invented one is still extra
    _, verdicts = judge(
        "1. What is the capital of Peru?",
        "1. What is the capital of Peru?\nLima.\n2. What is the capital of Chile?\nSantiago.",
    )
    assert [v for v in verdicts if v.kind == "misinterpretation"]
