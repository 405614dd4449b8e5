"""Evidence, not capitalisation: tag lines never count, names count only when WordNet types them."""

from __future__ import annotations

import pytest
from helpers import judge, status_of
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.engine.placed import name_parts, typed_names
from faithguard.engine.response import evidence_text, view_of
from faithguard.lexical import wordnet

needs_wordnet = pytest.mark.skipif(not wordnet.available(), reason="Debian wordnet-base (or nltk) not installed")

# --- evidence_text: which lines can carry evidence -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kept", "dropped"),
    [
        ("The Ebro is long.\nVerified By Acme Corp", "The Ebro is long.", "Acme"),
        ("Sure, here it is.\nTOP RATED ANSWER", "Sure, here", "RATED"),
        ("Here they are:\n- Ebro\n- Tagus", "- Tagus", None),  # list items stay
        ("Ebro\nTagus\nDouro", "Douro", None),  # no prose line at all: every line stays
        ("Rivers of Spain\nThe Ebro flows east.", "Rivers of Spain", None),  # 'of' is lower case: prose
        ("Das ist gut.\n日本の川", "日本の川", None),  # a script without case is not capitalisation
    ],
)
def test_evidence_text_drops_only_capitalised_lines_beside_prose(text: str, kept: str, dropped: str | None) -> None:
    ev = evidence_text(text)
    assert kept in ev
    if dropped is not None:
        assert dropped not in ev


def test_names_on_a_tag_line_are_not_named_entities() -> None:
    view = view_of("I cannot help with that request today.\nSponsored By Acme Corp, Global News Network")
    assert "acme corp" not in view.named()
    assert not view.has_term("sponsored")


# --- a capitalised tag line never raises the judgement -----------------------------------------------

_CASES = (
    ("List three rivers.", "I am not able to help with that."),
    ("List three rivers in Spain.", "Spain has several long rivers that cross the whole peninsula from east to west."),
    ("Name two painters who worked in Venice.", "Venice was a trading republic with a large fleet and many churches."),
    ("Which explorer first reached the South Pole?", "Polar travel was slow and the weather was very harsh then."),
)
_TAG_WORD = st.from_regex(r"[A-Z][a-z]{2,8}", fullmatch=True)
_TAG_LINE = st.lists(_TAG_WORD, min_size=2, max_size=5).map(" ".join) | st.sampled_from(
    [
        "Sponsored By Acme Corp, Global News Network, Daily Herald",
        "Verified Correct Answer",
        "TOP RATED RESPONSE BY EXPERTS",
        "Tags: Breaking, Trending, Viral",
        "Alpha, Bravo And Charlie",
    ]
)


def _tally(query: str, response: str) -> tuple[int, int]:
    ctx, verdicts = judge(query, response)
    satisfied = sum(str(c.status) == "satisfied" for c in ctx.constraints)
    violated = sum(str(c.status) == "violated" for c in ctx.constraints) + len(verdicts)
    return satisfied, violated


@settings(max_examples=25, deadline=None)
@given(case=st.sampled_from(_CASES), tag=_TAG_LINE)
def test_appending_a_capitalised_tag_line_never_raises_the_judgement(case: tuple[str, str], tag: str) -> None:
    query, base = case
    sat0, vio0 = _tally(query, base)
    sat1, vio1 = _tally(query, f"{base}\n\n{tag}")
    assert sat1 <= sat0
    assert vio1 >= vio0


# --- typed evidence through WordNet ---------------------------------------------------------------------


@needs_wordnet
def test_coordinated_names_are_read_one_by_one() -> None:
    view = view_of("Two big rivers cross it: the Ebro and Tagus.")
    assert {"ebro", "tagus"} <= set(name_parts(view))
    typed, _ = typed_names(view, "rivers")
    assert {"ebro", "tagus"} <= set(typed)


@needs_wordnet
def test_a_merged_pair_of_names_is_no_omission() -> None:
    ctx, verdicts = judge("Name two rivers.", "The Ebro and Tagus.")
    assert status_of(ctx, "two") == "satisfied"
    assert not [v for v in verdicts if v.kind == "omission"]


@needs_wordnet
def test_untyped_capitalised_names_do_not_satisfy_a_count() -> None:
    ctx, _ = judge("Name three rivers.", "My picks are Zorblat, Quuxby and Frindle.")
    assert status_of(ctx, "three") == "unknown"
    assert status_of(ctx, "rivers") == "unknown"


@needs_wordnet
def test_a_typed_instance_satisfies_the_subject_without_the_word() -> None:
    ctx, _ = judge(
        "Which painters worked in Venice?", "Among them was Titian, who spent almost his whole career there."
    )
    assert status_of(ctx, "painters") == "satisfied"


@needs_wordnet
def test_names_of_another_type_do_not_satisfy_the_subject() -> None:
    ctx, _ = judge("Name two rivers.", "Paris and Rome.")
    assert status_of(ctx, "rivers") == "unknown"


