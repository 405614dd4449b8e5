"""Fresh paraphrases of IFEval-style instructions (written for this project, not from any eval set).

Each names the IFEval id it must yield; a companion list of plain requests must yield nothing.
"""

from __future__ import annotations

import pytest

from faithguard.verifiers import detect

PARAPHRASES = [
    ("Answer with a yes or no, phrased as 'My answer is yes.' or similar.", "detectable_format:constrained_response"),
    (
        "Reply using one of: My answer is yes., My answer is no., My answer is maybe.",
        "detectable_format:constrained_response",
    ),
    ("What causes tides? Before answering, repeat my question word for word.", "combination:repeat_prompt"),
    ("Give two different answers, separated by six asterisks ******.", "combination:two_responses"),
    ("Split your reply into 3 parts, each starting with PART X.", "detectable_format:multiple_sections"),
    (
        "Break the answer into 4 sections labelled SECTION 1, SECTION 2 and so on.",
        "detectable_format:multiple_sections",
    ),
    ("The word 'data' should appear at least 4 times.", "keywords:frequency"),
    ("Make sure to use the keywords 'solar' and 'grid'.", "keywords:existence"),
    ("Avoid the words 'cheap' and 'easy'.", "keywords:forbidden_words"),
    ("The letter z should show up at least 6 times.", "keywords:letter_frequency"),
    ("Describe the Alps. Write it all in German, please.", "language:response_language"),
    ("Please respond using English only and all in lowercase.", "change_case:english_lowercase"),
    ("Use ALL CAPS for the whole answer, in English.", "change_case:english_capital"),
    ("Words in all capital letters should appear fewer than 3 times.", "change_case:capital_word_frequency"),
    ("Your reply should be under 5 sentences long.", "length_constraints:number_sentences"),
    ("Write at least 300 words.", "length_constraints:number_words"),
    ("Use four paragraphs; paragraphs are separated by ***.", "length_constraints:number_paragraphs"),
    (
        "Write 3 paragraphs separated by two newlines, and the second paragraph must start with the word 'However'.",
        "length_constraints:nth_paragraph_first_word",
    ),
    ("Use at least 2 placeholders like [name].", "detectable_content:number_placeholders"),
    ("At the very end, add a postscript that begins with P.S.", "detectable_content:postscript"),
    ("Format your answer as exactly 4 markdown bullet points, like * this.", "detectable_format:number_bullet_lists"),
    (
        "Mark at least three parts with markdown highlighting, e.g. *important part*.",
        "detectable_format:number_highlighted_sections",
    ),
    ("Give it a title wrapped in double angular brackets, such as <<my title>>.", "detectable_format:title"),
    ("Put your entire answer inside double quotation marks.", "startend:quotation"),
    ("Conclude with the exact sentence 'Hope this helps.' and nothing after it.", "startend:end_checker"),
    ("Do not use a single comma anywhere in your reply.", "punctuation:no_comma"),
    ("Return the whole output in JSON format; you may use markdown ticks.", "detectable_format:json_format"),
    ("Keep the reply short: no more than 40 words.", "length_constraints:number_words"),
    ("Respond in fewer than fifty words.", "length_constraints:number_words"),
    ("Your answer must not exceed 3 sentences.", "length_constraints:number_sentences"),
]

PLAIN = [
    "What is the capital of France?",
    "Write a story about a dog who loves the beach.",
    "Explain why the sky is blue to a child.",
    "Compare Python and Java for beginners.",
    "My essay has three paragraphs. Which is weakest?",
    "Translate this German sentence into English: Guten Morgen.",
    "Write about the history of the French language.",
]


@pytest.mark.parametrize(("query", "verifier"), PARAPHRASES)
def test_paraphrase_is_recognised(query: str, verifier: str) -> None:
    assert verifier in {s.verifier for s in detect(query)}


@pytest.mark.parametrize("query", PLAIN)
def test_plain_request_has_no_verifiable_constraint(query: str) -> None:
    assert detect(query) == []


