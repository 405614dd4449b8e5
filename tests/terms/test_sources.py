

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
