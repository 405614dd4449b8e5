"""Semantic roles of one request span from a spaCy parse: action, subject, context constraints."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from faithguard.engine.lexicon import TASK_VERBS, TEMPORAL_PREPS, VAGUE_ADJECTIVES, number_value, words
from faithguard.lexical import wordnet
from faithguard.models import Category

__all__ = ["RawConstraint", "SpanRoles", "analyse_span"]

_CONTAINERS = words(
    "list name names example type kind sort summary overview comparison description explanation number set couple "
    "pair variety range few lot group collection selection series"
)
_WH = frozenset({"what", "which", "who", "whom", "whose", "when", "where", "why", "how"})
_LIGHT_VERBS = frozenset({"be", "have", "do", "can", "could", "would", "will", "should", "may", "might", "must"})
_PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})
_TIME_LABELS = frozenset({"DATE", "TIME"})
_EXCL_WORDS = frozenset({"except", "excluding", "besides", "without", "exclude"})
_PRONOUNS = frozenset({"it", "them", "this", "that", "these", "those", "they", "one", "ones", "me", "you", "us"})
_RELATIONAL = words("impact effect influence effects impacts influences role view views opinion stance")
_BOUND_PREPS = frozenset({"under", "over", "within", "below", "above", "up"})
_FUNCTION_POS = frozenset({"ADP", "DET", "PUNCT", "CCONJ", "SCONJ", "PRON", "PART", "AUX", "SPACE"})
_JOINERS = frozenset({"-", "–", "/", "'", "’"})
_YEAR = re.compile(r"^(1\d{3}|20\d{2})s?$")


@dataclass
class RawConstraint:
    """A constraint before ids are assigned: char offset, text, category, flags."""

    start: int
    text: str
    category: Category
    negated: bool = False
    subquestion: int = 0
    verifier: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    tentative: bool = False


@dataclass
class SpanRoles:
    """What one span holds: its constraints and the main action lemma (None for plain questions)."""

    constraints: list[RawConstraint]
    task: str | None
    subject: str | None


def _subtrees(heads: Any) -> set[int]:
    """Indices of the union of the heads' subtrees, each token read once: a head inside a subtree already read is
    skipped (widest first: an ancestor's span holds its descendants'). A chain of clauses each nested in the one
    before (a run-on request) made the plain union quadratic: 50k characters, 17 s."""
    out: set[int] = set()
    for head in sorted(heads, key=lambda h: h.right_edge.i - h.left_edge.i, reverse=True):
        if head.i not in out:
            out.update(t.i for t in head.subtree)
    return out


def _text(tokens: list[Any]) -> str:
    """The query text covering ``tokens`` (contiguous runs kept verbatim)."""
    toks = sorted({t.i: t for t in tokens}.values(), key=lambda t: t.i)
    if not toks:
        return ""
    runs: list[list[Any]] = [[toks[0]]]
    doc = toks[0].doc
    for t in toks[1:]:
        gap = range(runs[-1][-1].i + 1, t.i)
        if t.i == runs[-1][-1].i + 1 or (len(gap) == 1 and doc[gap[0]].text in _JOINERS):
            runs[-1].append(t)
        else:
            runs.append([t])
    doc = toks[0].doc
    # tokens' own text (doc.text would rebuild the whole document string on every access)
    pieces = ["".join(doc[i].text_with_ws for i in range(r[0].i, r[-1].i)) + r[-1].text for r in runs]
    return " ".join(p.strip(" ,;:") for p in pieces).strip(" ,;:.")


def _is_task_verb(tok: Any, span: Any) -> bool:
    low = tok.lower_
    if tok.lemma_.lower() not in TASK_VERBS and low not in TASK_VERBS:
        return False
    if any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ != "you" for c in tok.children):
        return False
    if tok.dep_ in ("ROOT", "xcomp", "ccomp", "conj") and (tok.pos_ == "VERB" or tok.i == _first_word(span)):
        return True
    if tok.i != _first_word(span):
        return False
    # "List European capitals": the tagger reads the imperative as an adjective of the object.
    misread = tok.dep_ == "amod" and tok.text[:1].isupper() and tok.head.i > tok.i
    # "Describe Paris": the capitalised imperative is read as part of the name that follows it.
    misread = misread or (
        tok.dep_ == "compound" and tok.text[:1].isupper() and tok.head.i > tok.i and tok.head.pos_ == "PROPN"
    )
    return misread or tok.dep_ not in ("compound", "amod", "nsubj")


def _first_word(span: Any) -> int:
    skip = {"please", "kindly", "now", "then", "also", "additionally", "and", "finally", "so"}
    for t in span:
        if t.is_alpha and t.lower_ not in skip:
            return int(t.i)
    return int(span.start)


def _find_action(span: Any) -> Any | None:
    cands = [t for t in span if _is_task_verb(t, span)]
    if not cands:
        return None
    for pref in ("ROOT", None):
        for t in cands:
            if pref is None or t.dep_ == pref:
                return t
    return None


#: Penn Treebank tags of wh-words (the tagger's, not a word list): they open an embedded question.
_WH_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})


def _is_wh_clause(tok: Any) -> bool:
    """A clause opened by a wh-word child ("*why* owls hunt", "*what* a compiler does"), whatever part of
    speech the tagger gave its head."""
    return tok.dep_ in _CLAUSE_DEPS and any(c.tag_ in _WH_TAGS and c.i < tok.i for c in tok.children)


_CLAUSE_DEPS = frozenset({"relcl", "ccomp", "advcl", "acl", "xcomp"})


def _wh_clauses(span: Any, anchor: Any) -> list[Any]:
    """Embedded questions after ``anchor``, however the parser attached them (a ``ccomp`` of the action, an
    ``advcl``, or a ``relcl`` of a unit noun as in "in 3 points why ...")."""
    return [t for t in span if t.i > anchor.i and _is_wh_clause(t)]


def _subject_head(span: Any, action: Any | None, root: Any, used: set[int]) -> Any | None:
    def nounish(t: Any) -> bool:
        typed = t.pos_ in ("NOUN", "PROPN") or (
            t.dep_ in ("nsubj", "nsubjpass", "dobj", "pobj") and t.is_alpha and not t.is_stop
        )
        # the index test, not ``t in span`` (which walks the span: n^2 over a long request)
        return typed and t.lower_ not in _PRONOUNS and span.start <= t.i < span.end and t.i not in used

    heads: list[Any] = []
    anchor = action if action is not None else root
    if action is None:
        heads += [
            c
            for c in anchor.children
            if c.dep_ in ("nsubj", "nsubjpass") and nounish(c) and any(g.lower_ in _WH for g in c.children)
        ]
    heads += [
        c
        for c in anchor.children
        if c.dep_ in ("dobj", "attr", "oprd") and (nounish(c) or (c.pos_ == "NUM" and c.i not in used))
    ]
    if not heads:
        heads += [c for c in anchor.children if c.dep_ in ("nsubj", "nsubjpass") and nounish(c)]
    if not heads:
        for prep in anchor.children:
            if prep.dep_ == "prep" and prep.lower_ in ("about", "on", "of", "for", "regarding"):
                heads += [g for g in prep.children if g.dep_ == "pobj" and nounish(g)]
    if not heads:
        # An embedded question is the topic ("Answer in 300 words: what causes inflation?"): its object,
        # else its subject, before any noun of the action's own modifiers ("in 300 *words*").
        for clause in _wh_clauses(span, anchor):
            heads += [c for c in clause.children if c.dep_ in ("dobj", "attr") and nounish(c)]
            heads += [c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass") and nounish(c)]
            # a clause head the tagger read as a noun ("why owls | hunt"): its noun modifiers are the topic
            if clause.pos_ == "NOUN":
                heads += [c for c in clause.lefts if c.dep_ == "compound" and nounish(c)]
    if not heads:
        heads = [t for t in span if nounish(t) and t.dep_ not in ("compound", "amod", "npadvmod")]
    if not heads:
        return None
    head = heads[0]
    if head.pos_ == "NUM" or number_value(head.text) is not None:
        inner = [g for p in head.children if p.dep_ == "prep" and p.lower_ == "of" for g in p.children]
        inner = [g for g in inner if g.dep_ == "pobj" and nounish(g)]
        if inner:
            head = inner[0]
    for _ in range(3):
        if head.lemma_.lower() not in _CONTAINERS:
            break
        inner = [g for p in head.children if p.dep_ == "prep" and p.lower_ == "of" for g in p.children]
        inner = [g for g in inner if g.dep_ == "pobj" and nounish(g)]
        if not inner:
            break
        head = inner[0]
    return head


def _model_number(tok: Any) -> bool:
    """A number right after its noun names a model, an edition or a numbered item ("iPhone 15", "Windows 11",
    "Article 17", "clause 7"), not a count: a count stands before what it counts ("17 articles"). Fixtures:
    tests/engine/test_identifiers.py."""
    if tok.dep_ != "nummod":
        return False
    if tok.head.pos_ in ("PROPN", "NOUN") and tok.i == tok.head.i + 1:
        return True
    prev = tok.doc[tok.i - 1] if tok.i > 0 else None
    return prev is not None and prev.pos_ == "PROPN" and tok.text.isdecimal()


def _number_phrase(num: Any) -> list[Any]:
    toks = [num]
    toks += [c for c in num.children if c.dep_ in ("advmod", "quantmod", "compound", "nummod", "amod")]
    for c in list(toks[1:]):
        toks += [g for g in c.children if g.dep_ in ("advmod", "quantmod", "pobj", "prep")]
    return toks


def _has_label(tokens: Any, labels: frozenset[str]) -> bool:
    return any(t.ent_type_ in labels for t in tokens)


def _is_timeish(tokens: list[Any]) -> bool:
    """A time entity, a year, or a noun WordNet files under a period or unit of time ("the 18th *century*")."""
    return any(
        t.ent_type_ in _TIME_LABELS
        or _YEAR.match(t.text)
        or (t.pos_ in ("NOUN", "PROPN") and any(wordnet.is_time_noun(n) is True for n in _noun_names(t)))
        for t in tokens
    )


def _noun_names(tok: Any) -> list[str]:
    """The noun's lemma, and the multiword name it heads with its modifiers ("Middle Ages") when it has them."""
    mods = [c.text for c in tok.lefts if c.dep_ in ("compound", "amod")]
    return [tok.lemma_, " ".join([*mods, tok.text])] if mods else [tok.lemma_]


