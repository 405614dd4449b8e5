"""An answer that asks for the content the request lacked omits nothing and does no other task (fixtures here)."""

from __future__ import annotations

from faithguard import Guard

ASK = "Summarize the attached report in three bullet points."


def _kinds(query: str, answer: str) -> list[tuple[str, str]]:
    return [(v.kind, v.detector or "") for v in Guard(judge=None).check(query, answer).verdicts]


def test_asking_for_the_missing_report_is_no_omission() -> None:
    asks = "I don't see an attached report in your message. Could you paste its text here? Then I'll summarize it."
    assert _kinds(ASK, asks) == [("missing_content", "missing_content")]


def test_carrying_on_without_it_is_still_a_misinterpretation() -> None:
    proceeds = "- Revenue grew 12%.\n- Costs fell.\n- The outlook is positive."
    assert ("misinterpretation", "missing_content_followup") in _kinds(ASK, proceeds)


def test_with_the_content_supplied_the_count_is_still_checked() -> None:
    report = "Revenue grew. Costs fell. Staff grew. Outlook positive. New office opened."
    one_point = "- Revenue grew."
    checked = Guard(judge=None).check(ASK, one_point, documents=[report])
    assert "omission" in {v.kind for v in checked.verdicts}


def test_asking_and_then_delivering_something_else_is_not_only_asking() -> None:
    from faithguard.detector import ASKS_FOR_INPUT

    recipe = (
        "Please paste the report text. Meanwhile, here is a recipe for banana bread: mash three ripe bananas, "
        "stir in flour and sugar, and bake the batter at 350F for an hour."
    )
    guessed = "Could you share the report? In the meantime:\n- Revenue grew 23%.\n- Costs fell.\n- Staff grew."
    for answer in (recipe, guessed):
        report = Guard(judge=None).check(ASK, answer)
        assert ASKS_FOR_INPUT not in report.findings, answer
    only = "I don't see an attached report in your message. Could you paste its text here? Then I'll summarize it."
    assert Guard(judge=None).check(ASK, only).findings.get(ASKS_FOR_INPUT) is True


def test_asking_for_the_text_to_translate_is_no_wrong_language() -> None:
    # the answer asks (in the user's language) for the missing text: it wrote nothing in the wrong language
    asks = "It seems the text to translate did not come through. Could you paste it? Then I'll translate it."
    kinds = _kinds("Translate this into Italian.", asks)
    assert ("misinterpretation", "misinterpretation") not in kinds
    source = "The weather is lovely and we are going to the beach today with our friends."
    wrong = f"Here is the translation: {source.lower()}"  # the task done in the wrong language is still flagged
    assert ("misinterpretation", "misinterpretation") in _kinds(f"Translate into Italian: {source}", wrong)
    proceeds = "Sure! The weather is lovely and we are going to the beach today with our friends, then we eat."
    assert ("misinterpretation", "misinterpretation") in _kinds("Translate this into Italian.", proceeds)
