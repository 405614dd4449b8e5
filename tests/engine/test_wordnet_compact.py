"""The WordNet reader keeps the synsets it has read in compact form (tuples and plain dicts, see
``lexical.wordnet._compact``): they must answer exactly as nltk's own reader does, and cost the garbage
collector a few tracked objects each instead of ~17."""

from __future__ import annotations

import gc
import warnings
from typing import Any

import pytest

from faithguard.lexical import wordnet

pytestmark = pytest.mark.skipif(not wordnet.available(), reason="Debian wordnet-base (or nltk) not installed")

# Words of several parts of speech with pointers of every kind the engine reads: hypernyms, instance
# hypernyms, holonyms, antonyms and derived forms (lemma pointers), verb frames, satellite adjectives.
WORDS = [("river", "n"), ("ebro", "n"), ("seville", "n"), ("write", "v"), ("give", "v"), ("happy", "a"), ("quick", "a")]


@pytest.fixture(scope="module")
def plain() -> Any:
    """nltk's reader over the same prepared files, without faithguard's subclass (only the mapping to another
    WordNet version is skipped, as faithguard's reader does: this is the 3.0 data itself)."""
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class Plain(WordNetCorpusReader):  # type: ignore[misc]
        def map_wn(self, version: str = "wordnet") -> None:
            return None

    root = wordnet._prepared_dir()
    assert root is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available": not used here
        return Plain(str(root), None)


def _view(s: Any) -> tuple[Any, ...]:
    lemmas = sorted(
        (
            lemma.name(),
            tuple(lemma.frame_ids()),
            tuple(lemma.frame_strings()),
            sorted(a.name() for a in lemma.antonyms()),
            sorted(d.name() for d in lemma.derivationally_related_forms()),
            sorted(p.name() for p in lemma.pertainyms()),
        )
        for lemma in s.lemmas()
    )
    related = [
        sorted(x.name() for x in f())
        for f in (s.hypernyms, s.instance_hypernyms, s.part_holonyms, s.member_holonyms, s.hyponyms, s.similar_tos)
    ]
    return (s.name(), s.lexname(), s.definition(), tuple(s.examples()), tuple(s.frame_ids()), lemmas, related)


@pytest.mark.parametrize(("word", "pos"), WORDS)
def test_compact_synsets_answer_as_nltk_does(plain: Any, word: str, pos: str) -> None:
    reader = wordnet._reader(wait=True)
    ours = [_view(s) for s in reader.synsets(word, pos)]
    theirs = [_view(s) for s in plain.synsets(word, pos)]
    assert ours and ours == theirs


def test_a_held_synset_leaves_few_tracked_objects() -> None:
    reader = wordnet._reader(wait=True)
    synset = reader.synsets("give", "v")[0]  # many lemmas, frames and pointers
    # tuples and dicts of atoms are untracked by a collection that sees them; a container of containers is untracked
    # only once its contents are, which one pass may not reach (it depends on the order of the collector's list)
    for _ in range(3):
        gc.collect()
    tracked = [synset, *synset.lemmas()]
    shared = (type, type(reader))  # the classes and the reader every synset points to
    owned = [o for s in tracked for o in gc.get_referents(s) if gc.is_tracked(o) and not isinstance(o, shared)]
    # the lemma tuple (it holds Lemma objects) and each lemma's synset back-reference, nothing per pointer
    assert all(isinstance(o, (tuple, type(synset), type(synset.lemmas()[0]))) for o in owned), owned
