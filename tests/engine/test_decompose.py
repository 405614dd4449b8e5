"""Golden decomposition tests for the offline decomposer."""

from __future__ import annotations

from typing import Any

import pytest
from golden import context_for, load_golden, matches, missing

from faithguard.detector import CallContext, Decomposer
from faithguard.engine.decompose import OfflineDecomposer, decompose_text, is_followup
from faithguard.lexical import wordnet
from faithguard.models import Category, Message, Tier
from faithguard.scoring import tier_for

CASES = load_golden()
DEC = OfflineDecomposer()


@pytest.mark.parametrize("case", CASES, ids=[c["query"][:40] for c in CASES])
def test_golden_case(case: dict[str, Any]) -> None:
    d = DEC.decompose(context_for(case))
    assert missing(case, d) == []
    assert d.task == case["task"]
    assert len(d.subquestions) == case["parts"]
    for absent in case.get("absent", []):
        assert not any(absent.lower() in c.text.lower() for c in d.constraints)
    assert d.decomposer == "offline"


def test_golden_set_covers_every_category_and_tier() -> None:
    cats = {e[0] for case in CASES for e in case["expect"]}
    assert cats == {c.value for c in Category}
    assert {tier_for(c) for c in cats} == set(Tier)


def test_explorers_full_decomposition() -> None:
    q = (
        "List three European explorers who circumnavigated the globe before the 18th century "
        "and were not born in England or Portugal"
    )
    d = decompose_text(q)
    got = [(str(c.category), c.text, str(c.tier), c.negated) for c in d.constraints]
    assert got == [
        ("action", "List", "mandatory", False),
        ("quantity", "three", "important", False),
        ("qualifier", "European", "important", False),
        ("subject", "explorers", "mandatory", False),
        ("action", "circumnavigated the globe", "mandatory", False),
        ("time", "before the 18th century", "mandatory", False),
        ("other", "not born in England or Portugal", "optional", True),
    ]
    assert [c.id for c in d.constraints] == [f"c{i}" for i in range(1, 8)]
    assert d.task == "list"
    assert [(s.index, s.position) for s in d.subquestions] == [(0, 0.0)]


def test_places_inside_an_exclusion_stay_there() -> None:
    d = decompose_text("Name painters who were not born in Spain or Italy.")
    assert not any(c.category is Category.LOCATION for c in d.constraints)
    neg = [c for c in d.constraints if c.negated]
    assert len(neg) == 1 and "Spain or Italy" in neg[0].text


def test_poem_quantity_carries_the_verifier() -> None:
    d = decompose_text("Compose a poem of four stanzas. Each line must be exactly seven words long")
    by_text = {c.text: c for c in d.constraints}
    stanzas = by_text["four stanzas"]
    assert stanzas.verifier == "creative:stanzas" and stanzas.category is Category.QUANTITY
    per_line = [c for c in d.constraints if c.verifier == "creative:per_unit"]
    assert len(per_line) == 1 and per_line[0].params["unit"] == "line" and per_line[0].params["n"] == 7
    assert d.task == "compose"
    assert sum(1 for c in d.constraints if "stanza" in c.text) == 1


def test_ifeval_style_spec_becomes_a_constraint() -> None:
    d = decompose_text("Write a blog post about Japan using less than 300 words.")
    words = [c for c in d.constraints if c.verifier == "length_constraints:number_words"]
    assert len(words) == 1
    assert words[0].params.get("num_words") == 300


def test_multi_part_positions_and_order() -> None:
    d = decompose_text("1. Who founded Rome?\n2. When did the empire fall?\n3. Why did it fall?")
    assert [s.position for s in d.subquestions] == [0.0, 0.5, 1.0]
    assert [c.subquestion for c in d.constraints] == sorted(c.subquestion for c in d.constraints)
    assert [c.id for c in d.constraints] == [f"c{i}" for i in range(1, len(d.constraints) + 1)]


def test_and_also_splits_but_a_second_instruction_does_not() -> None:
    assert len(decompose_text("List two rivers in Peru and also name a lake there.").subquestions) == 2
    assert len(decompose_text("Write a poem about rain. Make it rhyme.").subquestions) == 1


def test_numbers_written_as_words() -> None:
    d = decompose_text("Name twenty-one cities in Brazil.")
    q = [c for c in d.constraints if c.category is Category.QUANTITY]
    assert [c.text for c in q] == ["twenty-one"]


def test_followup_uses_the_previous_user_turn_not_the_system() -> None:
    ctx = CallContext(
        query="and what about in Germany?",
        system="You are a helpful assistant who answers about Brazil.",
        history=[
            Message(role="user", content="What is the unemployment rate in Spain?"),
            Message(role="assistant", content="About 12%."),
        ],
    )
    d = DEC.decompose(ctx)
    texts = [c.text for c in d.constraints]
    assert "in Germany" in texts and not any("Spain" in t or "Brazil" in t for t in texts)
    assert any(c.category is Category.SUBJECT and "unemployment" in c.text for c in d.constraints)