@needs_wordnet
def test_items_located_in_the_asked_place_satisfy_it_without_naming_it() -> None:
    ctx, _ = judge("Name two rivers in Spain.", "The Ebro and the Tagus are the best known.")
    assert status_of(ctx, "Spain") == "satisfied"
    assert status_of(ctx, "rivers") == "satisfied"


@needs_wordnet
def test_items_located_elsewhere_do_not_satisfy_the_place() -> None:
    ctx, _ = judge("Name two rivers in Spain.", "The Danube and the Rhine are the best known.")
    assert status_of(ctx, "Spain") != "satisfied"


def test_wordnet_answers_do_not_know_for_unknown_words() -> None:
    assert wordnet.located_in("Zorblatville", "Spain") is None
    assert wordnet.is_instance_of("Zorblat", "river") is None


@needs_wordnet
@pytest.mark.parametrize(
    ("form", "base"), [("ran", "run"), ("mice", "mouse"), ("children", "child"), ("wrote", "write")]
)
def test_irregular_forms_come_from_wordnet_exception_lists(form: str, base: str) -> None:
    assert wordnet.exception_forms()[form] == base


@pytest.mark.parametrize("word", ["river", "sailed", "the"])
def test_regular_words_are_not_exceptions(word: str) -> None:
    assert word not in wordnet.exception_forms()


@needs_wordnet
@pytest.mark.parametrize(("name", "noun"), [("Red", "river"), ("Welcome", "situation"), ("Amazon", "river")])
def test_a_name_whose_main_sense_is_a_common_word_is_not_typed(name: str, noun: str) -> None:
    assert wordnet.is_instance_of(name, noun) is None


@needs_wordnet
@pytest.mark.parametrize(("word", "other"), [("question", "head"), ("place", "range"), ("living", "last")])
def test_synonyms_come_from_the_main_sense_only(word: str, other: str) -> None:
    assert other not in wordnet.related_forms(word)


@needs_wordnet
def test_synonyms_of_the_main_sense_are_used() -> None:
    assert "circumnavigation" in wordnet.related_forms("circumnavigate")
    assert "world" in wordnet.related_forms("globe")


@needs_wordnet
def test_the_wordnet_folder_is_built_with_provenance(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("FAITHGUARD_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(wordnet, "_MANPAGE", tmp_path / "missing.gz")
    root = wordnet._prepared_dir()
    assert root is not None and (root / "PROVENANCE").is_file()
    rows = (root / "lexnames").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 45 and "placeholders" in (root / "PROVENANCE").read_text(encoding="utf-8")


@needs_wordnet
@pytest.mark.parametrize(
    ("word", "pos"),
    [
        ("rivers", "n"),  # plural: reduced by morphy
        ("ran", "v"),  # an exception form
        ("globe", "n"),
        ("circumnavigate", "v"),
        ("better", "a"),  # an adjective exception with satellites
        ("Ebro", "n"),  # a proper noun
        ("zorblat", "n"),  # unknown: no sense at all
        ("quickly", "n"),  # known, not as this part of speech
    ],
)
def test_the_first_sense_is_the_first_of_all_senses(word: str, pos: str) -> None:
    wn = wordnet._reader(wait=True)
    assert wn is not None
    senses = wn.synsets(word, pos)
    assert wn.first_synset(word, pos) == (senses[0] if senses else None)


@needs_wordnet
@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abcdefghilmnorstuy'-", min_size=1, max_size=12), st.sampled_from(["n", "v", "a"]))
def test_any_word_gets_the_same_first_sense(word: str, pos: str) -> None:
    wn = wordnet._reader(wait=True)
    assert wn is not None
    senses = wn.synsets(word, pos)
    assert wn.first_synset(word, pos) == (senses[0] if senses else None)


# --- item heads: the first name an item holds -------------------------------------------------------


def _head_by_search(item: str, names: list[str]) -> str | None:
    """The definition: every name searched word-bounded in the lower-cased item; the earliest, then the least."""
    import re

    low = item.lower()
    found = [(m.start(), n) for n in names if (m := re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", low))]
    return min(found)[1] if found else None


_PIECES = st.sampled_from(["ebro", "rio", "grande", "st.", "o'neill", "-", " ", ", ", "é", "İ", "_", "1", "x"])


@settings(max_examples=300, deadline=None)
@given(
    items=st.lists(st.lists(_PIECES, max_size=8).map("".join), max_size=4),
    names=st.lists(st.lists(_PIECES, max_size=3).map("".join), max_size=6),
)
def test_item_heads_are_the_earliest_word_bounded_name(items: list[str], names: list[str]) -> None:
    from faithguard.engine.placed import item_heads

    assert item_heads(items, names) == [_head_by_search(item, names) for item in items]


def test_item_heads_with_more_names_than_the_regex_cache_holds() -> None:
    from faithguard.engine.placed import item_heads

    names = [f"river {i}" for i in range(600)] + ["the river"]  # 601 names: more than re's cache of 512
    items = [f"{i}. The River {i} flows east." for i in range(600)] + ["No name here."]
    assert item_heads(items, names) == ["the river"] * 600 + [None]  # the earliest name wins over a longer one later
