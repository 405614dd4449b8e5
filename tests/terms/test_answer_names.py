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
    from faithguard.terms.extract import NameContexts

    text = "Tides rise daily. The Quorvel Drift moves them near Zentrova Bay."
    regions = tuple(name_regions(text))
    extract_names(text, regions)
    (region,) = regions
    start = text.index("Quorvel")
    found = NameContexts(text, regions).at(start, start + len("Quorvel Drift"))
    fresh = parse_answer(text[region[0] : region[1]])
    assert found is not None
    held, offset = found
    assert offset == region[0]  # a one-sentence region: the window is the region, completed once
    assert [(t.text, t.tag_, t.dep_, t.lemma_, t.ent_type_) for t in held] == [
        (t.text, t.tag_, t.dep_, t.lemma_, t.ent_type_) for t in fresh
    ]
    assert NameContexts(text, regions).at(0, 5) is None  # outside every region


def test_a_name_is_read_in_the_same_window_once_the_reading_parses_are_dropped() -> None:
    # The names come from their memo; the region parses they were read from are gone (other answers since): the
    # region is parsed again, so a call checked again reads each name in the same window with the same labels.
    from faithguard.terms import extract
    from faithguard.terms.extract import NameContexts

    regions = tuple(name_regions(_LONG_REGION))
    extract_names(_LONG_REGION, regions)
    start = _LONG_REGION.index("Quorvel")

    def read() -> tuple[int, list[tuple[str, str, str, str, str]]]:
        found = NameContexts(_LONG_REGION, regions).at(start, start + len("Quorvel Drift Index"))
        assert found is not None
        doc, offset = found
        return offset, [(t.text, t.tag_, t.dep_, t.lemma_, t.ent_type_) for t in doc]

    held = read()
    with extract._RECENT_LOCK:
        extract._RECENT_DOCS.clear()
    assert extract_names(_LONG_REGION, regions)  # from the memo: nothing parsed, nothing held
    assert not extract._RECENT_DOCS
    assert read() == held


_LONG_REGION = (
    "The Harbour Board met Mayor Elin Dasvik on Monday. Captain Ruud Mertens spoke for the Pilots Guild. "
    "The Quorvel Drift Index rose at Port Talvane. Minister Aiko Brandt answered for the Coast Office. "
    "Professor Lena Ortiz of Vastrow College wrote the report."
)


def test_a_name_in_a_long_region_is_read_with_one_sentence_each_side() -> None:
    from faithguard.nlp import parse_answer
    from faithguard.terms.extract import NameContexts

    regions = tuple(name_regions(_LONG_REGION))
    extract_names(_LONG_REGION, regions)
    assert len(regions) == 1 and regions[0][0] == 0
    start = _LONG_REGION.index("Quorvel")
    found = NameContexts(_LONG_REGION, regions).at(start, start + len("Quorvel Drift Index"))
    assert found is not None
    doc, offset = found
    window = _LONG_REGION[offset : offset + len(doc.text)]
    assert window.startswith("Captain Ruud") and window.rstrip().endswith("Coast Office.")  # 3 of 5 sentences
    whole = parse_answer(_LONG_REGION)
    by_char = {t.idx: t for t in whole}
    for tok in doc:  # the window's annotations are the whole text's (tags, arcs, lemmas, entities)
        other = by_char[tok.idx + offset]
        assert (tok.text, tok.tag_, tok.dep_, tok.lemma_) == (other.text, other.tag_, other.dep_, other.lemma_)
    name = [t for t in doc if offset + t.idx >= start][:3]
    assert [t.ent_type_ for t in name] == [by_char[offset + t.idx].ent_type_ for t in name]


def test_windows_never_cost_more_than_the_region() -> None:
    from faithguard.terms.extract import NameContexts

    regions = tuple(name_regions(_LONG_REGION))
    extract_names(_LONG_REGION, regions)
    contexts = NameContexts(_LONG_REGION, regions)
    firsts = [_LONG_REGION.index(w) for w in ("Elin", "Quorvel", "Lena")]
    reads = [contexts.at(i, i + 4) for i in firsts]
    assert all(r is not None for r in reads)
    assert reads[0] is not None and reads[0][0].text.rstrip().endswith("Pilots Guild.")  # first sentence + next
    # first and middle windows: 2 + 3 sentences; the third would pass the region's 5: the region is read whole
    assert reads[2] is not None and reads[2][1] == 0 and len(reads[2][0].text) >= len(_LONG_REGION.rstrip())
    assert contexts.at(firsts[1], firsts[1] + 4) is reads[2]  # once read whole, the region serves every name
    fresh = NameContexts(_LONG_REGION, regions)
    assert fresh.at(firsts[1], firsts[1] + 4) is fresh.at(firsts[1] + 8, firsts[1] + 13)  # one window, read once


def _invented(i: int) -> str:
    syllables = ["qua", "vor", "zel", "trin", "mox", "dral", "pyx", "fen"]
    return "".join(syllables[(i >> (3 * k)) % 8] for k in range(3)).capitalize()


def test_an_answer_inventing_more_names_than_are_read_says_the_rest_were_not_examined() -> None:
    from faithguard import Guard
    from faithguard.terms.detectors import ANSWER_NAMES_EXAMINED

    guard = Guard(judge=None)
    many = " ".join(f"The {_invented(i)} Vexillum met the {_invented(i + 97)} Quadrant." for i in range(120))
    report = guard.check("Write a short history of the region.", many)
    reasons = [r for r in report.undetermined if r.startswith("fabricated_terms")]
    assert reasons and f"more than {ANSWER_NAMES_EXAMINED} names" in reasons[0]
    assert len([v for v in report.verdicts if v.kind == "fabricated_term"]) <= ANSWER_NAMES_EXAMINED
    few = "The Quorvel Vexillum met the Dralmox Quadrant near the old bridge."
    report = guard.check("Write a short history of the region.", few)
    assert not [r for r in report.undetermined if r.startswith("fabricated_terms")]
    guard.close()
