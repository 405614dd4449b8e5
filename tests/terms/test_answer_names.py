"""The answer-side name extraction parses only the sentences that can hold a name (fixtures written here)."""

from __future__ import annotations

from faithguard.terms.extract import extract_candidates, extract_names, name_regions


def _pieces(text: str) -> list[str]:
    return [text[s:e] for s, e in name_regions(text)]


def test_sentence_with_only_an_initial_capital_is_not_parsed() -> None:
    text = "Tides rise twice a day. They follow the moon."
    assert name_regions(text) == []
    assert extract_names(text) == []


def test_two_capitalised_words_or_a_rare_one_inside_qualify() -> None:
    assert _pieces("It flows past the Quorvel Harbour today.") == ["It flows past the Quorvel Harbour today."]
    assert _pieces("we saw the zorblatine glow. Then a Zorblatine came.") == ["Then a Zorblatine came."]
    assert _pieces("we saw it. Then a Paris came.") == []  # a common word alone is no one-word name


def test_abbreviations_do_not_cut_a_sentence() -> None:
    # "e.g." and "U.S." end no sentence: the name after them is not taken for a first word
    assert _pieces("Rivers e.g. Zorblatine flow.") == ["Rivers e.g. Zorblatine flow."]
    assert len(name_regions("the U.S. Army marched. It rained.")) == 1


def test_list_item_after_an_unended_line_keeps_its_context() -> None:
    text = "Names for the shop:\n1. Lumivexa\n2. Brightly"
    (region,) = name_regions(text)
    assert text[region[0] : region[1]].startswith("Names for the shop:")
    assert _pieces("#Lumivexa") == ["#Lumivexa"]  # a first word after a mark counts


def test_names_match_the_whole_text_extraction() -> None:
    text = 'The Quorvelian Drift Principle explains tides. Some call it "tidal drift". Tides rise daily.'
    whole = [(c.text, c.source) for c in extract_candidates(text) if c.source in ("quoted", "title_case")]
    assert [(c.text, c.source) for c in extract_names(text)] == whole
    assert ("Quorvelian Drift Principle", "title_case") in whole


def test_an_unbacked_name_is_read_in_its_own_sentence_and_the_line_it_continues() -> None:
    from faithguard.terms.extract import name_window

    text = "Tides rise daily. The Quorvel Drift moves them. Winds matter too."
    start = text.index("Quorvel")
    s, e = name_window(text, start, start + len("Quorvel Drift"))
    assert text[s:e] == "The Quorvel Drift moves them."
    listing = "Good names:\n1. Lumivexa Prime\nThat is all."
    start = listing.index("Lumivexa")
    s, e = name_window(listing, start, start + len("Lumivexa Prime"))
    assert listing[s:e].strip() == "Good names:\n1. Lumivexa Prime"  # a list item is read with the line it continues
    spanning = "We met Dr. Quorvel Smith today. Then we left."
    start = spanning.index("Quorvel")
    s, e = name_window(spanning, start, start + len("Quorvel Smith"))
    assert spanning[s:e].startswith("We met Dr.") and "Then" not in spanning[s:e]


def test_keep_narrows_regions_to_the_sentences_it_accepts() -> None:
    text = "The Grand Canal flows. The Quorvel Drift moves. The Red Sea is salty."
    assert len(name_regions(text)) == 1  # three touching qualifying sentences: one region
    kept = name_regions(text, keep=lambda piece: "Quorvel" in piece)
    assert [text[s:e].strip() for s, e in kept] == ["The Quorvel Drift moves."]
    assert name_regions(text, keep=lambda piece: False) == []


def test_an_unbacked_name_is_read_in_its_regions_own_parse_completed() -> None:
    from faithguard.nlp import parse_answer
    from faithguard.terms.extract import region_parse

    text = "Tides rise daily. The Quorvel Drift moves them near Zentrova Bay."
    regions = tuple(name_regions(text))
    extract_names(text, regions)
    (region,) = regions
    held = region_parse(text, regions, region)
    fresh = parse_answer(text[region[0] : region[1]])
    assert held is not None
    assert [(t.text, t.tag_, t.dep_, t.lemma_, t.ent_type_) for t in held] == [
        (t.text, t.tag_, t.dep_, t.lemma_, t.ent_type_) for t in fresh
    ]
    assert region_parse("another answer", regions, region) is None  # only what the name reading parsed
