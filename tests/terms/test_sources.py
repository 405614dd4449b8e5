def test_lexicon_phrase_with_an_unknown_word_is_unknown() -> None:
    from faithguard.detector import CallContext
    from faithguard.terms.sources import LexiconSource

    lex, ctx = LexiconSource(), CallContext(query="q")
    assert lex.lookup("quantoplexic resonance", ctx) is False  # 'quantoplexic' is in no word list
    assert lex.lookup("information cascade flux", ctx) is None  # known words: the phrase is undecided
    assert lex.lookup("battery design", ctx) is None


def test_rare_word_noun_phrase_is_a_candidate() -> None:
    from faithguard.terms import extract_candidates

    texts = [c.text for c in extract_candidates("What are the uses of quantoplexic resonance in batteries?")]
    assert "quantoplexic resonance" in texts


def test_lexicon_real_technical_words_from_combining_forms_are_not_unknown() -> None:
    from faithguard.detector import CallContext
    from faithguard.terms.sources import LexiconSource

    lex, ctx = LexiconSource(), CallContext(query="q")
    for word in ("photobiomodulation", "optogenetics", "immunotherapy"):
        assert lex.lookup(word, ctx) is not False, word  # listed, or built from known parts: never "unknown"
    assert lex.lookup("Nanosyncology", ctx) is False


def test_lexicon_longest_word_still_splits_and_a_longer_run_is_no_word() -> None:
    from faithguard.detector import CallContext
    from faithguard.terms.sources import LONGEST_WORD, LexiconSource

    lex, ctx = LexiconSource(), CallContext(query="q")
    # 45 letters built from known parts (written for this test): still read as composed, undecided
    longest = "internationalcommunicationsmanufacturingmicro"
    assert len(longest) == LONGEST_WORD
    assert lex.lookup(longest, ctx) is None
    # a run past the bound is no word of any list, and it is not split (the split cost the cube of its length)
    assert lex.lookup("internationalcommunicationsmanufacturingtransportation", ctx) is False  # 54 letters
    assert lex.lookup("a" * 20_000, ctx) is False
