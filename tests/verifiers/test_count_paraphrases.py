"""Counts, bans and markers in other words than IFEval's. Sentences written for this project."""

from __future__ import annotations

import pytest

from faithguard.verifiers import detect


def _found(text: str) -> dict[str, dict[str, object]]:
    return {s.verifier: dict(s.params) for s in detect(text)}


@pytest.mark.parametrize(
    ("text", "verifier", "params"),
    [
        (
            "Recap the match. 3 sentences max.",
            "length_constraints:number_sentences",
            {"relation": "less than", "num_sentences": 4},
        ),
        ("Pitch it in 120 words tops.", "length_constraints:number_words", {"relation": "less than", "num_words": 121}),
        (
            "Describe the lake, 80 words maximum.",
            "length_constraints:number_words",
            {"relation": "less than", "num_words": 81},
        ),
        ("List the perks, 4 bullet points minimum.", "detectable_format:number_bullet_lists", {"num_bullets": 4}),
        (
            "Summarize the plot in 6 sentences at most.",
            "length_constraints:number_sentences",
            {"relation": "less than", "num_sentences": 7},
        ),
    ],
)
def test_a_bound_after_the_unit_is_read(text: str, verifier: str, params: dict[str, object]) -> None:
    assert _found(text).get(verifier) == params


def test_a_bound_before_a_number_of_something_else_is_not_the_count_s() -> None:
    found = _found("Write 3 paragraphs, at most one of which quotes the mayor.")
    assert "length_constraints:number_words" not in found
    assert all(p.get("relation") != "less than" for p in found.values())


def test_a_counted_word_noun_names_no_keyword() -> None:
    found = _found("Use 90 words maximum for the blurb.")
    assert "keywords:existence" not in found
    assert found.get("length_constraints:number_words") == {"relation": "less than", "num_words": 91}


def test_a_frequency_ends_an_unquoted_keyword() -> None:
    found = _found("Use the word serendipity twice.")
    assert found.get("keywords:frequency", {}).get("keyword") == "serendipity"


@pytest.mark.parametrize("text", ["Rewrite the note with zero commas.", "Send it back with 0 commas, please."])
def test_zero_commas_bans_commas(text: str) -> None:
    assert "punctuation:no_comma" in _found(text)


def test_a_question_about_zero_commas_bans_nothing() -> None:
    assert "punctuation:no_comma" not in _found("Why do some poets use zero commas?")


@pytest.mark.parametrize(
    ("text", "marker"),
    [("Thank the team. End with a PS: remind them about Friday.", "PS"), ("Close with a P.S. about pizza.", "P.S.")],
)
def test_a_postscript_marker_before_a_colon(text: str, marker: str) -> None:
    assert _found(text).get("detectable_content:postscript") == {"postscript_marker": marker}


@pytest.mark.parametrize("text", ["My PS: it will not boot.", "Is the PS5 worth it: yes or no?"])
def test_other_ps_are_no_postscript(text: str) -> None:
    assert "detectable_content:postscript" not in _found(text)


def test_a_json_rule_told_of_someone_s_code_is_no_constraint() -> None:
    assert "detectable_format:json_format" not in _found("My endpoint's reply must be valid JSON. Why does it fail?")


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("Write a flyer for the fair and bold at least 3 key details with markdown.", 3),
        ("Italicize exactly two book titles in the review.", 2),
        ("Highlight the 4 main risks with markdown.", 4),
        ("Describe the trip in 200 words, and mark at least 3 place names in *italics*.", 3),
        # joined highlighting verbs: the count is the object of the last one
        ("Write a product blurb and bold or italicize at least five selling points with markdown.", 5),
        ("Highlight and/or italicize two warnings in the safety note (markdown).", 2),
    ],
)
def test_a_highlight_count_as_the_verb_s_object_or_in_its_own_clause(text: str, n: int) -> None:
    assert _found(text).get("detectable_format:number_highlighted_sections") == {"num_highlights": n}