def _own(prep: Any) -> list[Any]:
    """The tokens of a preposition phrase without the phrases nested inside it, in text order.

    A walk down from the preposition that stops at each nested phrase (a preposition, an agent, a wh-clause), so a
    chain of nested phrases costs its length, not its square (each phrase's whole subtree was walked; issue 16)."""
    own: list[Any] = []
    stack = [prep]
    while stack:
        tok = stack.pop()
        own.append(tok)
        stack.extend(c for c in tok.children if not (c.dep_ in ("prep", "agent") or _is_wh_clause(c)))
    return sorted(own, key=lambda t: t.i)


#: Dependency labels of a verb's own arguments (and of their conjuncts and appositions).
_ARGUMENT_DEPS = frozenset({"dobj", "nsubj", "nsubjpass", "attr", "oprd"})


def _is_argument(tok: Any) -> bool:
    """Whether a place name is what the request is about ("Who designed *the Eiffel Tower*?", "Compare
    London and *Paris*") rather than a restriction on it ("rivers *in Spain*", "*Japan*'s economy")."""
    while tok.dep_ in ("conj", "appos") and tok.head is not tok:
        tok = tok.head
    # a noun at the root is the topic of a verbless request ("Lisbon and Porto, compared.")
    return tok.dep_ in _ARGUMENT_DEPS or (tok.dep_ == "ROOT" and tok.pos_ in ("NOUN", "PROPN"))


