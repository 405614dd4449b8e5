"""Quoted words to use or to avoid, read from the clause that holds them (``data/keyword_cues.json``).

IFEval's own wording names the keyword noun ("include the keywords X", "the word X should appear"), which
``detect_ifeval.detect_keywords`` reads. Users also write "mention 'kayak' and 'lasagna'", "'pedal' should
appear no more than twice", "the words 'blossom' and 'rain' have to be in it", "... so leave those out". Here a
keyword is a quoted word or short phrase; what makes it one is a *cue* in its clause (a spaCy token Matcher
pattern kept as a spec: a verb of mentioning, of turning up in a text, of leaving out), read from the shared
parse. A clause is the stretch of a sentence between clause marks (``; : ( )``, dashes, and commas that do not
join quoted items). A cue counts only in a directive: an imperative or a clause under one ("make sure X is
in it"), "you" as subject, or a modal ("X should appear"); statements about others ("my teacher told us to
include ...") and questions about words ("Should I use 'affect' or 'effect'?") are not instructions.
"""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from faithguard.specfiles import read_specs
from faithguard.verifiers.detect_counts import CountMatch, find_times
from faithguard.verifiers.spec import VerifiableSpec, make_spec

__all__ = [
    "CueSpec",
    "Reading",
    "detect_keyword_cues",
    "fixture_problem",
    "is_keyword",
    "keyword_cue_readings",
    "load_specs",
    "read_cues",
]

_PATH = "data/keyword_cues.json"
#: A quoted word or short phrase: straight or typographic quotes; a single quote opens only after a space or
#: an opening mark and closes before a space or a mark, so apostrophes ("don't") never open one.
_QUOTE = re.compile(
    r"(?:(?<![\w'’])['‘](?P<s>(?:[^'‘’\"“”«»\n]|(?<=\w)['’](?=\w)){1,40}?)['’](?![\w'’])"
    r"|[\"“](?P<d>[^\"“”«»\n]{1,40}?)[\"”]|«\s?(?P<g>[^«»\n]{1,40}?)\s?»)"
)
#: Quotes (and cue words) read per request: a text with more is material, not a request naming words; this also
#: bounds the work per request.
MAX_QUOTES = 64
#: Words a quoted keyword may have at most (a longer quotation is a phrase to start or end with, or material).
MAX_KEYWORD_WORDS = 3
#: Between two quoted items of one list: commas, "and", "or", "nor", "as well as", spaces.
_JOINER = re.compile(r"(?i)^\s*(?:,\s*)?(?:(?:and|or|nor|as\s+well\s+as|plus)\s+)?$")
#: Marks that close a clause (outside quotes): semicolon, colon, brackets, dashes, line breaks.
_CLAUSE_MARK = re.compile(r"[;:()\[\]\n]|\s[-–—]{1,2}\s|[–—]|(?<=[.!?])\s")
#: Nouns that name words as words ("the word 'X'", "the terms 'X' and 'Y'"): a subject that may stand for them.
_WORD_NOUN = re.compile(r"(?i)^(?:key)?(?:words?|terms?|phrases?|expressions?|names?)$")
#: Negation words (spaCy marks most as ``neg``); typed without the apostrophe too ("dont").
_ANAPHORS = frozenset({"them", "those", "these", "it", "both"})
_WH = frozenset({"WDT", "WP", "WP$", "WRB"})


@dataclass(frozen=True)
class CueSpec:
    """One cue spec: its patterns, whether it asks to include or to avoid, and its fixtures."""

    id: str
    role: str
    why: str
    patterns: tuple[tuple[dict[str, Any], ...], ...]
    needs_after: frozenset[str]
    #: the quoted words are the cue's subject ("'X' should appear"): only a modal or a governing directive
    #: makes that an instruction ("'X' appears twice in the poem" is a fact)
    words_lead: bool
    #: when unquoted words count: "never", "negated" ("don't mention coupons") or "always"; words named as words
    #: ("the words pollinator and rooftop") always count
    bare_words: str
    positive: tuple[dict[str, Any], ...]
    negative: tuple[str, ...]


