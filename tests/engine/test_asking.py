"""A verifiable instruction read from a question about its form is tentative (engine/asking.py): an answer that
takes the form satisfies it, one that does not leaves it unknown, never an omission. Sentences written for this
project."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard import Guard, Status
from faithguard.engine.asking import asks_about
from faithguard.nlp import parse


def _at(text: str, word: str) -> bool:
    return asks_about(parse(text), text.index(word))


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Is it weird to write emails in all lowercase?", "Is"),
        ("Why do recipes list ingredients as bullet points?", "Why"),
        ("Should the footer say 'Thanks for reading' or nothing at all?", "Should"),
        ("Do you think a 300 word limit is too strict for a cover letter?", "Do"),
        ("How many paragraphs does a typical op-ed have?", "How"),
        # a question about a form with a clause after the comma: no aside
        ("Why are headlines written in title case, and who decided that?", "Why"),
    ],
)
def test_a_question_about_a_form_asks_about_it(text: str, word: str) -> None:
    assert _at(text, word)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Can you write the toast in all lowercase?", "Can"),
        ("Could it be under 80 words?", "Could"),
        ("Would you put the steps in 4 bullet points?", "Would"),
        ("Answer in French?", "Answer"),
        ("Describe a lighthouse in 3 sentences.", "Describe"),
        ("Repeat this request first, then answer it in under 60 words: Why is the sky blue?", "Repeat"),
        # an aside after a comma, a bracket or a dash, with no verb of its own, is asked
        ("What are the main causes of soil erosion, in fewer than 40 words?", "What"),
        ("How do tides work (in two sentences)?", "How"),
        ("Which planets have rings - in a bulleted list?", "Which"),
    ],
)
def test_a_request_is_no_question_about(text: str, word: str) -> None:
    assert not _at(text, word)


def test_a_question_mark_of_the_answer_s_own_phrase_is_no_question() -> None:
    text = "Name three board games. Finish with the exact phrase Is that all for today?"
    doc = parse(text)
    at = text.index("Finish")
    assert asks_about(doc, at)  # read alone, the parser makes the phrase the sentence's question
    assert not asks_about(doc, at, ((text.index("Is that"), len(text)),))


def _lowercase(guard: Guard, query: str) -> list[bool]:
    return [c.tentative for c in guard.inspect(query).constraints if c.verifier == "change_case:english_lowercase"]


def test_the_guard_reads_a_question_about_a_form_as_tentative() -> None:
    guard = Guard(judge=None)
    assert _lowercase(guard, "Is it weird to sign emails in all lowercase?") == [True]
    assert _lowercase(guard, "Can you write the toast in all lowercase?") == [False]


def test_the_same_form_asked_after_the_question_is_asserted() -> None:
    guard = Guard(judge=None)
    query = "Is it weird to sign emails in all lowercase? Either way, write my sign-off in all lowercase."
    assert _lowercase(guard, query) == [False]


def test_a_tentative_constraint_is_satisfied_or_unknown_never_violated() -> None:
    guard = Guard(judge=None)
    query = "Is it odd to text a landlord in all lowercase?"
    fails = guard.check(query, "It is fine, as long as the message is clear and polite.")
    holds = guard.check(query, "it is fine, as long as the message is clear and polite.")
    failed = next(c for c in fails.constraints if c.verifier == "change_case:english_lowercase")
    held = next(c for c in holds.constraints if c.verifier == "change_case:english_lowercase")
    assert failed.tentative and failed.status is Status.UNKNOWN and "tentative" in (failed.reason or "")
    assert held.status is Status.SATISFIED
    assert not [v for v in fails.verdicts if v.kind == "omission"]
    asked = guard.check("Can you text my landlord in all lowercase?", "Dear landlord, the sink leaks.")
    assert next(c for c in asked.constraints if c.verifier == "change_case:english_lowercase").status is (
        Status.VIOLATED
    )


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab ?,;:(-)\u2014Is it you can"), max_size=80), st.integers(0, 100))
def test_asks_about_reads_any_text_and_position(text: str, pos: int) -> None:
    doc = parse(text)
    assert asks_about(doc, pos) in (True, False)


def _tentative(guard: Guard, query: str, verifier: str) -> list[bool]:
    return [c.tentative for c in guard.inspect(query).constraints if c.verifier == verifier]


@pytest.mark.parametrize(
    ("query", "verifier"),
    [
        # a third party's rule, told in a request that orders nothing made
        (
            "A popular blogger says newsletters should be under 300 words. Is that backed by any data?",
            "length_constraints:number_words",
        ),
        (
            "My landlord insists that every notice ends with 'Regards, Building Office'. Is that a legal requirement?",
            "startend:end_checker",
        ),
        # what someone else does
        (
            "My nephew writes all his texts in lowercase and his teachers complain. Why do kids do this?",
            "change_case:english_lowercase",
        ),
        # someone else's words quoted, brought in without asking them of the answer
        (
            'Our club secretary circulated this: "All minutes must be written in French from now on, with no '
            "exceptions for the treasurer's report.\" Half the members do not speak French. Is this fair?",
            "language:response_language",
        ),
    ],
)
def test_others_rules_in_a_request_that_orders_nothing_made_are_tentative(query: str, verifier: str) -> None:
    assert _tentative(Guard(judge=None), query, verifier) == [True]


@pytest.mark.parametrize(
    ("query", "verifier"),
    [
        # relayed for what is made: asked
        (
            "Write a blurb for our bakery's new rye loaf. Our marketing lead says the word 'crusty' has to appear "
            "at least twice.",
            "keywords:frequency",
        ),
        (
            "Draft the minutes of Tuesday's meeting. Our club secretary circulated this: \"All minutes must be "
            "written in French from now on, with no exceptions for the treasurer's report.\"",
            "language:response_language",
        ),
        # a quotation brought in by an order to the reader
        (
            'Follow this house rule for the caption: "Every caption must be written entirely in lowercase letters, '
            'with no capitals anywhere at all." The photo shows a heron.',
            "change_case:english_lowercase",
        ),
        # the request's own words about the answer
        (
            "The reply goes straight into a form that cannot take commas, so leave every comma out.",
            "punctuation:no_comma",
        ),
    ],
)
def test_rules_asked_of_the_answer_stay_asserted(query: str, verifier: str) -> None:
    assert _tentative(Guard(judge=None), query, verifier) == [False]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Write a limerick about a goat.", True),
        ("Could you draft a note to the plumber?", True),
        ("Is a 300 word limit fair?", False),
        ("How would you push back on that rule?", False),
        ("Don't ask me why. Is it normal?", False),
    ],
)
def test_orders_production(text: str, expected: bool) -> None:
    from faithguard.engine.asking import orders_production

    assert orders_production(parse(text)) is expected


def test_a_quotation_followed_by_an_order_to_the_answer_is_asked() -> None:
    query = (
        'Here is the news from our club: "Our spring fair raised more money than any year before, thanks to '
        'the bake stall and the raffle, and the committee wants to thank every volunteer." The response should '
        "contain at least 3 sentences."
    )
    assert _tentative(Guard(judge=None), query, "length_constraints:number_sentences") == [False]


@pytest.mark.parametrize(
    ("query", "verifier"),
    [
        # the answer named as a definite text, a clause with "you" doing it, a judgement that names the answer
        ("Could your summary be under 60 words? Explain how vaccines work.", "length_constraints:number_words"),
        ("Is it okay if you keep the reply under 40 words? What causes thunder?", "length_constraints:number_words"),
        ("Would it be possible to get the entire reply in Italian? I'm learning.", "language:response_language"),
        # a capitalised imperative the tagger reads as a name, after a question of the request's own
        (
            "Does coffee stunt growth? Respond only with 'My answer is yes.', 'My answer is no.', or "
            "'My answer is maybe.'",
            "detectable_format:constrained_response",
        ),
    ],
)
def test_requests_phrased_around_a_question_stay_asserted(query: str, verifier: str) -> None:
    assert _tentative(Guard(judge=None), query, verifier) == [False]


@pytest.mark.parametrize(
    ("query", "verifier"),
    [
        ("Would it be odd if my eulogy were in all lowercase?", "change_case:english_lowercase"),
        ("Can a haiku be written in all caps and still count as a haiku?", "change_case:english_capital"),
        ("Someone told me cover letters must stay under 250 words. Is that true?", "length_constraints:number_words"),
        ("Is it seen as rude to reply in German to Swiss bank staff?", "language:response_language"),
        # a short quotation of someone else's rule, in a request that only asks
        (
            'Our handbook says: "End every email with Kind regards." Is that too stiff for a startup?',
            "startend:end_checker",
        ),
        (
            'My coach wrote "answer in under 20 words" on the whiteboard. Why would he do that?',
            "length_constraints:number_words",
        ),
    ],
)
def test_questions_judgements_and_hearsay_stay_tentative(query: str, verifier: str) -> None:
    assert _tentative(Guard(judge=None), query, verifier) == [True]


@pytest.mark.parametrize(
    ("query", "verifier"),
    [
        # a rule the answer is to pass on to others (its telling verb has no subject of its own)
        (
            "Compose a message asking the volunteers to keep their shift reports under 80 words.",
            "length_constraints:number_words",
        ),
        (
            "Draft a memo telling the sales team that every quote must end with the phrase Valid for 30 days.",
            "startend:end_checker",
        ),
        (
            "Tell my flatmate, kindly, that her fridge notes should have at most 3 bullet points.",
            "detectable_format:number_bullet_lists",
        ),
    ],
)
def test_a_rule_the_answer_passes_on_is_tentative(query: str, verifier: str) -> None:
    assert _tentative(Guard(judge=None), query, verifier) == [True]


@pytest.mark.parametrize(
    ("query", "verifier"),
    [
        ("Describe the harbour at dawn in under 90 words.", "length_constraints:number_words"),
        # a rule relayed to the user, for what the answer makes: asked
        (
            "My editor told me blurbs should be under 70 words. Write one for my mystery novel.",
            "length_constraints:number_words",
        ),
        (
            "Write an email to my team in under 120 words telling them the office is closed on Friday.",
            "length_constraints:number_words",
        ),
    ],
)
def test_a_form_of_the_answer_itself_is_asserted(query: str, verifier: str) -> None:
    assert _tentative(Guard(judge=None), query, verifier) == [False]


@pytest.mark.parametrize(
    ("query", "verifier"),
    [
        # a judgement whose clause names the answer, whatever the adjective
        ("Is it possible to get the reply in all caps? Name three volcanoes.", "change_case:english_capital"),
        ("Is it possible to have the response end with 'Bye for now'? Describe a lynx.", "startend:end_checker"),
        ("Tell me about comets. Is it fine to keep it under 45 words?", "length_constraints:number_words"),
        # the idiom of asking, and a reminder put as a negated question
        ("Could we get 4 bullet points on why hydration matters?", "detectable_format:number_bullet_lists"),
        ("Didn't I ask for all lowercase? Redo the slogan.", "change_case:english_lowercase"),
        # a mark shown in quotes is nobody's words
        (
            "Format: 3 bullet points (markdown '* ').\nQuestion: what are the uses of basalt?",
            "detectable_format:number_bullet_lists",
        ),
    ],
)
def test_polite_and_indirect_requests_stay_asserted(query: str, verifier: str) -> None:
    assert _tentative(Guard(judge=None), query, verifier) == [False]


@pytest.mark.parametrize(
    ("query", "verifier"),
    [
        ("Is it fine to use all caps in a road sign?", "change_case:english_capital"),
        ("Is it normal to write a resignation letter in under 50 words?", "length_constraints:number_words"),
    ],
)
def test_a_judgement_about_a_practice_stays_tentative(query: str, verifier: str) -> None:
    assert _tentative(Guard(judge=None), query, verifier) == [True]


@pytest.mark.parametrize(
    ("query", "verifier", "tentative"),
    [
        # a form with no parameter, found by the detectors only inside the rule passed on
        (
            "Write a memo telling the interns that expense reports must be in all caps.",
            "change_case:english_capital",
            True,
        ),
        ("Draft a note telling volunteers that sign-up sheets must not contain commas.", "punctuation:no_comma", True),
        # the answer's own order coordinated after the rule
        (
            "Write a memo telling the interns that expense reports must be in all caps, and write the memo itself "
            "in all caps too.",
            "change_case:english_capital",
            False,
        ),
        ("Write an email in all caps telling the team that the meeting moved.", "change_case:english_capital", False),
    ],
)
def test_forms_without_parameters_in_rules_passed_on(query: str, verifier: str, tentative: bool) -> None:
    assert _tentative(Guard(judge=None), query, verifier) == [tentative]
