"""Satisfaction of constraints against responses: satisfied / violated / unknown."""

from __future__ import annotations

from helpers import judge, status_of

from faithguard.engine.satisfy import check_constraint
from faithguard.models import Category, Constraint, Status, Tier

EXPLORERS = (
    "List three European explorers who circumnavigated the globe before the 18th century "
    "and were not born in England or Portugal"
)
GOOD = (
    "1. Juan Sebastián Elcano (Spanish, completed the voyage around the world in 1522)\n"
    "2. Olivier van Noort (Dutch, circumnavigated the globe 1598–1601)\n"
    "3. Joris van Spilbergen (Dutch, sailed around the world 1614–1617)"
)


def test_explorers_good_answer() -> None:
    ctx, verdicts = judge(EXPLORERS, GOOD)
    assert status_of(ctx, "List") == "satisfied"
    assert status_of(ctx, "three") == "satisfied"
    assert status_of(ctx, "before the 18th century") == "satisfied"
    assert status_of(ctx, "circumnavigated") == "unknown"  # mentioned, not evidenced: a mention is no proof
    assert status_of(ctx, "not born") == "unknown"  # needs knowledge of birthplaces
    assert not any(c.status is Status.VIOLATED for c in ctx.constraints)
    assert verdicts == []


def test_english_explorers_violate_the_exclusion() -> None:
    response = (
        "1. Francis Drake, an English captain who circumnavigated the globe in 1577–1580\n"
        "2. Thomas Cavendish (English, 1586–1588)\n"
        "3. Juan Sebastián Elcano (Spanish, 1519–1522)"
    )
    ctx, _ = judge(EXPLORERS, response)
    assert status_of(ctx, "not born") == "violated"
    assert "english" in (next(c for c in ctx.constraints if c.negated).reason or "").lower()


def test_born_in_portugal_is_violation_but_contrast_is_not() -> None:
    ctx, _ = judge(EXPLORERS, "1. Ferdinand Magellan (born in Portugal, 1519)\n2. Elcano (1522)\n3. Noort (1601)")
    assert status_of(ctx, "not born") == "violated"
    contrast = "Unlike the Portuguese explorers of that era, these came from elsewhere:\n1. Elcano\n2. Noort\n3. Drake"
    ctx, _ = judge(EXPLORERS, contrast)
    assert status_of(ctx, "not born") == "unknown"


def test_two_items_instead_of_three() -> None:
    ctx, verdicts = judge(EXPLORERS, "1. Juan Sebastián Elcano (1522)\n2. Olivier van Noort (1601)")
    assert status_of(ctx, "three") == "violated"
    omission = [v for v in verdicts if v.kind == "omission"]
    assert len(omission) == 1 and omission[0].severity == "warning"
    ids = {c.id for c in ctx.constraints if c.text == "three"}
    assert set(omission[0].constraint_ids) == ids


def test_two_named_inline_instead_of_three() -> None:
    ctx, _ = judge(EXPLORERS, "Juan Sebastián Elcano and Francis Drake both sailed around the world in the 1500s.")
    assert status_of(ctx, "three") == "violated"


def test_dates_after_the_period_violate_time() -> None:
    ctx, verdicts = judge(
        EXPLORERS, "1. James Cook (1768–1771)\n2. Louis de Bougainville (1766–1769)\n3. Elcano (1522)"
    )
    assert status_of(ctx, "before the 18th century") == "violated"
    assert any(v.kind == "omission" and v.severity == "critical" for v in verdicts)


def test_off_topic_response() -> None:
    off = (
        "Bananas are a great source of potassium and fiber. They grow in tropical climates and are eaten "
        "worldwide by millions of people every single day."
    )
    ctx, verdicts = judge(EXPLORERS, off)
    assert status_of(ctx, "explorers") == "violated"
    omission = next(v for v in verdicts if v.kind == "omission")
    assert omission.severity == "critical" and "explorers" in omission.explanation


def test_empty_response_violates_mandatory_content() -> None:
    ctx, verdicts = judge(EXPLORERS, "")
    for c in ctx.constraints:
        if c.tier is Tier.MANDATORY:
            assert c.status is Status.VIOLATED
    assert status_of(ctx, "not born") == "unknown"
    assert any(v.kind == "omission" and v.severity == "critical" for v in verdicts)


def test_location_other_place_violates_absent_place_unknown() -> None:
    q = "What are the main causes of inflation in Japan?"
    ctx, _ = judge(q, "In Brazil and Argentina, inflation was driven by currency weakness.")
    assert status_of(ctx, "in Japan") == "violated"
    ctx, _ = judge(q, "Energy prices and a weak yen pushed Japanese inflation up.")
    assert status_of(ctx, "in Japan") == "satisfied"
    ctx, _ = judge(q, "Mostly energy prices.")
    assert status_of(ctx, "in Japan") == "unknown"