@pytest.mark.parametrize("text", ["Write a bold 3-act play.", "Emphasize 2 points about safety in the talk."])
def test_no_markup_named_no_highlights(text: str) -> None:
    assert "detectable_format:number_highlighted_sections" not in _found(text)


def test_a_count_after_another_verb_joined_by_and_is_that_verb_s() -> None:
    found = _found("Bold and italicize the title in markdown, and write 3 paragraphs about tides.")
    assert found.get("detectable_format:number_highlighted_sections") == {"num_highlights": 1}


def test_a_count_of_another_ask_is_not_the_highlights() -> None:
    found = _found("Write 300 words about tides and highlight the key idea in bold.")
    assert found.get("detectable_format:number_highlighted_sections", {"num_highlights": 1}) == {"num_highlights": 1}


@pytest.mark.parametrize(
    "text",
    [
        "Highlight 1969 as the key year with markdown bold in a short history of Apollo.",
        "Bold 100% of the section titles in markdown.",
    ],
)
def test_a_year_or_a_share_is_no_highlight_count(text: str) -> None:
    assert _found(text).get("detectable_format:number_highlighted_sections") == {"num_highlights": 1}


def test_bracket_slots_after_an_abbreviation_are_counted() -> None:
    text = "Write a lease template with blanks in square brackets, e.g. [landlord], [tenant], [rent]."
    assert _found(text).get("detectable_content:number_placeholders") == {"num_placeholders": 3}


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("Write a product blurb for a kettle; it must not be shorter than 80 words.", 80),
        ("Draft the cover note, and mind it mustn't be shorter than 120 words.", 120),
        ("Describe the festival. Nothing shorter than 250 words, please.", 250),
        ("Tell the story in no shorter than 400 words.", 400),
    ],
)
def test_a_negated_upper_bound_is_a_lower_bound(text: str, n: int) -> None:
    found = [s.params for s in detect(text) if s.verifier == "length_constraints:number_words"]
    assert found == [{"relation": "at least", "num_words": n}]


def test_a_contracted_negated_bound() -> None:
    found = [s.params for s in detect("Summarise the plot. It shouldn't be longer than 90 words.")]
    assert found == [{"relation": "less than", "num_words": 91}]


@pytest.mark.parametrize(
    ("text", "verifier", "params"),
    [
        # the size said after the list, as a fragment of its own
        (
            "Tips for a first camping trip, as bullets, a dozen.",
            "detectable_format:number_bullet_lists",
            {"num_bullets": 12},
        ),
        (
            "Packing list in bullet points please. Exactly four of them.",
            "detectable_format:number_bullet_lists",
            {"num_bullets": 4},
        ),
        (
            "Give me the pros as bullet points, half a dozen.",
            "detectable_format:number_bullet_lists",
            {"num_bullets": 6},
        ),
        # the unit said after the count, as a clarifying fragment
        (
            "Describe the harbour at dawn. Ten is the maximum. Sentences, to be clear.",
            "length_constraints:number_sentences",
            {"relation": "less than", "num_sentences": 11},
        ),
        (
            "Describe the harbour at dawn. At most twelve. Sentences, to be clear.",
            "length_constraints:number_sentences",
            {"relation": "less than", "num_sentences": 13},
        ),
        (
            "Write the toast for my sister. No fewer than 150. Words, I mean.",
            "length_constraints:number_words",
            {"relation": "at least", "num_words": 150},
        ),
    ],
)
def test_a_count_said_apart_from_its_unit(text: str, verifier: str, params: dict[str, object]) -> None:
    assert _found(text).get(verifier) == params


@pytest.mark.parametrize(
    ("text", "verifier", "params"),
    [
        (
            "Retell the fable. Sentences - six at most.",
            "length_constraints:number_sentences",
            {"relation": "less than", "num_sentences": 7},
        ),
        (
            "Ideas for a rainy day, as bullets, four exactly.",
            "detectable_format:number_bullet_lists",
            {"num_bullets": 4},
        ),
        (
            "Describe the storm. At least 40 - words, not letters.",
            "length_constraints:number_words",
            {"relation": "at least", "num_words": 40},
        ),
    ],
)
def test_a_count_set_off_by_a_dash_or_followed_by_its_bound(
    text: str, verifier: str, params: dict[str, object]
) -> None:
    assert _found(text).get(verifier) == params