# The count of highlighted sections may come before the verb's own form; the parameter, not only the id, is checked.
@pytest.mark.parametrize(
    ("query", "n"),
    [
        ("Use at least 3 highlighted sections with markdown.", 3),
        ("Include two italicized parts in markdown, such as *this*.", 2),
        ("Highlight at least 4 sections with markdown, i.e. *highlighted section*.", 4),
    ],
)
def test_highlight_count_before_or_after_the_verb(query: str, n: int) -> None:
    found = [
        s.params["num_highlights"]
        for s in detect(query)
        if s.verifier == "detectable_format:number_highlighted_sections"
    ]
    assert found == [n]


def test_words_described_by_their_case_are_not_a_keyword_list() -> None:
    # negative: "with" of "words with all capital letters" is no keyword; positive: a real keyword list stays
    ids = {s.verifier: s.params for s in detect("Words with all capital letters should appear at least 4 times.")}
    assert "keywords:frequency" not in ids and ids["change_case:capital_word_frequency"]["capital_frequency"] == 4
    kept = {s.verifier: s.params for s in detect("Include the words with and without in your poem.")}
    assert kept["keywords:existence"]["keywords"] == ["with", "without"]


# Paraphrase classes found on the study paraphrase set; each fixture written here (not copied from the set).
@pytest.mark.parametrize(
    ("query", "params"),
    [
        # the verb first, paragraphs split by blank lines (IFEval's reading)
        (
            "Four paragraphs on glaciers, with blank lines between them. Begin the 3rd paragraph with 'Today'.",
            {"num_paragraphs": 4, "nth_paragraph": 3, "first_word": "today"},
        ),
        (
            "Two paragraphs, separated by a line break; open paragraph 2 with the word Finally.",
            {"num_paragraphs": 2, "nth_paragraph": 2, "first_word": "finally"},
        ),
        # "one" standing for the paragraph; the quote mark is not part of the word
        (
            'Give me three paragraphs split by two newlines, and the second one must start with "Luckily".',
            {"num_paragraphs": 3, "nth_paragraph": 2, "first_word": "luckily"},
        ),
        (
            "Three paragraphs separated by blank lines, and the 1st paragraph should begin with 'Ocean'.",
            {"num_paragraphs": 3, "nth_paragraph": 1, "first_word": "ocean"},
        ),
        # the verb as a participle after "with" (paraphrase study #6)
        (
            "Write a cover letter. It needs at least three hundred words, in four paragraphs separated by blank "
            "lines, with the first paragraph starting with 'Honestly'.",
            {"num_paragraphs": 4, "nth_paragraph": 1, "first_word": "honestly"},
        ),
        (
            "Give me 3 paragraphs about tea, separated by blank lines, the second paragraph beginning with the word "
            "Steeping.",
            {"num_paragraphs": 3, "nth_paragraph": 2, "first_word": "steeping"},
        ),
    ],
)
def test_paragraph_first_word_in_other_orders(query: str, params: dict[str, object]) -> None:
    found = [s.params for s in detect(query) if s.verifier == "length_constraints:nth_paragraph_first_word"]
    assert found == [params]
    assert not any(s.verifier == "keywords:existence" for s in detect(query))  # the first word is no keyword


def test_a_participle_start_told_of_the_user_s_own_text_asks_nothing() -> None:
    query = "I wrote 3 paragraphs with the first paragraph starting with 'Once'. Is that a cliché?"
    assert "length_constraints:nth_paragraph_first_word" not in {s.verifier for s in detect(query)}


def test_without_blank_lines_a_verb_first_paragraph_start_stays_per_unit() -> None:
    query = "Write two paragraphs about bees. Begin paragraph 2 with the word Honey."
    assert "length_constraints:nth_paragraph_first_word" not in {s.verifier for s in detect(query)}


