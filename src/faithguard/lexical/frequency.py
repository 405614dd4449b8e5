"""Word frequency from ``wordfreq`` (Apache-2.0 code; its word lists are CC BY-SA 4.0), and spaCy's English stop
words (the most frequent function words).

One cached reader of the Zipf scale for English, shared by the term checks (is a word common?) and
the input checks (is a capitalised word an ordinary word?). ``wordfreq`` is imported on the first
lookup, not at import time.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["stop_words", "zipf", "zipf_in"]


@lru_cache(maxsize=65536)
def zipf(word: str) -> float:
    """wordfreq Zipf frequency of one word in English (0.0 means not in the word list)."""
    import wordfreq

    return float(wordfreq.zipf_frequency(word, "en"))


#: Languages wordfreq reads only with a tokenizer from another package (MeCab, jieba): never read here.
_NEEDS_TOKENIZER = frozenset({"zh", "ja", "ko"})


@lru_cache(maxsize=65536)
def zipf_in(word: str, language: str) -> float:
    """wordfreq Zipf frequency of one word in ``language``'s small list (0.0: not listed, or a language wordfreq has
    no small list for or cannot read without another package's tokenizer). Each list loads on first use (~10 ms,
    ~5 MB)."""
    import wordfreq

    if language in _NEEDS_TOKENIZER or language not in _small_lists():
        return 0.0
    try:
        return float(wordfreq.zipf_frequency(word, language, wordlist="small"))
    except (ImportError, LookupError, ValueError):
        return 0.0


@lru_cache(maxsize=1)
def _small_lists() -> frozenset[str]:
    """Languages wordfreq has a small list for, read once: ``wordfreq.available_languages`` lists its data folder on
    every call (most of a lookup's time: a request of 2,800 unlisted words spent ~0.6 s there)."""
    import wordfreq

    return frozenset(wordfreq.available_languages("small"))


@lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    """spaCy's English stop words (function words: "that", "which", "about"), lower case."""
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)