@pytest.mark.parametrize(
    "text",
    [
        "Use bullet points, 3 of which should be in bold.",  # the count is of something else
        "Name 4 rivers. Words, places and people are all fine as topics.",  # a list after a number, no unit
        "My flat is number 12. Words cannot describe the view.",  # a number, then a sentence opening with the unit
    ],
)
def test_a_number_beside_a_unit_is_not_always_its_count(text: str) -> None:
    found = _found(text)
    assert "detectable_format:number_bullet_lists" not in found or "bold" in text
    assert "length_constraints:number_words" not in found


@pytest.mark.parametrize(
    ("text", "verifier", "params"),
    [
        # an upper bound by negating exceeding or the comparative, as the lower bounds already were
        (
            "Draft the bio. It shouldn't exceed 90 words.",
            "length_constraints:number_words",
            {"relation": "less than", "num_words": 91},
        ),
        (
            "A toast for Ana, nothing longer than 4 sentences.",
            "length_constraints:number_sentences",
            {"relation": "less than", "num_sentences": 5},
        ),
        # an adjective of falling short (WordNet's insufficient cluster)
        (
            "Explain tides, keeping it shy of six sentences.",
            "length_constraints:number_sentences",
            {"relation": "less than", "num_sentences": 6},
        ),
        (
            "A cover note just short of 120 words.",
            "length_constraints:number_words",
            {"relation": "less than", "num_words": 120},
        ),
    ],
)
def test_negated_and_falling_short_bounds(text: str, verifier: str, params: dict[str, object]) -> None:
    assert _found(text).get(verifier) == params


@pytest.mark.parametrize("text", ["Pick each of 3 words from the list.", "Make a list of 10 words about rain."])
def test_of_before_a_count_is_not_a_bound(text: str) -> None:
    assert "length_constraints:number_words" not in _found(text)


@pytest.mark.parametrize(
    "text",
    ["Name four moons. Your answer should be plain JSON.", "Sort these cities. I want the entire reply to be JSON."],
)
def test_the_answer_said_to_be_json(text: str) -> None:
    assert "detectable_format:json_format" in _found(text)


@pytest.mark.parametrize(
    "text",
    [
        "Why must the output be JSON in this pipeline?",
        "My API output must be valid JSON but the parser fails.",
        "Our style guide says the answer must be JSON, which I find odd.",  # someone else's rule, reported
    ],
)
def test_json_asked_about_or_of_another_output(text: str) -> None:
    assert "detectable_format:json_format" not in _found(text)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Write the flyer and end it with 'Don't be late!' please.", "Don't be late!"),
        ("Close the note with 'That's a wrap' and nothing after it.", "That's a wrap"),
    ],
)
def test_an_apostrophe_inside_a_single_quoted_phrase_is_kept(text: str, phrase: str) -> None:
    assert _found(text).get("startend:end_checker") == {"end_phrase": phrase}


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        # a remark after an unquoted end phrase that nothing may follow it (paraphrase study #6)
        (
            "Draft the closing notice; it must end with the exact phrase STAY SAFE OUT THERE — no words after that.",
            "STAY SAFE OUT THERE",
        ),
        ("Write a toast and finish with the line Here's to us, and nothing more.", "Here's to us"),
        # a tag named by its kind (paraphrase study #6)
        (
            "Write a tweet for our bakery's birthday and end with the hashtag #TenYearsOfCrumbs, nothing after it.",
            "#TenYearsOfCrumbs",
        ),
        # negatives: a negative word that is the phrase's own
        ("Write a bedtime story and end with the words No more monsters tonight.", "No more monsters tonight."),
        ("Write a speech and end with the phrase Nothing else matters.", "Nothing else matters."),
        ("Write a post and end with Thanks for reading, no spam ever.", "Thanks for reading, no spam ever."),
    ],
)
def test_an_unquoted_end_phrase_loses_what_only_describes_it(text: str, phrase: str) -> None:
    assert _found(text).get("startend:end_checker") == {"end_phrase": phrase}


