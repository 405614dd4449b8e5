"""Which text the term checks can read: English only.

Every source they consult (wordfreq's English list, WordNet, English title indexes) and the name reading (English
capitalisation: German capitalises every noun) are English, so a word of another language is "backed by no source"
whatever it means. A candidate no source backs is therefore undecided, never flagged, when its sentence is read
confidently as another language (:meth:`LanguageMap.other_language`: :func:`faithguard.lexical.langid.identify` over
the sentence, or over the nearest long-enough sentence or the whole text when it is too short to tell), or when its
words are all ordinary words of the language a short text is guessed to be in (:meth:`LanguageMap.foreign_words`),
unless it is composed with an English word (:meth:`LanguageMap.english_name`). Fixtures:
tests/terms/test_term_language.py.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from faithguard.lexical.frequency import zipf, zipf_in
from faithguard.lexical.langid import identify, model_ranking, script_letters
from faithguard.terms.extract import sentence_pieces

__all__ = ["FOREIGN_ZIPF", "MIN_LETTERS", "OTHER_LANGUAGE_CONFIDENCE", "LanguageMap"]

#: Letters of a shared script (Latin, Cyrillic ...) a sentence needs for its own language to be read; shorter ones
#: ("Danke!", a heading) take a neighbour's or the whole text's. Provenance: the evidence the response-language
#: verifier requires (below it "Bonjour !" gives no stable identification); fixtures of our own in the test file.
MIN_LETTERS = 20
#: Confidence at which a reading of another language is taken: the response-language verifier's threshold for
#: "written in another language". Below it the text is read (as before this check existed).
OTHER_LANGUAGE_CONFIDENCE = 0.35
#: A word at or above this Zipf frequency in a language's wordfreq list is ordinary vocabulary there: the bar the term
#: extractor sets for English (``extract.COMMON_ZIPF``). Fixtures: tests/terms/test_term_language.py.
FOREIGN_ZIPF = 3.0
#: How many of a term's own likeliest languages (py3langid on the term alone) :meth:`LanguageMap.foreign_words`
#: asks wordfreq about, beside its sentence's: a word alone is a weak signal, so only its top guesses, and each must
#: list every word as ordinary vocabulary. Fixtures: tests/terms/test_term_language.py.
WORD_GUESSES = 2
_LETTERS = re.compile(r"[^\W\d_]+")


def _long_enough(text: str) -> bool:
    """Whether ``text`` holds enough letters for its own language to be read (any number of a script one language
    owns, as Hangul or Thai)."""
    letters, shared = script_letters(text)
    return letters >= MIN_LETTERS or (letters > 0 and not shared)


def _other_language(text: str) -> str | None:
    """The language of ``text`` when it is confidently not English; None when English or undecided."""
    ident = identify(text)
    if ident.language in (None, "en") or ident.confidence < OTHER_LANGUAGE_CONFIDENCE:
        return None
    return ident.language


class LanguageMap:
    """Where in one text the term checks cannot read: sentences confidently in another language than English."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._pieces = sentence_pieces(text)
        self._starts = [p[0] for p in self._pieces]
        self._whole: list[str | None] = []
        self._memo: dict[int, str | None] = {}  # sentence -> the reading it takes
        self._own: dict[int, str | None] = {}  # long-enough sentence -> its own reading
        #: per sentence, the nearest long-enough sentence at or before it and at or after it (made on first need)
        self._nearest: tuple[list[int | None], list[int | None]] | None = None

    def _whole_text(self) -> str | None:
        if not self._whole:
            self._whole.append(_other_language(self._text))
        return self._whole[0]

    def unreadable(self, term: str, start: int) -> str | None:
        """The language code that makes ``term`` (found at ``start``) unreadable by English sources: its sentence's
        (:meth:`other_language`) or its own words' (:meth:`foreign_words`), unless it is composed with an English
        word (:meth:`english_name`); None when the term checks can read it."""
        other = self.other_language(start) or self.foreign_words(term, start)
        return None if other is None or self.english_name(term, other) else other

    def other_language(self, start: int) -> str | None:
        """The language code of the sentence holding character ``start`` when it is confidently not English; None
        when it can be read. A sentence too short to tell ("Danke!", a heading) takes the reading of the nearest
        sentence before it that is long enough, else of the nearest after it, else of the whole text."""
        if not self._pieces:
            return self._whole_text()
        i = max(0, bisect_right(self._starts, start) - 1)
        if i not in self._memo:
            before, after = self._nearest_long()
            long = before[i] if before[i] is not None else (after[i + 1] if i + 1 < len(after) else None)
            self._memo[i] = self._whole_text() if long is None else self._reading(long)
        return self._memo[i]

    def _nearest_long(self) -> tuple[list[int | None], list[int | None]]:
        """For each sentence, the nearest long-enough one at or before it, and at or after it: one pass each way.
        Searched from each sentence instead, a request of a thousand one-word lines cost seconds."""
        if self._nearest is None:
            n = len(self._pieces)
            flags = [_long_enough(self._piece(j)) for j in range(n)]
            before: list[int | None] = []
            last: int | None = None
            for j in range(n):
                last = j if flags[j] else last
                before.append(last)
            after: list[int | None] = [None] * n
            last = None
            for j in range(n - 1, -1, -1):
                last = j if flags[j] else last
                after[j] = last
            self._nearest = (before, after)
        return self._nearest

    def _piece(self, j: int) -> str:
        return self._text[self._pieces[j][0] : self._pieces[j][1]]

    def _reading(self, j: int) -> str | None:
        if j not in self._own:
            self._own[j] = _other_language(self._piece(j))
        return self._own[j]

    def foreign_words(self, term: str, start: int) -> str | None:
        """The language a short text is guessed to be in (at any confidence: "Qué significa?") when every word of
        ``term`` is ordinary vocabulary of it (wordfreq, Zipf >= :data:`FOREIGN_ZIPF`) and more frequent there than in
        English; None otherwise. For texts too short for :meth:`other_language`; an invented word is listed nowhere."""
        words = [w.lower() for w in _LETTERS.findall(term)]
        if not words:
            return None
        i = max(0, bisect_right(self._starts, start) - 1)
        texts = [self._piece(i), self._text] if self._pieces else [self._text]
        guesses = [identify(text).language for text in texts]
        # an English sentence may hold another language's ordinary word ("register at the Anmeldung office"): the
        # word's own likeliest languages are asked too (py3langid), and it must be listed there, not in English
        guesses += [code for code, _p in model_ranking(term)[:WORD_GUESSES]]
        for guess in dict.fromkeys(guesses):
            if guess is None or guess == "en":
                continue
            if all(zipf_in(w, guess) >= FOREIGN_ZIPF and zipf_in(w, guess) > zipf(w) for w in words):
                return guess
        return None

    @staticmethod
    def english_name(term: str, language: str) -> bool:
        """Whether ``term`` is composed with an English word (ordinary English vocabulary, Zipf >= :data:`FOREIGN_ZIPF`,
        more frequent in English than in ``language``): "the Quorvane Index", "the Veltrino Cascade Protocol" in a
        sentence of Spanish or French names is an English name the sources can judge, whatever the sentence reads as."""
        words = [w.lower() for w in _LETTERS.findall(term)]
        return any(zipf(w) >= FOREIGN_ZIPF and zipf(w) > zipf_in(w, language) for w in words)