@pytest.mark.parametrize(
    ("query", "verifier", "key", "n"),
    [
        (
            "Draft a lease with placeholders like [tenant], at least 6 of them.",
            "detectable_content:number_placeholders",
            "num_placeholders",
            6,
        ),
        (
            "Add placeholders in square brackets (minimum 3) for the names.",
            "detectable_content:number_placeholders",
            "num_placeholders",
            3,
        ),
        (
            "Italicize five or more of the key terms with markdown.",
            "detectable_format:number_highlighted_sections",
            "num_highlights",
            5,
        ),
    ],
)
def test_a_bound_stated_apart_from_its_unit(query: str, verifier: str, key: str, n: int) -> None:
    assert [s.params[key] for s in detect(query) if s.verifier == verifier] == [n]


def test_two_bounds_in_the_sentence_leave_the_default() -> None:
    query = "Use placeholders like [x], at least 2 per person and at least 5 overall."
    assert [
        s.params["num_placeholders"] for s in detect(query) if s.verifier == "detectable_content:number_placeholders"
    ] == [1]


def test_negations_typed_without_the_apostrophe() -> None:
    ids = {s.verifier: s.params for s in detect("Describe autumn but dont use the words orange or leaves.")}
    assert ids["keywords:forbidden_words"]["forbidden_words"] == ["orange", "leaves"]
    assert "keywords:existence" not in ids


def test_a_comma_after_the_noun_opens_no_keyword_list() -> None:
    query = "Three short paragraphs, separated with an empty line, no dividers please."
    assert "keywords:existence" not in {s.verifier for s in detect(query)}


@pytest.mark.parametrize(
    ("query", "prompt"),
    [
        # a verb of copying with a word saying the copy is exact
        (
            "Describe a lighthouse at dusk. First copy my request exactly as I typed it, then answer.",
            "Describe a lighthouse at dusk.",
        ),
        ("Explain how tides work. Begin by restating this request verbatim.", "Explain how tides work."),
        # the request after a colon in the same sentence, and a label naming it
        (
            "Repeat the following question exactly as written, then answer it: Why is the sky blue?",
            "Why is the sky blue?",
        ),
        ("Repeat my request word for word, then answer. Question: What do bees eat?", "What do bees eat?"),
        # an inflected verb of repeating; the request after the colon of an instruction that is the whole text
        (
            "Open by repeating the following request unchanged, and only then reply: Name two moons of Mars.",
            "Name two moons of Mars.",
        ),
        ("Repeat this request first, then answer it briefly: Where do puffins nest?", "Where do puffins nest?"),
        # a longer label whose noun is the one the instruction used for the text
        ("Copy my question word for word before you answer. My question: Why do owls hoot?", "Why do owls hoot?"),
        # a label that is a clause with a copula or a contraction (paraphrase study #6)
        (
            "Say the question back to me exactly as I asked it, word for word, then reply. The question is: Why do "
            "cats purr?",
            "Why do cats purr?",
        ),
        (
            "Copy my question word for word before answering it. Here's the question: How are rainbows formed?",
            "How are rainbows formed?",
        ),
        # a label after the instruction names the text even with words before it (paraphrase study #6) ...
        (
            "Help me get ready for a quiz about volcanoes — what makes a volcano erupt? Repeat my question word for "
            "word first, then answer. Question: What makes a volcano erupt?",
            "What makes a volcano erupt?",
        ),
        # ... but a label with another noun does not
        (
            "Why do leaves change colour? Repeat my question word for word, then answer. Note: keep it short.",
            "Why do leaves change colour?",
        ),
    ],
)
def test_repeat_the_request_in_other_words(query: str, prompt: str) -> None:
    found = [s.params["prompt_to_repeat"] for s in detect(query) if s.verifier == "combination:repeat_prompt"]
    assert found == [prompt]


@pytest.mark.parametrize(
    "query",
    [
        "Rewrite this paragraph exactly as a lawyer would.",  # rewriting changes the text
        "Copy the table exactly into your notes.",  # nothing about the request
        "My song keeps repeating the chorus. Is that a problem for radio play?",  # repeating something else
    ],
)
def test_copying_something_else_is_not_repeating_the_request(query: str) -> None:
    assert "combination:repeat_prompt" not in {s.verifier for s in detect(query)}