@lru_cache(maxsize=1)
def load_specs() -> tuple[CueSpec, ...]:
    """The specs of ``data/keyword_cues.json`` (validated: a role, a ``cue`` node in every pattern)."""
    out: list[CueSpec] = []
    for item in read_specs("faithguard.verifiers", _PATH):
        role = str(item.get("role"))
        if role not in ("include", "avoid"):
            raise ValueError(f"keyword cue {item['id']!r}: role must be 'include' or 'avoid', not {role!r}")
        if item.get("bare_words", "never") not in ("never", "negated", "always"):
            raise ValueError(f"keyword cue {item['id']!r}: bare_words must be 'never', 'negated' or 'always'")
        patterns = tuple(tuple(dict(node) for node in pat) for pat in item["patterns"])
        if any(not any(node.get("_node") == "cue" for node in pat) for pat in patterns):
            raise ValueError(f"keyword cue {item['id']!r}: a pattern has no 'cue' node")
        out.append(
            CueSpec(
                id=str(item["id"]),
                role=role,
                why=str(item["why"]),
                patterns=patterns,
                needs_after=frozenset(str(w) for w in item.get("needs_after", ())),
                words_lead=bool(item.get("words_lead", False)),
                bare_words=str(item.get("bare_words", "never")),
                positive=tuple(item["positive"]),
                negative=tuple(str(t) for t in item["negative"]),
            )
        )
    return tuple(out)


_lock = threading.Lock()
_matchers: dict[int, tuple[Any, dict[int, CueSpec]]] = {}


def _matcher(vocab: Any) -> tuple[Any, dict[int, CueSpec]]:
    with _lock:
        cached = _matchers.get(id(vocab))
        if cached is None:
            from spacy.matcher import Matcher

            matcher, labels = Matcher(vocab), {}
            for spec in load_specs():
                label = f"kwcue:{spec.id}"
                patterns = [[{k: v for k, v in n.items() if k != "_node"} for n in p] for p in spec.patterns]
                matcher.add(label, patterns + [_as_typed(p) for p in patterns if _as_typed(p) != p])
                labels[vocab.strings[label]] = spec
            cached = _matchers[id(vocab)] = (matcher, labels)
        return cached


