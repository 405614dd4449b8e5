"""IFBench's 58 checks: a satisfying and a violating response written for each, plus robustness."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.models import Status
from faithguard.verifiers import check_ifbench, check_ifbench_format, verify
from faithguard.verifiers.ifbench_text import sentences

S, V, U = Status.SATISFIED, Status.VIOLATED, Status.UNKNOWN
IDS = set(check_ifbench.CHECKS.ids()) | set(check_ifbench_format.CHECKS.ids())
_HAS = {m: importlib.util.find_spec(m) is not None for m in ("emoji", "syllapy")}

CSV_CITY = "ID,Country,City,Year,Count\n" + "\n".join(f"{i},Peru,Lima,2020,{i}" for i in range(1, 8))
CSV_SPECIAL = "ProductID,Category,Brand,Price,Stock\n" + "\n".join(
    f'{i},Toys,"Acme & Co",9,{i}' if i == 3 else f"{i},Toys,Acme,9,{i}" for i in range(1, 15)
)
CSV_QUOTES = "\n".join(
    "\t".join(f'"{c}"' for c in row)
    for row in (
        ["StudentID", "Subject", "Grade", "Semester", "Score"],
        *([str(i), "Math", "A", "Fall", "90"] for i in range(3)),
    )
)
MCQ = "\n".join(f"Question {q}: {'Why ' * q}art?\nA. one\nB. two\nC. three\nD. four\nE. five" for q in range(1, 5))

CASES: list[tuple[str, dict[str, Any], str, str]] = [
    ("count:word_count_range", {"min_words": 3, "max_words": 4}, "one two three", "one two"),
    ("count:unique_word_count", {"N": 3}, "red green blue", "red red red"),
    ("ratio:stop_words", {"percentage": 50}, "Cats chase mice.", "It is the one of them."),
    ("ratio:sentence_type", {}, "Cats purr. Dogs bark. Why?", "Cats purr. Why? How?"),
    ("ratio:sentence_balance", {}, "Go. Why? Wow!", "Go. Stay. Why?"),
    ("count:conjunctions", {"small_n": 2}, "Tea and cake, but no milk.", "Tea and cake and milk."),
    ("count:person_names", {"N": 2, "names": ["Ann", "Bo"]}, "Ann met Bo.", "Ann met Cy."),
    ("ratio:overlap", {"reference_text": "abcdef", "percentage": 100}, "abcdef", "uvwxyz"),
    ("count:numbers", {"N": 2}, "I have 3 cats and 4 dogs.", "I have 3 cats."),
    ("words:alphabet", {}, "Apple bakes cold dough.", "Apple cakes."),
    ("words:vowel", {}, "A cat sat.", "A cute dog ran over it."),
    ("words:consonants", {}, "strong black trucks", "strong a trucks"),
    ("sentence:alliteration_increment", {}, "No way. Big bold bears. Six silly snakes slither.", "Big bold. No way."),
    (
        "words:palindrome",
        {},
        " ".join(["level", "radar", "civic", "kayak", "refer", "rotor", "stats", "tenet", "madam", "sagas"]),
        "level radar",
    ),
    ("count:punctuation", {}, "Wait?! Yes, this; that: done. Why? Wow!", "Wait. Yes, this."),
    ("format:parentheses", {}, "a (b [c {d (e [f] e) d} c] b) a", "a (b) c"),
    ("format:quotes", {}, 'He said "she said \'I said "hi"\'"', 'He said "hi"'),
    ("words:prime_lengths", {}, "an elk ran", "a big elk"),
    ("format:options", {"options": "yes/no/maybe"}, "Maybe.", "Probably yes."),
    ("format:newline", {}, "one\ntwo\nthree", "one two\nthree"),
    ("ratio:sentence_words", {}, "Cats eat. Dogs run. Owls fly.", "Cats eat. Dogs run fast. Owls fly."),
    ("count:words_japanese", {"N": 2}, "I 猫 like 犬", "I cat like dog"),
    ("words:repeats", {"small_n": 2}, "the cat and the dog", "the the the cat"),
    ("sentence:keyword", {"word": "moon", "N": 2}, "Night fell. The moon rose.", "The moon rose. Night fell."),
    ("count:pronouns", {"N": 3}, "I told her that they left.", "The cat left."),
    ("words:last_first", {}, "I like tea. Tea is warm.", "I like tea. Coffee is warm."),
    ("words:paragraph_last_first", {}, "Rain falls on the rain\nSun warms the sun", "Rain falls on the roof"),
    ("sentence:increment", {"small_n": 1}, "Cats run. Cats run fast. Cats run very fast.", "Cats run. Cats run."),
    ("words:no_consecutive", {}, "Big red apples grow", "Big bold apples grow"),
    (
        "count:keywords_multiple",
        {"keyword1": "a1", "keyword2": "b2", "keyword3": "c3", "keyword4": "d4", "keyword5": "e5"},
        "a1 " + "b2 " * 2 + "c3 " * 3 + "d4 " * 5 + "e5 " * 7,
        "a1 b2",
    ),
    ("format:line_indent", {}, "a\n b\n  c", "a\n b\n b"),
    ("format:quote_unquote", {}, '"Carpe diem" means seize the day.', 'He said "go" "now"'),
    ("format:list", {"sep": "!?!?"}, "!?!? tea\n!?!? cake", "- tea\n- cake"),
    ("format:thesis", {}, "<i>Cats rule.</i> Here is why.", "Cats rule. Here is why."),
    ("format:sub-bullets", {}, "* Fruit\n  - apple\n* Veg\n  - kale", "* Fruit\n* Veg\n  - kale"),
    ("format:no_bullets_bullets", {}, "I like food. Here is a list.\n* tea\n* cake", "* tea\n* cake"),
    ("format:title_case", {}, "The Big Red Dog", "The big red dog"),
    ("format:output_template", {}, "My Answer: yes My Conclusion: fine Future Outlook: good", "My Answer: yes"),
    ("format:no_whitespace", {}, "nowhitespacehere", "some space"),
    ("custom:multiples", {}, "14, 21, 28, 35, 42, 49", "7, 14, 21"),
    ("custom:mcq_count_length", {}, MCQ, "Here you go.\n" + MCQ),
    ("custom:word_reverse", {}, "eagle bald the is it", "it is the bald eagle"),
    ("custom:character_reverse", {}, "elgae dlab", "bald eagle"),
    ("custom:sentence_alphabet", {}, " ".join(f"{chr(65 + i)}x ok." for i in range(26)), "Ax ok. Bx ok."),
    ("custom:csv_city", {}, CSV_CITY, "ID,City\n1,Lima"),
    ("custom:csv_special_character", {}, CSV_SPECIAL, CSV_SPECIAL.replace('"Acme & Co"', "Acme")),
    ("custom:csv_quotes", {}, CSV_QUOTES, CSV_QUOTES.replace('"Math"', "Math")),
    ("custom:date_format_list", {}, "1805-12-02, 1815-06-18", "December 2 1805"),
    (
        "words:keywords_specific_position",
        {"keyword": "owl", "n": 2, "m": 2},
        "Hi there. The owl hoots.",
        "Hi there. An old owl.",
    ),
    ("words:words_position", {"keyword": "owl"}, "An owl saw another owl too", "An owl saw it"),
    ("repeat:repeat_change", {"prompt_to_repeat": "Tell me a joke"}, "Give me a joke", "Tell me a joke"),
    (
        "repeat:repeat_simple",
        {"sentence": "Only output this sentence."},
        "only output this sentence.",
        "Sure! Only output this sentence.",
    ),
    ("words:start_verb", {}, "Build a tower of stones.", "The tower of stones is tall."),
    ("repeat:repeat_span", {"prompt_to_repeat": "a b c d e", "n_start": 1, "n_end": 3}, "b c", "a b c"),
]
if _HAS["emoji"]:
    CASES.append(("format:emoji", {}, "I love tea 🍵. Cats rule 🐱.", "I love tea. Cats rule 🐱."))
if _HAS["syllapy"]:
    CASES.append(("words:odd_even_syllables", {}, "cat happy dog", "cat dog happy"))


@pytest.mark.parametrize(("vid", "params", "good", "bad"), CASES, ids=[c[0] for c in CASES])
def test_satisfied_and_violated(vid: str, params: dict[str, Any], good: str, bad: str) -> None:
    assert verify(vid, params, good).status is S, verify(vid, params, good).reason
    assert verify(vid, params, bad).status is V, verify(vid, params, bad).reason


def test_every_type_has_written_cases_or_an_honest_unknown() -> None:
    covered = {c[0] for c in CASES}
    rest = IDS - covered
    # Needs optional packages, a tagger or a gazetteer: decided elsewhere or UNKNOWN, never a guess.
    assert rest <= {
        "format:emoji",
        "words:odd_even_syllables",
        "words:start_verb",
        "custom:european_capitals_sort",
        "custom:reverse_newline",
    }
    assert verify("custom:european_capitals_sort", {}, "Oslo, Riga, Paris").status is U
    assert verify("custom:european_capitals_sort", {}, "Here is a long answer\nwith lines").status is V
    assert verify("count:person_names", {"N": 2}, "Ann and Bo").status is U


def test_reverse_newline() -> None:
    names = ["Zimbabwe"] + [f"Country {chr(90 - i // 3)}{chr(90 - i % 3)}" for i in range(60)]
    assert verify("custom:reverse_newline", {}, "\n".join(names)).status is S
    assert verify("custom:reverse_newline", {}, "\n".join(reversed(names))).status is V


def test_sentences_follow_ifbench_rules() -> None:
    assert sentences("Dr. Smith paid $3.50. He left! Why?") == ["Dr. Smith paid $3.50.", "He left!", "Why?"]
    assert sentences("Wait... what") == ["Wait...", "what"]
    assert sentences("See example.com now. Done.") == ["See example.com now.", "Done."]
    assert sentences("Use tools (e.g., hammers) here. Next.") == ["Use tools (e.g., hammers) here.", "Next."]
    assert sentences("FISH (V.O.) speaks. Then waits.") == ["FISH (V.O.) speaks.", "Then waits."]
    assert sentences("He moved to the U.S. He liked it.") == ["He moved to the U.S.", "He liked it."]
    assert sentences('She said "Go." Then left.') == ['She said "Go".', "Then left."]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(IDS)), st.text(max_size=300))
def test_never_crashes(vid: str, text: str) -> None:
    params = {
        "N": 2,
        "small_n": 2,
        "percentage": 20,
        "min_words": 1,
        "max_words": 9,
        "word": "x",
        "keyword": "x",
        "n": 1,
        "m": 1,
        "sep": "-",
        "options": "yes/no",
        "reference_text": "abc",
        "prompt_to_repeat": "a b",
        "n_start": 0,
        "n_end": 1,
        "sentence": "s",
        "names": ["Ann"],
        **{f"keyword{i}": "k" for i in range(1, 6)},
    }
    assert verify(vid, params, text).status in (S, V, U)