@pytest.mark.parametrize(
    "query",
    [
        "How do I wrap every cell of a CSV in double quotes with Python?",
        "Why do people end emails with a P.S. at the end?",
        "What does markdown do with *** on its own line?",
        'My grandpa always answers "My answer is maybe." Is that polite?',
    ],
)
def test_questions_about_form_and_quoted_options_are_not_instructions(query: str) -> None:
    assert detect(query) == []


@pytest.mark.parametrize(
    ("query", "verifier", "params"),
    [
        (
            "How would you describe Lisbon in fewer than 40 words?",
            "length_constraints:number_words",
            {"relation": "less than", "num_words": 40},
        ),  # "you": the reader is asked to write
        ("Reply only with My answer is yes. or My answer is no.", "detectable_format:constrained_response", {}),
        (
            "The poem must not be longer than six sentences.",
            "length_constraints:number_sentences",
            {"relation": "less than", "num_sentences": 7},
        ),
        ("Plan a picnic. The reply should be formatted as JSON.", "detectable_format:json_format", {}),
        (
            "Write a memo.\nMust have:\n* a P.S. at the bottom with the date",
            "detectable_content:postscript",
            {"postscript_marker": "P.S."},
        ),
        (
            "Packing tips, bullet list - exactly five items.",
            "detectable_format:number_bullet_lists",
            {"num_bullets": 5},
        ),
        ("SHOUT THE WHOLE ANSWER IN CAPS.", "change_case:english_capital", {}),
        (
            "Use a few capitalized words for emphasis, but fewer than 3 of them.",
            "change_case:capital_word_frequency",
            {"capital_relation": "less than", "capital_frequency": 3},
        ),
    ],
)
def test_more_paraphrase_classes(query: str, verifier: str, params: dict[str, object]) -> None:
    assert params in [s.params for s in detect(query) if s.verifier == verifier]


def test_capitalized_is_not_italicized_and_own_lists_are_not_asked() -> None:
    # "itali" inside "capitalized" read as a highlight request; a list the user already has is no instruction
    assert "detectable_format:number_highlighted_sections" not in {
        s.verifier for s in detect("Use capitalized words for emphasis.")
    }
    assert detect("I have a bullet list of 9 items already; tighten each one.") == []


# Regressions the closing review found in the classes above (sentences of our own, same kinds).
@pytest.mark.parametrize(
    "query",
    [
        "Name the capital of Peru, all in lowercase letters.",
        "Pitch our venture capital fund in lowercase only.",
        "Describe the upper deck of the ferry in lowercase letters.",
        "Reply in lowercase; capital letters are not allowed.",
    ],
)
def test_a_capital_that_is_no_case_leaves_lowercase(query: str) -> None:
    assert "change_case:english_lowercase" in {s.verifier for s in detect(query)}


@pytest.mark.parametrize(
    ("query", "verifier"),
    [
        ("What do owls eat (answer in exactly 4 bullet points)?", "detectable_format:number_bullet_lists"),
        ("How do volcanoes form, in fewer than 60 words?", "length_constraints:number_words"),
        ("Why do leaves fall - answer in all lowercase letters?", "change_case:english_lowercase"),
    ],
)
def test_an_instruction_set_inside_a_question_is_read(query: str, verifier: str) -> None:
    assert verifier in {s.verifier for s in detect(query)}


@pytest.mark.parametrize(
    "query",
    [
        "Write a menu with placeholders like [dish], at least 120 words long.",
        "Design a seating card with placeholders in brackets for at least 30 guests.",
    ],
)
def test_a_bound_on_something_else_is_not_the_placeholder_count(query: str) -> None:
    counts = [
        s.params["num_placeholders"] for s in detect(query) if s.verifier == "detectable_content:number_placeholders"
    ]
    assert counts == [1]