def test_compare_leaves_one_item_out() -> None:
    q = "Compare Python and Java for web development."
    ctx, _ = judge(q, "Python is simple. It has Django. It is used by many startups.")
    assert status_of(ctx, "Compare") == "violated"
    ctx, _ = judge(q, "Python is more concise than Java, whereas Java offers stronger typing.")
    assert status_of(ctx, "Compare") == "satisfied"


def test_since_year_time_constraint() -> None:
    q = "Compare the economies of France and Germany since 2010."
    ctx, _ = judge(q, "Since 2012, Germany grew faster than France, whereas France's debt rose by 2019.")
    assert status_of(ctx, "since 2010") == "satisfied"
    assert status_of(ctx, "France and Germany") == "satisfied"
    ctx, _ = judge(q, "In 1995 France grew faster than Germany.")
    assert status_of(ctx, "since 2010") == "violated"


def test_poem_form_and_verifier_prefix() -> None:
    q = "Compose a poem of four stanzas. Each line must be exactly seven words long"
    poem = (
        "The sea is calm and blue tonight.\nThe waves roll softly onto the sand.\n\n"
        "Stars shine down upon the quiet shore."
    )
    ctx, _ = judge(q, poem)
    assert status_of(ctx, "Compose") == "satisfied"
    stanzas = next(c for c in ctx.constraints if c.verifier == "creative:stanzas")
    assert stanzas.status is Status.VIOLATED and (stanzas.reason or "").startswith("verifier:")
    prose = "The sea was calm. The waves rolled onto the sand. Stars shone down on the shore. It was late."
    ctx, _ = judge(q, prose)
    assert status_of(ctx, "Compose") == "violated"


def test_entity_exclusion_satisfied_when_absent() -> None:
    q = "Name five Renaissance painters, excluding Leonardo da Vinci."
    ctx, _ = judge(q, "1. Raphael\n2. Titian\n3. Botticelli\n4. Michelangelo\n5. Donatello")
    assert status_of(ctx, "excluding") == "satisfied"
    ctx, _ = judge(q, "1. Leonardo da Vinci\n2. Titian\n3. Botticelli\n4. Michelangelo\n5. Donatello")
    assert status_of(ctx, "excluding") == "violated"


def test_unit_quantities() -> None:
    q = "Explain photosynthesis to a ten-year-old in three sentences."
    ctx, _ = judge(q, "Plants eat light. They make sugar from air and water. That sugar helps them grow.")
    assert status_of(ctx, "three sentences") == "satisfied"
    ctx, _ = judge(q, "Plants eat light. They grow.")
    assert status_of(ctx, "three sentences") == "violated"


def test_check_constraint_from_another_decomposer() -> None:
    c = Constraint(id="x1", text="at least 4 items", category=Category.QUANTITY, tier=Tier.IMPORTANT)
    assert check_constraint(c, "- a\n- b\n- c\n- d\n- e")[0] is Status.SATISFIED
    assert check_constraint(c, "- a\n- b")[0] is Status.VIOLATED
    vague = Constraint(id="x2", text="recent", category=Category.TIME, tier=Tier.MANDATORY)
    assert check_constraint(vague, "Some text about things.")[0] is Status.UNKNOWN


def test_bare_name_exclusion_is_checked() -> None:
    from faithguard import Guard

    guard = Guard(judge=None)
    query = "List three rivers in Spain, not the Ebro."

    def exclusion(response: str) -> str:
        return str(next(c for c in guard.check(query, response).constraints if c.negated).status)

    assert exclusion("1. Ebro\n2. Tagus\n3. Douro") == "violated"
    assert exclusion("1. Tagus\n2. Douro\n3. Guadalquivir") == "satisfied"
    assert exclusion("Unlike the Ebro, the Tagus crosses Portugal too.") == "satisfied"  # contrastive mention


def test_a_mention_is_not_evidence_that_a_content_constraint_is_met() -> None:
    # written for this rule: the story names the cat but is not told from its perspective
    c = Constraint(id="c1", text="the perspective of a cat", category=Category.QUALIFIER, tier=Tier.IMPORTANT)
    status, reason = check_constraint(c, "The dog ran through New York. A cat watched him. The end.")
    assert status is Status.UNKNOWN and "not evidence" in reason
    absent = check_constraint(c, "The dog ran through New York all day long. The end.")[0]
    assert absent is not Status.SATISFIED