def _prep_kind(prep: Any) -> Category | None:
    """LOCATION/TIME when a preposition phrase restricts place or time, else None."""
    sub = _own(prep)[1:]
    if not sub:
        return None
    low = prep.lower_
    ages = any(t.lower_ in ("old", "year-old") or t.text.endswith("-old") for t in sub)
    if (_has_label(sub, _TIME_LABELS) and not ages) or any(_YEAR.match(t.text) for t in sub):
        return Category.TIME
    if low in (TEMPORAL_PREPS | {"from", "in", "during", "throughout"}) - {"by"} and _is_timeish(sub):
        return Category.TIME
    if low in ("before", "after", "since", "during", "until") and any(t.dep_ == "pobj" for t in sub):
        return Category.TIME
    if _has_label(sub, _PLACE_LABELS) and low not in ("about", "by", "than", "like"):
        return Category.LOCATION
    return None


def _verb_phrase(verb: Any, used: set[int]) -> list[Any]:
    toks = [verb]
    for c in verb.children:
        if c.i in used or c.dep_ in ("nsubj", "nsubjpass", "conj", "cc", "punct", "mark", "relcl", "advcl"):
            continue
        if c.lower_ in _WH:
            continue
        if c.dep_ in ("aux", "auxpass") and c.i < verb.i:
            continue
        if _claimed(c, used):
            continue
        toks += [t for t in c.subtree if t.i not in used]
    return toks