@pytest.mark.parametrize(
    "query",
    [
        "Can you restate the proof exactly as the book does? It is Euclid's.",
        "Write a play where the parrot must reproduce the insult verbatim. Keep it light.",
        "The docs say the response must be valid JSON, yet my call fails. Why?",
        "Should the output be JSON or CSV for a spreadsheet import?",
        "Grandma always signed off with P.S. Write her a thank-you note.",
        "Tell me about bullet journals and give 4 points about habits.",
    ],
)
def test_near_misses_of_the_new_readings_stay_plain_requests(query: str) -> None:
    found = {s.verifier for s in detect(query)}
    assert not found & {
        "combination:repeat_prompt",
        "detectable_format:json_format",
        "detectable_content:postscript",
        "detectable_format:number_bullet_lists",
    }


@pytest.mark.parametrize(
    "query",
    [
        "Should I put my email subject lines in all caps?",
        "How many placeholders can a mail-merge template hold?",
        "Is my essay too long at 900 words?",
        "Do we need a P.S. at the end of a sales email?",
    ],
)
def test_questions_about_the_askers_own_writing_are_not_instructions(query: str) -> None:
    assert detect(query) == []


@pytest.mark.parametrize(
    ("query", "verifier"),
    [
        ("Can I get the answer in all lowercase letters?", "change_case:english_lowercase"),
        ("Could the reply be in JSON?", "detectable_format:json_format"),
        ("Can you keep it under 80 words?", "length_constraints:number_words"),
    ],
)
def test_requests_phrased_as_questions_stay_instructions(query: str, verifier: str) -> None:
    assert verifier in {s.verifier for s in detect(query)}


@pytest.mark.parametrize(
    ("query", "verifier", "params"),
    [
        # a count of things joined to the format cue by a preposition
        (
            "Describe your morning routine and mark at least 4 key habits using markdown highlighting.",
            "detectable_format:number_highlighted_sections",
            {"num_highlights": 4},
        ),
        (
            "Give me exactly 6 reasons to learn Spanish as markdown bullets.",
            "detectable_format:number_bullet_lists",
            {"num_bullets": 6},
        ),
        # a bracketed modifier between the count and its noun
        (
            "Make a party invitation template with at least four [bracketed] placeholders.",
            "detectable_content:number_placeholders",
            {"num_placeholders": 4},
        ),
    ],
)
def test_a_count_joined_to_its_format_cue(query: str, verifier: str, params: dict[str, object]) -> None:
    assert [s.params for s in detect(query) if s.verifier == verifier] == [params]


def test_a_count_another_verb_governs_is_not_the_highlight_count() -> None:
    found = [s.params for s in detect("Write 300 words and highlight the key moments in markdown.")]
    assert {"num_highlights": 300} not in found


def test_a_count_with_no_joining_word_is_not_a_bullet_count() -> None:
    verifiers = {s.verifier for s in detect("Compare 3 laptops in a table, and use bullet points for the pros.")}
    assert "detectable_format:number_bullet_lists" not in verifiers


@pytest.mark.parametrize(
    ("query", "verifier", "params"),
    [
        # the section header shown enumerated, or said to carry its number
        (
            "Organize the notes as Lesson 1, Lesson 2 and so on: three lessons in all.",
            "detectable_format:multiple_sections",
            {"section_spliter": "Lesson", "num_sections": 3},
        ),
        (
            "Plan a road trip in 5 stages, each one opening with 'Stage' followed by its number.",
            "detectable_format:multiple_sections",
            {"section_spliter": "Stage", "num_sections": 5},
        ),
        # a verb of ending for the postscript; the end named as the subject; the first word named as the subject
        (
            "Draft a flyer for the bake sale and wrap up with a P.S. about parking.",
            "detectable_content:postscript",
            {"postscript_marker": "P.S."},
        ),
        (
            'Write me a poem about rivers. The final line should read "and the river runs on."',
            "startend:end_checker",
            {"end_phrase": "and the river runs on."},
        ),
        (
            "Write 3 paragraphs separated by blank lines; the first word of the second paragraph must be 'meanwhile'.",
            "length_constraints:nth_paragraph_first_word",
            {"num_paragraphs": 3, "nth_paragraph": 2, "first_word": "meanwhile"},
        ),
    ],
)
def test_headers_endings_and_first_words_in_other_wording(query: str, verifier: str, params: dict[str, object]) -> None:
    assert [s.params for s in detect(query) if s.verifier == verifier] == [params]


