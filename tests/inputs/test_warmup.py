"""The missing-content detector loads what its first real check would otherwise load inside its budget."""

from __future__ import annotations

import pytest

from faithguard.inputs.missing import MissingContentDetector
from faithguard.lexical import senses
from faithguard.lexical.wordnet_mmap import get_wordnet


def test_warmup_reads_the_sense_counts_before_any_check() -> None:
    if not get_wordnet().available:
        pytest.skip("WordNet data (wordnet-base) is not installed: there are no sense counts to read")
    senses._counts.cache_clear()
    MissingContentDetector().warmup()
    assert senses._counts.cache_info().currsize == 2  # nouns and verbs
    read = senses._counts.cache_info().misses
    senses.lexfile_share.cache_clear()
    senses.lexfile_share("zeppelin")
    senses.verb_lexfile_share("whisper")
    assert senses._counts.cache_info().misses == read  # the checks' own look-ups find what warm-up read


def test_preload_says_when_there_is_nothing_to_read(monkeypatch: pytest.MonkeyPatch) -> None:
    class Absent:
        available = False

    monkeypatch.setattr(senses, "get_wordnet", lambda: Absent())
    assert senses.preload() is False