def _claimed(prep: Any, used: set[int]) -> bool:
    """A prepositional phrase whose object another constraint already holds ("in *3 points*"): what is left
    of it is a fragment ("in bullet"), not a constraint of its own."""
    return prep.dep_ == "prep" and any(g.dep_ == "pobj" and g.i in used for g in prep.children)


def _negation_tokens(neg: Any) -> list[Any]:
    head = neg.head
    if head.dep_ == "cc" and head.head.i != head.i:
        # "capitals to visit, but not Paris": the parser hangs "not" on "but"; what it negates is the conjunct after it
        conj = next((c for c in head.head.children if c.dep_ == "conj" and c.i > neg.i), None)
        if conj is not None:
            return sorted([neg, *conj.subtree], key=lambda t: t.i)
    kept: list[Any] = [head] if head.i >= neg.i else []
    # "not Paris or Rome": coordinated names stay under the negation; coordinated clauses do not.
    nominal = head.pos_ in ("NOUN", "PROPN")
    for c in head.children:
        skipped = c.dep_ in ("conj", "cc", "nsubj", "nsubjpass", "mark", "relcl") or (c.dep_ == "punct" and c.i > neg.i)
        if skipped and not (nominal and c.dep_ in ("conj", "cc") and c.i > neg.i):
            continue
        # the kept children's subtrees only (the head's subtree is them and the head): a run-on "never use X and
        # never use Y and ..." hangs every clause under the first, and walking the whole subtree per negation was n^2
        kept.extend(t for t in c.subtree if t.i >= neg.i)
    return sorted(kept, key=lambda t: t.i)