@pytest.mark.parametrize(
    "query",
    [
        "Explain the difference between Phase 1 and Phase 2 trials in 3 paragraphs.",
        "I read Chapter 1 and Chapter 2 last night; what happens next?",
        'What was the last thing he said? I think the final words were "see you soon".',
        "My aunt finished her letter with a P.S. about the dog. Is that old-fashioned?",
    ],
)
def test_enumerations_and_endings_that_are_not_instructions(query: str) -> None:
    found = {s.verifier for s in detect(query)}
    assert not found & {"detectable_format:multiple_sections", "startend:end_checker", "detectable_content:postscript"}


def test_a_ban_on_commas_after_another_ask_about_separators() -> None:
    found = {s.verifier for s in detect("List three fruits separated by slashes, and don't use any commas at all.")}
    assert "punctuation:no_comma" in found
    assert "punctuation:no_comma" not in {s.verifier for s in detect("Don't list the names separated by commas.")}


@pytest.mark.parametrize("verb", ["go beyond", "go over", "go past"])
def test_a_negated_phrasal_verb_of_exceeding_is_an_upper_bound(verb: str) -> None:
    found = [s.params for s in detect(f"Write me a bio that must not {verb} six sentences.")]
    assert {"relation": "less than", "num_sentences": 7} in found


@pytest.mark.parametrize(
    "query",
    [
        "Is it 'lowercase' or 'lower case' in a style guide, and which one do editors prefer?",
        'Should the heading say "ALL CAPS" or "all caps" in our brand guide?',
        "Write a Python script that wraps each line of a file in double quotes.",
    ],
)
def test_form_words_talked_about_or_applied_to_something_else_are_not_asked(query: str) -> None:
    found = {s.verifier for s in detect(query)}
    assert not found & {"change_case:english_lowercase", "change_case:english_capital", "startend:quotation"}


def test_a_capital_word_count_is_read_in_its_own_clause() -> None:
    found = [
        s.params for s in detect("Keep it under 80 words, and use all-caps words sparingly: fewer than 2 of them.")
    ]
    assert {"capital_relation": "less than", "capital_frequency": 2} in found
    assert not any(p.get("capital_frequency") == 80 for p in found)


def test_a_contracted_negation_of_exceeding_is_an_upper_bound() -> None:
    found = [s.params for s in detect("Write a product description that doesn't go beyond 50 words.")]
    assert {"relation": "less than", "num_words": 51} in found


@pytest.mark.parametrize(
    ("query", "verifier"),
    [
        # a comma ban at the end of a list of banned marks
        ("Do not use dashes, semicolons, and commas.", "punctuation:no_comma"),
        # a form asked in quotes, outside any question about words
        ("Respond in 'all lowercase' please, about cats.", "change_case:english_lowercase"),
        # the answer itself wrapped in quotes
        ("Enclose an answer about Paris in double quotes.", "startend:quotation"),
    ],
)
def test_forms_asked_in_lists_and_quotes_stay_asked(query: str, verifier: str) -> None:
    assert verifier in {s.verifier for s in detect(query)}


@pytest.mark.parametrize(
    "query",
    [
        "Explain World War 1 and World War 2 in 2 sections.",
        "In the movie, the last words should be 'Rosebud' according to the script. Explain why.",
        "Write 4 paragraphs separated by blank lines. The first word of the 2nd paragraph should be a verb.",
        "Compare 3 phones in a table with bullets below it.",
        "List 3 pros and 3 cons of remote work as bullet points.",
    ],
)
def test_near_misses_of_the_header_end_first_word_and_count_readings(query: str) -> None:
    found = {s.verifier for s in detect(query)}
    assert not found & {
        "detectable_format:multiple_sections",
        "startend:end_checker",
        "length_constraints:nth_paragraph_first_word",
        "detectable_format:number_bullet_lists",
    }