@pytest.mark.parametrize(
    ("text", "params"),
    [
        (
            "Plan my revision. Title the blocks 'Block 1', 'Block 2', 'Block 3' and 'Block 4'.",
            {"section_spliter": "Block", "num_sections": 4},
        ),
        (
            "Mark the stages Stage 1, Stage 2 or Stage 3 in bold headings.",
            {"section_spliter": "Stage", "num_sections": 3},
        ),
        # the labels in lower case after the cue, and a range of labels (paraphrase study #6)
        (
            "Give me a study plan for my exams, split into four parts labelled unit 1, unit 2, unit 3 and unit 4.",
            {"section_spliter": "unit", "num_sections": 4},
        ),
        (
            "Plan a revision month for my class. Mark each part as Phase 1 through Phase 3, and keep it light.",
            {"section_spliter": "Phase", "num_sections": 3},
        ),
        ("Outline my novel's acts, headed Act 1 to Act 3.", {"section_spliter": "Act", "num_sections": 3}),
    ],
)
def test_section_labels_listed_in_full_give_the_count(text: str, params: dict[str, object]) -> None:
    assert _found(text).get("detectable_format:multiple_sections") == params


@pytest.mark.parametrize(
    "text",
    [
        "We fly out on Day 1, hike on Day 2 and rest on Day 3. Any packing tips?",  # no labelling cue: content
        "Label them Phase 1, Phase 2, and so on.",  # trails off: no count stated
        "Title them Level 1, Level 3, Level 4.",  # numbers that do not run 1, 2, 3
        "We hike on day 1, day 2 and day 3 of the trip; what should I pack?",  # lower case, no cue
        "Our camp runs from Week 1 through Week 4; describe what kids might do.",  # a range with no labelling cue
        "Summarize chapter 1 through chapter 3 of the book, then mark the key themes.",  # the cue after the range
        "Title the summary by its scope: Chapter 1 to Chapter 40.",  # a range too long to be the headers
    ],
)
def test_listed_labels_that_state_no_count(text: str) -> None:
    assert "detectable_format:multiple_sections" not in _found(text)


@pytest.mark.parametrize(
    "text", ["Write the limerick and skip the commas.", "Leave out all commas, please.", "Ditch every comma in it."]
)
def test_a_verb_of_omission_bans_commas(text: str) -> None:
    assert "punctuation:no_comma" in _found(text)


@pytest.mark.parametrize("text", ["Use commas sparingly in the essay.", "Add commas where the pauses fall."])
def test_other_verbs_before_commas_ban_nothing(text: str) -> None:
    assert "punctuation:no_comma" not in _found(text)


@pytest.mark.parametrize(
    "text",
    [
        "My sermon closes with 'Go in peace.' Is that old-fashioned?",  # how the user's text ends, told
        "Write a hymn whose last verse ends with 'Amen, amen.'",  # a part of the text, in a relative clause
        "We always finish our calls with 'Talk soon' and I wonder why.",  # the user's habit
    ],
)
def test_an_ending_told_of_something_is_no_end_phrase(text: str) -> None:
    assert "startend:end_checker" not in _found(text)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Make sure the reply ends with 'See you Friday.'", "See you Friday."),
        ("Close the letter with 'Warm regards, Ines'.", "Warm regards, Ines"),
    ],
)
def test_an_ending_asked_is_an_end_phrase(text: str, phrase: str) -> None:
    assert _found(text).get("startend:end_checker") == {"end_phrase": phrase}


@pytest.mark.parametrize(
    "text", ["I'm just short of 300 words on my report. What could I add?", "My draft came in shy of 90 words."]
)
def test_falling_short_said_of_the_users_own_text_asks_nothing(text: str) -> None:
    assert "length_constraints:number_words" not in _found(text)