def _as_typed(pattern: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pattern with each lemma test also met by the word as typed: a request opening with a capitalised
    verb ("Mention 'X' ...") is sometimes tagged a proper noun, whose lemma keeps the capital."""
    return [{("LOWER" if k == "LEMMA" else k): v for k, v in node.items()} for node in pattern]


@dataclass(frozen=True)
class _Quoted:
    start: int  # the opening quote
    end: int  # after the closing quote
    value: str


def _quoted(text: str) -> list[_Quoted]:
    out: list[_Quoted] = []
    for m in _QUOTE.finditer(text):
        if len(out) == MAX_QUOTES:
            return []  # that many quotes is quoted material or a list, not words the user names
        raw = next(g for g in (m.group("s"), m.group("d"), m.group("g")) if g is not None)
        if raw != raw.strip():
            continue  # a space just inside a quote: an unbalanced pair ('use "kayak and "lasagna')
        value = raw
        out.append(_Quoted(m.start(), m.end(), value))
    return out


#: Quoted material: a double-quoted stretch longer than any keyword list; quotes inside it are the material's own.
_MATERIAL = re.compile(r"[\"“][^\"“”\n]{41,2000}[\"”]")


def _in_material(text: str, q: _Quoted) -> bool:
    return any(m.start() < q.start and q.end < m.end() for m in _MATERIAL.finditer(text))


def is_keyword(value: str) -> bool:
    """A quoted word or short phrase, not a sentence ("Sweet dreams.") nor a placeholder ("[name]")."""
    words = value.split()
    return (
        len(value) > 1  # one character is a letter or a symbol, counted by the letter checks
        and not (len(words) > 1 and re.fullmatch(r"[A-Z]|#|\{\w*\}", words[-1]))  # a header template: 'SECTION X'
        and 0 < len(words) <= MAX_KEYWORD_WORDS
        and not re.search(r"[.!?:;\[\]<>*#]", value)
    )


def _clauses(text: str, quoted: list[_Quoted]) -> list[tuple[int, int]]:
    """Clause spans of ``text``: split at clause marks and at commas that do not join two quoted items."""
    masked = list(text)
    for q in quoted:
        for i in range(q.start + 1, q.end - 1):
            masked[i] = "x"
    flat = "".join(masked)
    cuts = {m.start() for m in _CLAUSE_MARK.finditer(flat)}
    for m in re.finditer(r",", flat):
        before = next((q for q in reversed(quoted) if q.end <= m.start()), None)
        after = next((q for q in quoted if q.start >= m.end()), None)
        joins = (
            before is not None
            and after is not None
            and not flat[before.end : m.start()].strip()
            and _JOINER.match(flat[before.end : after.start]) is not None
        )
        if not joins:
            cuts.add(m.start())
    bounds = [0, *sorted(cuts), len(text)]
    return [(a, b) for a, b in itertools.pairwise(bounds) if text[a:b].strip()]


#: A word noun, then only quoted items and their joiners up to a quote ("the words 'X', 'Y' and |").
_NAMED_LIST = re.compile(
    r"(?i)\b(?:key)?(?:words?|terms?|phrases?|expressions?|names?)\s*"
    r"(?:[\"“'‘][^\"“”«»\n]{1,40}?[\"”'’]\s*(?:,\s*)?(?:(?:and|or|nor|plus)\s+)?)*$"
)


def _scare_quoted(doc: Any, q: _Quoted) -> bool:
    """Quotes around a modifier of a noun after them, in its noun phrase ("her "future" forensics", "its "secret"
    workout plan"): the writer distances themselves from a word, they do not name one to use."""
    span = doc.char_span(q.start + 1, q.end - 1, alignment_mode="expand")
    inside = [t for t in span if not t.is_punct] if span is not None else []
    heads = {t.head for t in inside if t.head not in inside}
    if len(heads) != 1:
        return False
    head = heads.pop()
    from faithguard.nlp import text_of

    if _NAMED_LIST.search(text_of(doc)[max(0, q.start - 300) : q.start]):
        return False  # "the words 'worm' and 'peel' need to ...": a word noun names the list (paraphrase study #6)
    between = [t for t in doc[inside[-1].i + 1 : head.i] if t.idx >= q.end]
    return (
        head.idx >= q.end
        and head.pos_ in ("NOUN", "PROPN")
        and all(t.is_punct or (t.head.i == head.i and t.dep_ in ("compound", "amod", "nmod")) for t in between)
    )


def _runs(items: list[_Quoted], text: str) -> list[list[_Quoted]]:
    """Quoted items of one clause grouped into lists (joined only by commas, 'and', 'or')."""
    runs: list[list[_Quoted]] = []
    for q in items:
        if runs and _JOINER.match(text[runs[-1][-1].end : q.start]) is not None:
            runs[-1].append(q)
        else:
            runs.append([q])
    return runs


def _subjects(tok: Any) -> list[Any]:
    return [c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass")]


def _chain(cue: Any, clause: tuple[int, int]) -> list[Any]:
    """The cue and the verbs that govern it inside its clause ("make sure X *is* in it": is <- make)."""
    chain = [cue]
    while chain[-1].dep_ in ("xcomp", "ccomp", "conj", "advcl") and chain[-1].head is not chain[-1]:
        verb, head = chain[-1], chain[-1].head
        if verb.dep_ == "conj" and any(t.text == "," for t in verb.doc[head.i + 1 : verb.i]):
            break  # "..., so leave those out": a verb after a comma opens its own clause (an imperative)
        if not clause[0] <= head.idx < clause[1]:
            break  # a verb across a clause mark does not govern this one ("X is in the poem; what does it mean?")
        chain.append(head)
    governor = _verb_read_as_noun(chain[-1])
    if governor is not None:
        chain.append(governor)
    return chain


def _verb_read_as_noun(verb: Any) -> Any | None:
    """The verb the parser took for a noun just before ``verb``'s "to": a word WordNet lists as a verb, with no
    determiner or possessive pronoun (the quoted word may be read as its possessor), right after quoted words
    ("the words 'X' and 'Y' need to be in there": "need" an apposition, "be" a clause of "words"; paraphrase
    study #6)."""
    if verb.dep_ not in ("acl", "relcl"):
        return None
    to = next((c for c in verb.children if c.dep_ == "aux" and c.lower_ == "to" and c.i == verb.i - 1), None)
    if to is None or to.i < 2:
        return None
    head = verb.doc[to.i - 1]
    if head.pos_ != "NOUN" or verb.doc[head.i - 1].tag_ != "''":
        return None
    if any(c.dep_ == "det" or c.tag_ == "PRP$" for c in head.children):
        return None
    from faithguard.lexical.wordnet_mmap import get_wordnet

    return head if get_wordnet().is_verb(head.lemma_) else None


def _modal(verb: Any) -> bool:
    return any(c.tag_ == "MD" for c in verb.children)


def _stands_for_the_text(tok: Any) -> bool:
    """A subject that names the text being written: "it", or a noun WordNet files mostly as communication
    ("the poem", "your answer", "the letter"), not a person ("my teacher")."""
    if tok.lower_ in ("it", "this"):
        return True
    if tok.pos_ not in ("NOUN", "PROPN") or _WORD_NOUN.match(tok.text):
        return False  # "words that contain 'qu'" describes words, not the text
    from faithguard.lexical.senses import lexfile_share

    return lexfile_share(tok.lemma_.lower()) >= TEXT_NOUN_SHARE


#: Share of a noun's WordNet uses filed as communication from which it names a text (poem 1.0, response 0.33,
#: review 0.29; teacher, plan 0.0). Fixtures: keyword_cues.json ("Your response should include ...", "My teacher
#: told us to include ...").
TEXT_NOUN_SHARE = 0.25
#: Auxiliaries that open a yes/no question about the words rather than a request ("Did you mention 'X'?",
#: "Will 'X' be in the dictionary?"); "Can/Could you ...?" is the idiom of asking and stays a request.
_QUESTION_AUX = frozenset({"do", "does", "did", "will", "would", "is", "are", "was", "were", "has", "have", "had"})


def _directive(cue: Any, item_tokens: set[int], subject_role: bool, clause: tuple[int, int]) -> bool:
    """Whether the cue is an instruction to the writer, not a statement or a question about words.

    Subjects outside the cue's clause are the parser's reach across a clause mark ("Requirements: (2) the word
    'X' must not appear" made "Requirements" the subject of "appear") and are not read."""
    sent = cue.sent
    first = next((t for t in sent if t.is_alpha), None)
    question = sent.text.rstrip().endswith("?")
    if question and first is not None and (first.tag_ in _WH or first.lower_ in _QUESTION_AUX):
        return False
    chain = _chain(cue, clause)
    top = chain[-1]
    if top.dep_ in ("relcl", "acl") and clause[0] <= top.head.idx < clause[1]:
        # inside a description ("a thriller where an agent has to use 'future' forensics"), unless it describes
        # the text itself and governs the words ("a poem that uses 'brine' twice", "a letter using 'thanks'")
        doc = cue.doc
        governed = all(doc[i].head.i == cue.i or doc[i].head.head.i == cue.i for i in item_tokens)
        if not (_stands_for_the_text(top.head) and governed and item_tokens):
            return False
    for depth, verb in enumerate(chain):
        for subj in _subjects(verb):
            if not clause[0] <= subj.idx < clause[1]:
                continue  # the parser reaching across a clause mark
            low = subj.lower_
            if subj.i in item_tokens:
                continue
            if low == "you":
                if _modal(verb) or question:
                    continue  # "you should mention 'X'", "Can you include 'X'?"
                return False  # "You keep using 'tapestry'", "You used 'leverage' three times": told, not asked
            if _WORD_NOUN.match(subj.text) and subject_role:
                continue  # "the word 'gravity' must not appear": the noun stands for the quoted word
            if low in ("i", "we") and depth > 0 and not question:
                continue  # "I want 'breathe' to come up ...": the asker states the wish
            if (low in ("that", "which") or _stands_for_the_text(subj)) and (
                _modal(verb) or len(chain) > 1 or top.dep_ in ("relcl", "acl")
            ):
                continue  # "The poem should include 'X'", "make sure the letter mentions 'Y'"
            return False
    if subject_role:
        # "X should appear", "X has to be in it", "make sure X is in there"; a bare "X is in the poem" is a fact
        return len(chain) > 1 or any(_modal(v) for v in chain)
    return True


def _negated(cue: Any, clause: tuple[int, int]) -> bool:
    """Whether the cue is negated: its own or a governing verb's negation ("don't use", "I don't want X to come
    up"), or "without" before it; a negation elsewhere in the clause belongs to another ask."""
    if cue.dep_ == "pcomp" and cue.head.lower_ == "without":
        return True
    chain = _chain(cue, clause)
    # a verb coordinated with its own auxiliary ("should not go over 100 words and must mention X") does not
    # share the negation of the verb before it
    for i, verb in enumerate(chain[:-1]):
        if verb.dep_ == "conj" and any(c.dep_ in ("aux", "auxpass") for c in verb.children):
            chain = chain[: i + 1]
            break
    return any(
        c.dep_ == "neg" or c.lower_ in ("never", "nt")
        for verb in chain
        for c in verb.children
        if clause[0] <= c.idx < clause[1]
    )


def _specs_for(
    spec: CueSpec, values: list[str], negated: bool, times: list[CountMatch], phrase: str
) -> Iterator[VerifiableSpec]:
    words = [v.lower() for v in values]
    avoid = (spec.role == "avoid") != negated
    if times and len(words) == 1:
        first = [t for t in times if t.start == times[0].start][:2]
        for t in first:
            rel, n = t.relation, t.n
            if avoid:  # "never use X twice": fewer than two; "X shouldn't appear fewer than 3 times": at least 3
                rel = {"at least": "less than", "less than": "at least", "exactly": "less than"}[rel]
            if rel == "exactly":
                yield make_spec(
                    "keywords:frequency", {"relation": "at least", "keyword": words[0], "frequency": n}, phrase
                )
                rel, n = "less than", n + 1
            yield make_spec("keywords:frequency", {"relation": rel, "keyword": words[0], "frequency": n}, phrase)
        return
    if avoid:
        yield make_spec("keywords:forbidden_words", {"forbidden_words": words}, phrase, negated=True)
    else:
        yield make_spec("keywords:existence", {"keywords": words}, phrase)


@dataclass(frozen=True)
class Reading:
    """One keyword constraint read from a clause: the cue spec, the constraint, and whether its words were
    unquoted (a bare reading, which yields to the keyword-noun reading of the same sentence)."""

    spec: CueSpec
    constraint: VerifiableSpec
    bare: bool


#: Dependents an unquoted keyword may have: none but its coordination (a determiner, possessive, modifier or
#: complement makes it a thing to write about, not a word to use: "the deadline", "my keys", "opening hours").
_BARE_CHILDREN = frozenset({"cc", "conj", "punct", "preconj"})


def _conjuncts(tok: Any) -> list[Any]:
    """``tok`` and the words coordinated with it, in order (iterative: a list may be thousands long)."""
    out, todo = [], [tok]
    while todo:
        cur = todo.pop()
        out.append(cur)
        todo.extend(c for c in cur.children if c.dep_ == "conj")
    return sorted(out, key=lambda t: t.i)


def _in_verb_phrase(tok: Any) -> bool:
    """Whether ``tok`` ends a WordNet multiword verb with the word before it ("make *sure*"): the parser sometimes
    hangs it on the next noun as a modifier ("make sure eggs ..." read as "sure eggs")."""
    from faithguard.lexical.wordnet_mmap import get_wordnet

    return tok.i > 0 and get_wordnet().is_verb(f"{tok.doc[tok.i - 1].lemma_}_{tok.lower_}")


def _bare_words(cue: Any, spec: CueSpec) -> tuple[list[Any], bool]:
    """The unquoted words a cue governs (its subject or object and their conjuncts) and whether the request
    names them as words ("the words X and Y"); empty when any of them is more than a bare word."""
    role = ("nsubj", "nsubjpass") if spec.words_lead else ("dobj", "acomp", "attr", "oprd")
    args = [c for c in cue.children if c.dep_ in role]
    if not args:
        return [], False
    head, named = args[0], False
    if _WORD_NOUN.match(head.text):
        deps = {c.dep_ for c in head.children}
        if "nummod" in deps and "det" not in deps:
            return [], False  # "use 200 words maximum": a count of words; "the two words X and Y" names them
        # "use the word hygge": the word noun leads, the word is its apposition, or the parser's second object
        inner = next(
            (c for c in head.children if c.dep_ in ("appos", "compound", "npadvmod", "attr") and c.i > head.i), None
        )  # after the noun: "transition words" has a modifier before it, not a word named
        inner = inner if inner is not None else next((c for c in args[1:] if c.i > head.i), None)
        if inner is None:
            return [], False
        head, named = inner, True
    marks = [c for c in head.children if c.dep_ == "compound" and _WORD_NOUN.match(c.text)]
    named = named or bool(marks)
    items = _conjuncts(head)
    for item in items:
        kids = {
            c.dep_
            for c in item.children
            if c not in marks and not (c.dep_ == "det" and named) and not _in_verb_phrase(c)
        }
        if not item.is_alpha or item.pos_ in ("PRON", "DET", "NUM", "AUX") or kids - _BARE_CHILDREN:
            return [], False
    return items, named


def _scanned(doc: Any, quoted: list[_Quoted]) -> list[tuple[int, int]]:
    """Token ranges worth matching: sentences holding a quoted word or a bare-reading word, and the sentence
    after one holding a quote (its cue may point back: "She hates 'X'. Leave it out.")."""
    sents = list(doc.sents)
    keep: set[int] = set()
    for i, sent in enumerate(sents):
        if any(sent.start_char <= q.start < sent.end_char for q in quoted):
            keep.update((i, i + 1))
        elif _GATE.search(sent.text):
            keep.add(i)
    return [(sents[i].start, sents[i].end) for i in sorted(keep) if i < len(sents)]


def _cue_tokens(doc: Any, quoted: list[_Quoted]) -> list[tuple[int, CueSpec]]:
    matcher, labels = _matcher(doc.vocab)
    cues: list[tuple[int, CueSpec]] = []
    taken: set[int] = set()
    order = {spec.id: i for i, spec in enumerate(load_specs())}
    found = [(mid, a + s, b + s) for s, e in _scanned(doc, quoted) for mid, a, b in matcher(doc[s:e])]
    for match_id, start, end in sorted(found, key=lambda m: order[labels[m[0]].id]):
        spec = labels[match_id]
        cue = doc[start]
        if start in taken:
            continue  # one cue per word: the spec listed first in the file wins
        if any(q.start <= cue.idx < q.end for q in quoted):
            continue
        if spec.needs_after and not any(t.lower_ in spec.needs_after for t in doc[end : cue.sent.end]):
            continue
        cues.append((start, spec))
        taken.add(start)
    return sorted(cues)


def _governed_by_avoid(here: list[tuple[int, CueSpec]], cue_i: int, spec: CueSpec) -> CueSpec:
    """The avoid spec of a cue just before this one, if any ("avoid mentioning 'X'", "stop using 'Y'": a verb of
    leaving out governs the verb of mentioning), else ``spec``."""
    return next((s for i, s in here if s.role == "avoid" and cue_i - 3 < i < cue_i), spec)


def _times_in(text: str, lo: int, hi: int) -> list[CountMatch]:
    """The counts of times ("at least twice") in ``text[lo:hi]``, at their places in ``text``."""
    return [CountMatch(t.relation, t.n, t.start + lo, t.end + lo) for t in find_times(text[lo:hi])]


#: What a phrase (the sentence text a reading cites) loses at its ends: space and the clause marks around it.
_PHRASE_EDGES = " \t\n,;:-–—"


def _quoted_readings(
    doc: Any, text: str, clause: tuple[int, int], inside: list[_Quoted], here: list[tuple[int, CueSpec]], own: bool
) -> Iterator[Reading]:
    """Readings of the quoted words of one clause; ``here`` are the cues read for them (in ``clause``, the
    words' own clause when ``own``, else the next one, pointing back)."""
    a, b = clause if own else (min(q.start for q in inside), max(q.end for q in inside))
    runs = _runs(inside, text)
    for run in runs:
        cue_i, spec = min(here, key=lambda c: abs(doc[c[0]].idx - run[0].start))
        spec = _governed_by_avoid(here, cue_i, spec)
        cue = doc[cue_i]
        item_tokens = {
            t.i
            for q in run
            for t in (doc.char_span(q.start + 1, q.end - 1, alignment_mode="expand") or ())
            if not t.is_punct
        }
        # the words lead their verb ("'X' should appear", "make sure 'X' is mentioned"), read from the spec
        # and the word order, not from the parser's guess at the quoted words' role
        after = own and cue.idx > run[-1].end
        if after and not spec.words_lead and not (cue.tag_ == "VBN" or any(c.dep_ == "auxpass" for c in cue.children)):
            continue  # "Tell me about 'Hamlet' using 4 bullets": a verb after the words governs them only as a passive
        subject_role = spec.words_lead or after
        if not _directive(cue, item_tokens, subject_role, clause):
            continue
        lo, hi = min(a, clause[0]), max(b, clause[1])
        # a count belongs to the list it follows, up to the next list ("'cool' at most twice and 'awesome' ...")
        nxt = next((r[0].start for r in runs if r[0].start > run[-1].end), b)
        scope = (run[0].start, nxt) if own else (a, b)
        times = _times_in(text, *scope)
        negated = _negated(cue, clause)
        phrase = text[lo:hi].strip(_PHRASE_EDGES)
        for c in _specs_for(spec, [q.value for q in run], negated, times, phrase):
            yield Reading(spec, c, False)


def _bare_readings(doc: Any, text: str, clause: tuple[int, int], here: list[tuple[int, CueSpec]]) -> Iterator[Reading]:
    """Readings of unquoted words a cue governs in a clause without quotes."""
    times: list[CountMatch] | None = None
    for cue_i, spec in here:
        cue = doc[cue_i]
        items, named = _bare_words(cue, spec)
        spec = _governed_by_avoid(here, cue_i, spec)
        if not items:
            continue
        if times is None:  # once per clause
            times = _times_in(text, *clause)
        negated = _negated(cue, clause)
        if not (named or spec.bare_words == "always" or (spec.bare_words == "negated" and negated)):
            continue
        if not _directive(cue, {t.i for t in items}, spec.words_lead, clause):
            continue
        phrase = text[clause[0] : clause[1]].strip(_PHRASE_EDGES)
        for c in _specs_for(spec, [t.text for t in items], negated, times, phrase):
            yield Reading(spec, c, True)


def read_cues(text: str, doc: Any) -> list[Reading]:
    """Every keyword constraint a cue makes of the quoted (or bare) words of its clause."""
    quoted = [q for q in _quoted(text) if is_keyword(q.value) and not _in_material(text, q)]
    quoted = [q for q in quoted if not _scare_quoted(doc, q)]
    cues = _cue_tokens(doc, quoted)
    if not cues or len(cues) > MAX_QUOTES:
        return []  # no cue, or so many that the text is material (a list of orders is not one request)
    clauses = _clauses(text, quoted)
    out: list[Reading] = []
    for ci, (a, b) in enumerate(clauses):
        inside = [q for q in quoted if a <= q.start and q.end <= b]
        here = [(i, s) for i, s in cues if a <= doc[i].idx < b]
        if not inside:
            out.extend(_bare_readings(doc, text, (a, b), here))
            continue
        if here:
            out.extend(_quoted_readings(doc, text, (a, b), inside, here, True))
        elif ci + 1 < len(clauses):
            na, nb = clauses[ci + 1]
            # "..., so leave those out": the next clause's cue points back at this clause's words
            back = [
                (i, s)
                for i, s in cues
                if na <= doc[i].idx < nb and any(t.lower_ in _ANAPHORS for t in doc[i + 1 : i + 4])
            ]
            if back:
                out.extend(_quoted_readings(doc, text, (na, nb), inside, back, False))
    return out


#: A cheap gate beside a quoted word: a word a bare reading starts from; most requests have neither and are not read.
_GATE = re.compile(r"(?i)\b(?:mention|say|said|saying|utter)|\bwords?\b|\bin\s+(?:it|there)\b")


def keyword_cue_readings(text: str) -> list[Reading]:
    """Every reading of :func:`read_cues` over the shared parse of ``text`` (empty without a model)."""
    if not _QUOTE.search(text) and not _GATE.search(text):
        return []
    from faithguard.errors import ConfigError
    from faithguard.nlp import parse

    try:
        doc = parse(text)
    except ConfigError:
        return []
    return read_cues(text, doc)


def detect_keyword_cues(text: str) -> list[VerifiableSpec]:
    """Keyword constraints on quoted (or bare) words, read from their clause's cue."""
    return [r.constraint for r in keyword_cue_readings(text)]


def fixture_problem(path: str, spec_id: str, fixture: Any, positive: bool) -> str | None:
    """One fixture of ``data/keyword_cues.json`` (run by ``tests/test_spec_fixtures.py``)."""
    from faithguard.nlp import parse

    text = str(fixture["text"]) if positive else str(fixture)
    found = [(r.spec.id, r.constraint) for r in read_cues(text, parse(text)) if r.spec.id == spec_id]
    if positive:
        want = (str(fixture["verifier"]), dict(fixture["params"]))
        got = [(c.verifier, c.params) for _, c in found]
        return None if want in got else f"{spec_id}: wanted {want} in {text!r}, read {got}"
    return None if not found else f"{spec_id} read {[c.params for _, c in found]} in {text!r}"
