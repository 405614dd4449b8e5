"""Lexical resources several built-in plugins read: WordNet, word frequency, language identification.

Each resource has one home here, so no plugin imports another plugin to reach it
(``tests/core/test_plugin_imports.py`` checks that):

- :mod:`~faithguard.lexical.wordnet_mmap`: WordNet's noun index and data files, memory-mapped and
  binary-searched (nouns: senses, lexicographer file, hypernym closure; is a word a verb). Opens in
  about 4 ms; the input and term checks ask it synchronously, inside a call.
- :mod:`~faithguard.lexical.wordnet`: the same WordNet 3.0 files through nltk's reader (every part of
  speech, morphology, derived forms, part-holonyms, synset names). Loading its lemma index costs about
  0.6 s of CPU, so it loads in a background thread and answers "don't know" until it has; the
  constraint engine reads it.
- :mod:`~faithguard.lexical.frequency`: wordfreq's Zipf frequency of an English word.
- :mod:`~faithguard.lexical.langid`: offline language identification (scripts, marker letters,
  stopword profiles).

Why two WordNet readers: neither can replace the other with the same answers at the same cost
(measured with CPU time over wordfreq's 2,937 most frequent alphabetic English words, WordNet files
in the page cache). nltk's reader would make the input checks wait ~0.6 s for their first answer
(against ~4 ms) and costs ~150 us per first lookup (against ~22 us), and its morphology gives other
sense lists for 13 of those words ("was" -> "wa", "its" -> "it", "taxes" -> "taxis"), which would
change decisions. The memory-mapped reader knows nouns only, without nltk's morphology, derived
forms or holonyms; rebuilding those on it would have to reproduce nltk's answers exactly. Both read
the one folder :func:`~faithguard.lexical.wordnet_mmap.wordnet_dir` names.

Heavy packages (nltk, wordfreq) are imported on first use, never when this package is imported.
"""