def test_standalone_turn_is_not_merged_with_history() -> None:
    ctx = CallContext(
        query="And how do I bake sourdough bread?",
        history=[Message(role="user", content="List three rivers in France.")],
    )
    d = DEC.decompose(ctx)
    assert not any("France" in c.text for c in d.constraints)


def test_is_followup() -> None:
    assert is_followup("what about Italy?")
    assert is_followup("make it shorter")
    assert not is_followup("Explain the causes of the First World War in detail for a history class.")


def test_deterministic_and_not_shared_between_calls() -> None:
    q = "List five famous Italian painters from the Renaissance."
    a, b = decompose_text(q), decompose_text(q)
    assert a == b
    a.constraints[0].text = "changed"
    assert decompose_text(q).constraints[0].text != "changed"


def test_blank_query() -> None:
    d = DEC.decompose(CallContext(query="   "))
    assert d.constraints == [] and d.subquestions == []


def test_implements_protocol() -> None:
    assert isinstance(DEC, Decomposer)
    assert all(matches(["action", "list"], c) is False for c in decompose_text("Hello there").constraints)


def test_model_numbers_are_part_of_the_name_not_quantities() -> None:
    from faithguard import Guard

    guard = Guard(judge=None)
    for query, name in [
        ("List three features of Windows 11.", "Windows 11"),
        ("Compare the iPhone 15 and the Samsung Galaxy S24.", "iPhone 15"),
    ]:
        constraints = guard.inspect(query).constraints
        assert not any(c.category == "quantity" and c.text.strip().endswith(name.split()[-1]) for c in constraints)
        assert any(name in c.text and c.category == "subject" for c in constraints), constraints
    quantities = [c.text for c in guard.inspect("Name 3 rivers in France.").constraints if c.category == "quantity"]
    assert quantities == ["3"]


def test_coordinated_names_stay_inside_the_exclusion() -> None:
    from faithguard import Guard

    guard = Guard(judge=None)
    cs = guard.inspect("List European capitals, but not Paris or Rome.").constraints
    negated = [c.text for c in cs if c.negated]
    assert negated == ["not Paris or Rome"]
    assert not any("Rome" in c.text for c in cs if not c.negated)
    assert any(c.category == "action" and c.text == "List" for c in cs)
    assert not any(c.text.endswith(" but") for c in cs)
    # a coordinated clause is not swallowed: "born in England or Portugal" is one exclusion
    explorers = guard.inspect("Name explorers who were not born in England or Portugal.").constraints
    assert [c.text for c in explorers if c.negated] == ["not born in England or Portugal"]
    report = guard.check("List European capitals, but not Paris or Rome.", "- Madrid\n- Berlin\n- Vienna")
    assert [str(c.status) for c in report.constraints if c.negated] == ["satisfied"]
    assert "omission" not in [v.kind for v in report.verdicts]


# Statements that ask for nothing are content, not requests: the engine says undetermined (fixtures written for
# decompose._asks_anything; positives are statements, negatives are requests in several shapes).
_STATEMENTS = [
    "The Ebro flows 910 km through Spain and reaches the sea near Tortosa.",
    "The committee approved the new budget last week. Members voted by a wide margin.",
]
_REQUESTS = [
    "I need a poem about cats.",
    "A haiku about autumn, please.",
    "Three reasons to learn Python.",
    "Explain photosynthesis.",
    "Which river is longest?",
    "The capital of France",
    "Your answer must contain a title wrapped in double angular brackets.",
]


@pytest.mark.parametrize("text", _STATEMENTS)
def test_statement_without_request_is_undetermined(text: str) -> None:
    from faithguard.engine.decompose import decompose_text, undetermined_reason

    assert undetermined_reason(text) is not None
    assert decompose_text(text).constraints == []


@pytest.mark.parametrize("text", _REQUESTS)
def test_requests_are_read(text: str) -> None:
    from faithguard.engine.decompose import undetermined_reason

    assert undetermined_reason(text) is None


@pytest.mark.parametrize(
    ("query", "unit", "kept"),
    [
        # the unit of a count a verifier checks is form, not a must-address subject
        ("In no more than 40 words, tell me why the sky looks blue.", "words", None),
        ("Give me exactly 4 bullet points on saving money.", "bullet points", "on saving money"),
        # a count the engine reads itself keeps its noun as the subject
        ("List three rivers in Spain.", None, "rivers"),
        ("Name two painters from Norway.", None, "painters"),
    ],
)
def test_the_unit_of_a_verified_count_is_not_a_subject(query: str, unit: str | None, kept: str | None) -> None:
    subjects = [c.text for c in decompose_text(query).constraints if str(c.category) == "subject"]
    if unit is not None:
        assert unit not in subjects
    if kept is not None:
        assert kept in subjects