def analyse_span(span: Any, subquestion: int = 0) -> SpanRoles:
    """Extract the constraints of one request span (a spaCy ``Span``)."""
    out: list[RawConstraint] = []
    used: set[int] = set()

    def add(tokens: list[Any], category: Category, negated: bool = False) -> None:
        toks = [t for t in tokens if t.i not in used or negated]
        text = _text(toks)
        if not text or not any(ch.isalnum() for ch in text) or all(t.pos_ in _FUNCTION_POS for t in toks):
            return
        used.update(t.i for t in toks)
        out.append(RawConstraint(min(t.idx for t in toks), text, category, negated, subquestion))

    # 1. exclusions first: whatever they contain stays inside the negated constraint
    barren: set[int] = set()  # negations whose reading is a subset of one made only of function words
    for tok in span:
        if tok.dep_ == "neg" and tok.i not in used and tok.i not in barren and span.start <= tok.head.i < span.end:
            toks = _negation_tokens(tok)
            if tok.head.dep_ != "cc" and all(t.pos_ in _FUNCTION_POS for t in toks):
                # "not not not ...": a later negation of the same head reads a subset of these words, function words
                # too, which add() refuses; reading each again cost the square of the run (issue 16)
                barren.update(t.i for t in toks if t.dep_ == "neg" and t.head.i == tok.head.i)
            if tok.head.lemma_.lower() in TASK_VERBS and tok.head.dep_ == "ROOT":
                toks = [t for t in toks if t.i > tok.head.i or t.i == tok.i]
            if len(toks) > 1:
                add(toks, Category.OTHER, negated=True)
        elif tok.lower_ in _EXCL_WORDS and tok.i not in used and tok.i not in barren:
            toks = list(tok.subtree)
            if all(t.pos_ in _FUNCTION_POS for t in toks):
                # "without without ...": each nested one's subtree is inside this one, function words too (issue 16)
                barren.update(t.i for t in toks if t.lower_ in _EXCL_WORDS)
            if len(toks) > 1:
                add(toks, Category.OTHER, negated=True)
        elif (
            tok.lower_ in ("other", "apart")
            and tok.i + 1 < len(tok.doc)
            and tok.doc[tok.i + 1].lower_
            in (
                "than",
                "from",
            )
        ):
            nxt = tok.doc[tok.i + 1]
            add([tok, *nxt.subtree], Category.OTHER, negated=True)

    root = span.root
    action = _find_action(span)
    task: str | None = None
    if action is not None:
        task = action.lemma_.lower() if action.lemma_.lower() in TASK_VERBS else action.lower_
        add([action, *[c for c in action.children if c.dep_ == "prt"]], Category.ACTION)
    elif span[0].lower_ in _WH or span.text.rstrip().endswith("?"):
        task = "answer"

    # 2. time and place restrictions from prepositional phrases and entities
    for tok in span:
        if tok.dep_ in ("prep", "agent") and tok.i not in used:
            kind = _prep_kind(tok)
            if kind is not None:
                add(_own(tok), kind)
    for ent in span.ents:
        toks = [t for t in ent if t.i not in used]
        if not toks:
            continue
        if ent.label_ in _TIME_LABELS:
            add(toks, Category.TIME)
        elif ent.label_ in _PLACE_LABELS and not _is_argument(ent.root):
            add(toks, Category.LOCATION)

    # 3. the subject with its qualifiers and quantity
    head = _subject_head(span, action, root, used)
    if head is not None and head.pos_ == "NUM":
        add(_number_phrase(head), Category.QUANTITY)
        # the parser sometimes makes the cardinal a sibling object of its noun ("Write 3 | haikus"): the
        # counted noun, if any, is still the subject
        head = _subject_head(span, action, root, used)
        if head is not None and head.pos_ == "NUM":
            head = None
    if action is not None:
        forms = {c.lemma_.lower() for c in action.children if c.dep_ == "dobj"}
        for form, family in (("list", "list"), ("summary", "summarize"), ("comparison", "compare")):
            if form in forms:
                task = family
    for tok in span:
        if tok.i in used or (head is not None and tok.head.i == head.i):
            continue
        if _model_number(tok):
            continue
        if tok.dep_ == "nummod" and tok.head.pos_ in ("NOUN", "PROPN") and tok.head.i not in used:
            noun = tok.head
            extra = [noun.head] if noun.dep_ == "pobj" and noun.head.lower_ in _BOUND_PREPS else []
            add([*extra, *_number_phrase(tok), noun], Category.QUANTITY)
    subject_text: str | None = None
    if head is not None:
        subj_toks = [head]
        chain = [head]
        while chain[-1].dep_ == "pobj" and chain[-1].head.lower_ == "of" and chain[-1].head.head.i != head.i:
            outer = chain[-1].head.head
            if outer.pos_ == "NUM" or outer.lemma_.lower() in _CONTAINERS:
                chain.append(outer)
                if outer.pos_ == "NUM" and outer.i not in used:
                    add(_number_phrase(outer), Category.QUANTITY)
                    continue
                for c in outer.children:
                    if c.dep_ == "nummod" and c.i not in used:
                        add(_number_phrase(c), Category.QUANTITY)
            else:
                break
        for c in head.children:
            if c.i in used:
                continue
            if _model_number(c):
                subj_toks.append(c)
            elif c.dep_ == "nummod" or (c.dep_ == "quantmod" and number_value(c.text) is not None):
                add(_number_phrase(c), Category.QUANTITY)
            elif c.dep_ in ("amod", "nmod") or (c.dep_ == "compound" and c.ent_type_ == "NORP"):
                if (c.lemma_.lower() not in VAGUE_ADJECTIVES and c.is_alpha) or c.ent_type_ == "NORP":
                    extra = [g for g in c.children if g.dep_ in ("advmod", "npadvmod", "amod")]
                    add([*extra, c], Category.QUALIFIER)
            elif c.dep_ == "compound":
                subj_toks += list(c.subtree)
            elif c.dep_ in ("cc", "conj") and c.pos_ in ("NOUN", "PROPN", "CCONJ") and c.lower_ != "but":
                subj_toks += [c, *[g for g in c.children if g.dep_ in ("compound", "amod", "cc", "conj")]]
            elif (
                c.dep_ == "prep"
                and c.lower_ == "of"
                and any(t.dep_ == "nummod" and not _model_number(t) for t in c.subtree)
            ):
                add([t for g in c.children if g.dep_ == "pobj" for t in g.subtree], Category.QUANTITY)
            elif c.dep_ == "prep" and (c.lower_ == "of" or (c.lower_ == "on" and head.lemma_ in _RELATIONAL)):
                subj_toks += [t for t in c.subtree if t.i not in used]
        add(subj_toks, Category.SUBJECT)
        subject_text = _text(subj_toks)
        for c in head.children:
            if c.i in used:
                continue
            if c.dep_ in ("relcl", "acl"):
                comps = [g for g in c.children if g.dep_ in ("acomp", "attr") and g.i not in used]
                if c.lemma_ == "be" and comps:
                    add([t for g in comps for t in g.subtree], Category.QUALIFIER)
                else:
                    add(_verb_phrase(c, used), Category.ACTION)
                for conj in c.conjuncts:
                    if conj.i not in used and conj.pos_ in ("VERB", "AUX"):
                        add(_verb_phrase(conj, used), Category.ACTION)
            elif c.dep_ == "prep" and c.lower_ in ("about", "on", "regarding"):
                add(list(c.subtree), Category.SUBJECT)
            elif c.dep_ == "prep" and c.lower_ in ("with", "without", "featuring", "containing"):
                add(list(c.subtree), Category.QUALIFIER)
            elif c.dep_ == "prep":
                add(list(c.subtree), Category.OTHER)
            elif c.dep_ == "conj":
                for g in c.children:
                    if g.dep_ == "prep" and g.i not in used:
                        add(list(g.subtree), Category.OTHER)

    # 4. the content verb of a plain question ("Who invented the telephone?"); an embedded question is the
    # topic, never part of the verb phrase or of a modifier ("Say in one paragraph *who built the pyramids*")
    topic = _subtrees(_wh_clauses(span, action if action is not None else root))
    if action is None and root.pos_ == "VERB" and root.lemma_.lower() not in _LIGHT_VERBS and root.i not in used:
        add(_verb_phrase(root, used | topic | ({head.i} if head is not None else set())), Category.ACTION)

    # 5. remaining numbers on other nouns ("of four stanzas") and modifiers of the action
    if action is not None:
        for c in action.children:
            if c.i in used:
                continue
            if c.dep_ == "prep" and c.lower_ in ("about", "on", "regarding"):
                add(list(c.subtree), Category.SUBJECT)
            elif (c.dep_ == "prep" and not _claimed(c, used)) or (
                c.dep_ in ("advcl", "xcomp") and c.lower_.endswith("ing")
            ):
                add([t for t in c.subtree if t.i not in topic], Category.OTHER)
    out.sort(key=lambda r: r.start)
    return SpanRoles(out, task, subject_text)