def _by_category(query: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in decompose_text(query).constraints:
        out.setdefault(str(c.category), []).append(c.text)
    return out


@pytest.mark.parametrize(
    ("query", "topic", "unit"),
    [
        # an embedded wh-question is the topic, however the parser attaches it (ccomp, relcl of the unit)
        ("Answer in at least 200 words: what drives ocean currents?", "ocean currents", "words"),
        ("Explain in 4 bullet points why owls hunt at night.", "owls", "bullet points"),
        ("Describe, in 60 words or fewer, what a compiler does.", "compiler", "words"),
        ("Say in one paragraph who wrote the novel Middlemarch.", "Middlemarch", "paragraph"),
    ],
)
def test_an_embedded_question_is_the_topic_not_the_unit(query: str, topic: str, unit: str) -> None:
    found = _by_category(query)
    assert any(topic in s for s in found.get("subject", [])), found
    assert all(unit not in s for s in found.get("subject", [])), found
    # what is left of a phrase whose object a count holds ("in bullet") is no constraint of its own
    fragments = [t for texts in found.values() for t in texts if t.split()[0].lower() == "in" and len(t.split()) < 3]
    assert fragments == [], found


@pytest.mark.parametrize(
    ("query", "subject"),
    [
        ("Write 2 sonnets about autumn.", "sonnets"),
        ("Give me 5 ideas for a rainy weekend.", "ideas"),
        # negatives: no counted noun, so no subject is invented
        ("What is 12 times 9?", None),
    ],
)
def test_a_cardinal_parsed_as_its_own_object_still_counts_the_noun(query: str, subject: str | None) -> None:
    found = _by_category(query)
    if subject is None:
        assert "subject" not in found, found
    else:
        assert subject in found.get("subject", []), found
        assert found.get("quantity"), found


@pytest.mark.parametrize(
    ("query", "subject", "location"),
    [
        # a place name that is the verb's own argument is what the request is about
        ("Who built the Brooklyn Bridge?", "Brooklyn Bridge", None),
        ("Contrast Lisbon and Porto.", "Lisbon and Porto", None),
        # a place inside a prepositional phrase restricts the subject
        ("Name three lakes in Finland.", "lakes", "in Finland"),
        ("Which mountains rise above Chile?", "mountains", "above Chile"),
    ],
)
def test_a_place_argument_is_the_subject_a_place_phrase_a_location(
    query: str, subject: str, location: str | None
) -> None:
    found = _by_category(query)
    assert subject in found.get("subject", []), found
    assert found.get("location", []) == ([location] if location else []), found


@pytest.mark.parametrize(
    ("query", "action", "subject"),
    [
        ("Summarize Macbeth.", "Summarize", "Macbeth"),
        ("Describe Lagos.", "Describe", "Lagos"),
    ],
)
def test_a_capitalised_imperative_before_a_name_is_the_action(query: str, action: str, subject: str) -> None:
    found = _by_category(query)
    assert found.get("action") == [action], found
    assert subject in found.get("subject", []), found


@pytest.mark.skipif(not wordnet.available(), reason="Debian wordnet-base (or nltk) not installed")
@pytest.mark.parametrize(
    ("query", "time"),
    [
        # a noun WordNet files under a period or unit of time makes its phrase a time restriction
        ("Which games were popular in the Middle Ages?", "in the Middle Ages"),
        ("What did sailors eat in the seventeenth century?", "in the seventeenth century"),
        ("Which books shaped you in your adolescence?", "in your adolescence"),
        # a place-like or ordinary noun does not
        ("Which birds live in the marsh?", None),
        ("What tools are kept in the shed?", None),
        # a rarer time sense does not count ("sentence" as a prison term, "term" as a period)
        ("Explain tides in three sentences.", None),
        ("Explain tides in simple terms.", None),
    ],
)
def test_a_time_noun_makes_a_time_restriction(query: str, time: str | None) -> None:
    assert _by_category(query).get("time", []) == ([time] if time else [])


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        # the parser hangs "not" on "but" after a comma: the conjunct after it is what is excluded
        ("Suggest European capitals to visit, but not Paris.", "not Paris"),
        ("List some board games for kids, but not Monopoly or Risk.", "not Monopoly or Risk"),
        ("Name three fruits but not apples.", "not apples"),  # no comma: the parser's own reading, as before
    ],
)
def test_an_exclusion_after_but_is_negated_not_merged_into_the_subject(query: str, excluded: str) -> None:
    constraints = decompose_text(query).constraints
    negated = [c.text for c in constraints if c.negated]
    assert negated == [excluded]
    assert not any(excluded.split()[-1] in c.text for c in constraints if not c.negated)
