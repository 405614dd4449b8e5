"""Offline satisfaction of one constraint by a response: satisfied/violated only on clear evidence."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from faithguard.engine import bridge
from faithguard.engine.counts import (
    UNITS,
    bounded,
    compare,
    count_parts,
    measure_noun,
    scoped_verifier,
    table_quantity,
    table_unit,
    unit_of,
    whole,
)
from faithguard.engine.lexicon import (
    CONTRAST_MARKERS,
    TASK_FAMILY,
    WRITE_FORMS,
    number_value,
    words,
)
from faithguard.engine.named import asks_for_one, capitalised_names, code_names, excluded_objects
from faithguard.engine.placed import (
    enumerated,
    item_heads,
    items_in,
    listed,
    name_parts,
    named_items,
    place_of_items,
    typed_conjuncts,
    typed_names,
)
from faithguard.engine.places import contains, demonyms, is_place
from faithguard.engine.relations import of_place, related_names
from faithguard.engine.response import ResponseView, norm, view_of
from faithguard.engine.scope import RequestScope, request_scope
from faithguard.engine.task_forms import software_form, task_family, write_form
from faithguard.engine.timespan import allowed_interval, mentioned_intervals
from faithguard.engine.wordforms import stem
from faithguard.lexical import wordnet
from faithguard.models import Category, Constraint, Status

__all__ = ["Verdict3", "check_constraint", "content_terms"]

Verdict3 = tuple[Status, str]

_STOP = words(
    """a an the of in on at to for from by with about into over under and or but not no nor is are was were be been
    being do does did done that this these those it its their his her who whom whose which what when where why how
    than then as any all each every some such only just also very more most less least many much few there here
    within without before after since during until between among per exactly me my you your please must should
    can could would will shall may might"""
)
_QUANT_WORD = re.compile(r"\b(\d+|[a-z]+(?:-[a-z]+)?)\b")
_AT_LEAST = re.compile(r"\b(at least|more than|over|minimum(?: of)?|no fewer than|no less than)\b")
_AT_MOST = re.compile(r"\b(at most|no more than|fewer than|less than|under|up to|maximum(?: of)?|not more than)\b")
_STRICT = re.compile(r"\b(more than|over|fewer than|less than|under)\b")
_ENTITY_EXCLUSION = re.compile(
    r"^(except|excluding|exclude|besides|without|other than|apart from|not including|but not|no)\b|"
    r"\bnot (?:mention|include|use|name|list|discuss|talk about|say|write about|cite|reference|involve)\b|"
    r"\b(?:never|avoid|don't|do not) (?:mention|include|use|name|list|discuss)\b",
    re.IGNORECASE,
)
#: "not the Ebro", "not Paris": a bare name after the negation, no verb, so an entity is excluded.
_BARE_NAME_EXCLUSION = re.compile(r"^(?:not|nor|but not)\s+(?:the\s+|any\s+)?[A-Z][\w'’.-]*")
_CONTRAST = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(m.strip()) for m in CONTRAST_MARKERS) + r")(?!\w)")
#: "rivers, lakes and seas": an inline enumeration. The look-behind starts a match only at a word's first
#: letter, so a long run of letters is scanned once (without it every position rescans the run: quadratic).
_INLINE_LIST = re.compile(r"(?<!\w)\w+, \w+(?: \w+)*,? and \w+")
_SKIP_ENTITY_WORDS = frozenset({"not", "no", "except", "excluding", "without", "other", "than", "apart", "from"})


def content_terms(text: str) -> list[str]:
    """Content words of a constraint (no stop words, numbers or request verbs)."""
    words = [w for w in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text) if len(w) > 1]
    out = [w for w in words if w.lower() not in _STOP and number_value(w) is None]
    return [w for w in out if w.lower() not in TASK_FAMILY or len(out) == 1]


def _found_as(view: ResponseView, term: str) -> str | None:
    """The word (the term itself, a WordNet synonym or derived form) under which ``term`` occurs, else None."""
    if view.has_term(term):
        return term
    syns = wordnet.related_forms(term)
    return next((s for s in sorted(syns) if len(s) >= 4 and view.has_term(s)), None)


def subject_noun(c: Constraint, others: Sequence[Constraint]) -> str | None:
    """The head noun of the subject in ``c``'s sub-question ("explorers"), if any."""
    for o in others:
        if o.category is Category.SUBJECT and o.subquestion == c.subquestion and not o.negated:
            terms = content_terms(o.text)
            if terms:
                return terms[0] if len(terms) == 1 else terms[-1]
    return None


def _present(view: ResponseView, term: str) -> bool:
    return _found_as(view, term) is not None


#: A response that declines or asks back ("I'm not aware of...", "Could you clarify...?") is not off topic.
_DECLINES_OR_ASKS = re.compile(
    r"^\W*(?:i(?:'m| am)? (?:sorry|not sure|not aware|unable)|i (?:can(?:no|')?t|don't|do not|couldn't)|"
    r"(?:could|can|would|do) you\b)|\?\s*$",
    re.IGNORECASE,
)


#: Distinct content words an answer must share with the supplied documents to be about them; the answer to
#: "answer the following question" repeats the question's words, not the request's.
_DOC_SHARED_WORDS = 3


@lru_cache(maxsize=16)
def _long_content_words(text: str) -> frozenset[str]:
    """Content words of four letters or more in ``text``'s first 20,000 characters, read once per text: every
    constraint of a request asks for them (a request of 300 questions read itself 300 times)."""
    return frozenset(w.lower() for w in content_terms(text[:20000]) if len(w) >= 4)


def _shares_documents(view: ResponseView, docs: str) -> bool:
    """Whether the response repeats content words of the documents the request points to."""
    doc_terms = _long_content_words(docs)
    shared = 0
    for t in doc_terms:
        shared += view.has_term(t)
        if shared >= _DOC_SHARED_WORDS:
            return True
    return False


def _off_topic(view: ResponseView, all_constraints: Sequence[Constraint], docs: str = "", query: str = "") -> bool:
    """No content word of the request appears in a prose response of some length that names nothing.

    The request's words are its constraints' words and, when it is given, the request text itself: a question
    pasted after "answer the following question" holds the topic though no constraint was read from it.

    Answers to "which X?" questions name an instance ("Tungsten") without repeating X, so a
    response that names anything, lists items, declines or asks back is never called off topic.
    """
    # prose of some length: alphabetic words, so a regex or a table of digits is not prose
    if sum(1 for w in view.words if w.isalpha()) < 25 or len(view.items) >= 2 or view.named():
        return False
    if docs and _shares_documents(view, docs):
        return False
    if query and _shares_documents(view, query):
        return False  # the request's own words (a question pasted after the instruction) are its topic too
    if _DECLINES_OR_ASKS.search(view.text.strip()):
        return False
    if any(task_family(c) == "write" for c in all_constraints if c.category is Category.ACTION):
        return False
    terms = [t for c in all_constraints if not c.negated and not c.verifier for t in content_terms(c.text)]
    return bool(terms) and not any(_present(view, t) for t in terms)


def _terms_check(
    c: Constraint, view: ResponseView, others: Sequence[Constraint], what: str, docs: str = "", query: str = ""
) -> Verdict3:
    terms = content_terms(c.text)
    if not terms:
        return Status.UNKNOWN, f"offline: no checkable word in the {what}"
    if c.category is Category.SUBJECT and len(terms) == 1 and norm(terms[0]) in WRITE_FORMS:
        return Status.UNKNOWN, f"offline: the form {terms[0]!r} is judged with the task action"
    if c.category is Category.SUBJECT:
        typed, _ = typed_names(view, terms[-1])
        typed = related_names(terms[-1], typed, of_place(c, others))
        heads = [h for h in item_heads(listed(view), name_parts(view)) if h is not None]
        other = [h for h in heads if h not in typed and wordnet.is_instance_of(h, terms[-1]) is False]
        if typed and other:
            # a list whose items are of the asked kind only in part ("capitals: Paris, Lyon"): no evidence for all
            return Status.UNKNOWN, f"offline: WordNet types {typed[0]!r} as {terms[-1]!r} but not {other[0]!r}"
        if typed:
            return Status.SATISFIED, f"offline: WordNet types {', '.join(typed[:3])} as {terms[-1]!r}"
    hits = [(t, _found_as(view, t)) for t in terms]
    shown = [repr(t) if f == t else f"{f!r} (for {t!r})" for t, f in hits if f is not None]
    if shown:
        # Evidence, not mention: naming the words of a requirement does not meet it ("from the
        # perspective of a cat" is not met by a story that says "cat"). Typed evidence above decides.
        return Status.UNKNOWN, f"offline: the response mentions {', '.join(shown[:3])}; a mention is not evidence"
    if c.category in (Category.SUBJECT, Category.LOCATION, Category.TIME) and _off_topic(view, others, docs, query):
        return Status.VIOLATED, f"offline: the response never mentions {c.text!r} or any other term of the request"
    return Status.UNKNOWN, f"offline: {c.text!r} not found verbatim; may be paraphrased"


def _target(text: str) -> tuple[int, str] | None:
    """The number and relation ('==', '>=', '<=', '>', '<') a quantity constraint asks for."""
    low = text.lower()
    value = None
    for m in _QUANT_WORD.finditer(low):
        value = number_value(m.group(1))
        if value is not None:
            break
    if value is None:
        return None
    strict = _STRICT.search(low) is not None
    if _AT_LEAST.search(low):
        return value, ">" if strict else ">="
    if _AT_MOST.search(low):
        return value, "<" if strict else "<="
    return value, "=="


def _named_count(c: Constraint, view: ResponseView, others: Sequence[Constraint], want: int, rel: str) -> Verdict3:
    """Count named answers in a short prose answer: typed by WordNet to satisfy, all names to fall short.

    Capitalisation alone never satisfies a count: only names WordNet types as the subject noun do,
    and only when no name is left untyped. Fewer names than asked (typed or not) is a shortfall.
    """
    noun = subject_noun(c, others)
    named = view.dominant_named() if view.names_reliable else []
    if not named or len(view.words) > 60:
        return Status.UNKNOWN, "offline: no list or countable items in the response"
    parts = name_parts(view, named)
    short = rel in ("==", ">=", ">")
    joined = typed_conjuncts(view, noun) if short and noun else 0  # items capitalisation may miss
    if short and len(parts) < want and joined < want:
        return Status.VIOLATED, f"offline: the response names only {len(parts)}, asked for {rel} {want} ({c.text!r})"
    typed, untyped = typed_names(view, noun) if noun else ([], parts)
    if short and len(typed) < want <= joined:
        return Status.UNKNOWN, f"offline: one sentence joins {joined} {noun!r} (typed by WordNet); {len(typed)} names"
    if typed and not untyped:
        status = Status.SATISFIED if compare(len(typed), want, rel) else Status.VIOLATED
        return status, f"offline: WordNet types {len(typed)} named {noun!r}, asked for {rel} {want} ({c.text!r})"
    return Status.UNKNOWN, "offline: names in the response are not all typed; the count is not evidence"


#: A constraint that is only a number ("three", "12."): its noun is the sub-question's subject.
_BARE_NUMBER = re.compile(r"(?<!\W)\W*[\w-]+\W*")  # starts only where a non-word run starts (linear)


def _measure_unit_word(text: str) -> bool:
    """Whether the item word of a count ("points") has a measure sense and nothing else marks it as items.

    "100 points" may be a score; "5 bullet points" is a list ("bullet" is an item word without a measure sense).
    """
    item_words = [w for w in re.findall(r"[a-z]+", text.lower()) if UNITS.get(norm(w)) == "item"]
    return bool(item_words) and all(measure_noun(w) for w in item_words)


def _quantity(
    c: Constraint, view: ResponseView, others: Sequence[Constraint] = (), scope: RequestScope | None = None
) -> Verdict3:
    if re.search(r"\b(each|every|per)\b", c.text.lower()):
        return Status.UNKNOWN, "offline: per-unit counts are left to the verifiers"
    target = _target(c.text)
    if target is None:
        return Status.UNKNOWN, "offline: no number in the constraint"
    want, rel = target
    if scope is not None and scope.enumeration_marker(c.text):
        return Status.UNKNOWN, "offline: the number only numbers a line of the request"
    if "%" in c.text:
        return Status.UNKNOWN, "offline: a percentage is not a count of answer parts"
    tunit = table_unit(c.text)
    if tunit is not None:
        return table_quantity(c, view, tunit, want, rel, scope)
    unit = unit_of(c.text)
    # a bare number ("three" of "list three explorers") counts its sub-question's subject noun; with
    # neither a noun nor a subject ("2" of a numbered line), or with a symbol ("57 F"), items are no evidence
    terms = content_terms(c.text)
    bare = _BARE_NUMBER.fullmatch(c.text) is not None
    noun = terms[-1] if terms else (subject_noun(c, others) or "") if bare else ""
    if unit is None and bare and noun and unit_of(noun) not in (None, "item"):
        # "two" of "write two sentences": the counted noun is a unit of the answer's form (an item word may be
        # a measure or a marker, "point 1": it keeps the reading below)
        unit = unit_of(noun)
    if unit is None and noun and measure_noun(noun):
        return Status.UNKNOWN, f"offline: {noun!r} is a measure, not a count of answer parts"
    if unit is None and not noun:
        return Status.UNKNOWN, "offline: the number names nothing to count"
    if unit == "item" and _measure_unit_word(c.text):
        return Status.UNKNOWN, "offline: the counted word also names a measure (score points?); not a count of items"
    counted = count_parts(view, unit)
    if counted is None:
        return _named_count(c, view, others, want, rel)
    found, what = counted
    fewest = found - view.abbreviation_stops if unit == "sentence" else found
    if compare(fewest, want, rel) != compare(found, want, rel):
        return Status.UNKNOWN, f"offline: {fewest} to {found} sentences (abbreviations), asked for {rel} {want}"
    outer = len(view.outer_items)
    if what == "list items" and outer != found and compare(outer, want, rel):
        # a nested list: the asked items may be its outer items (the rest their sub-items) or all of them
        found, what = outer, "outer list items"
    if what in ("list items", "outer list items"):
        items = view.outer_items if what == "outer list items" else view.items
        distinct = len({" ".join(re.findall(r"\w+", item.lower())) for item in items})
        if distinct < found and compare(distinct, want, rel) != compare(found, want, rel):
            # "Pacific / Pacific / Pacific" for three oceans: repeated items are one item named again
            return Status.UNKNOWN, f"offline: {found} {what} but {distinct} distinct, asked for {rel} {want}"
    # no headings: a section holds one paragraph or more, so the answer has 1 to `found` sections; only a comparison
    # true (or false) over that whole range decides ("three sections" over 6 paragraphs is unknown); as many
    # paragraphs as sections asked is the plain reading, a paragraph a section
    unheaded = unit == "section" and what == "paragraphs/stanzas" and not (rel == "==" and found == want)
    if unheaded and len({compare(sections, want, rel) for sections in range(1, found + 1)}) > 1:
        return Status.UNKNOWN, f"offline: {found} paragraphs and no headings: 1 to {found} sections ({c.text!r})"
    status = Status.SATISFIED if compare(found, want, rel) else Status.VIOLATED
    reason = f"found {found} {what}, asked for {rel} {want} ({c.text!r})"
    if not whole(c, scope):
        # the list items of an answer with other parts: exactly as many top-level items as asked is the
        # asked list (other parts would add items); sentences, words and lines of the other parts would not show
        listed = what in ("list items", "outer list items")
        exact_items = listed and rel == "==" and found == want and not scope_distributive(c, scope)
        return (Status.SATISFIED, f"offline: {reason}") if exact_items else bounded(status, found, want, rel, reason)
    return status, f"offline: {reason}"


def scope_distributive(c: Constraint, scope: RequestScope | None) -> bool:
    """Whether the request counts ``c`` per unit (a per-unit sentence holds it)."""
    return scope is not None and scope.distributive(c.text)


#: A range's end the decomposer cut off: "from 1960" + " to present day" in the request.
_RANGE_END = re.compile(r"(?<!\s)\s+(?:to|until|till|through)\s+[^.,;:!?\n]{1,40}")  # from a run's start


def _time_phrase(c: Constraint, query: str) -> str:
    """The time constraint's text, with the end of its range when the request continues it ("from 1960 to 1980")."""
    if not query or not c.text.lower().startswith("from "):
        return c.text
    pos = query.find(c.text)
    m = _RANGE_END.match(query, pos + len(c.text)) if pos >= 0 else None
    return c.text + m.group(0) if m else c.text


def _time(c: Constraint, view: ResponseView, others: Sequence[Constraint], docs: str = "", query: str = "") -> Verdict3:
    allowed = allowed_interval(_time_phrase(c, query))
    if allowed is None:
        return _terms_check(c, view, others, "time constraint", docs, query)
    lo, hi = allowed
    inside: list[str] = []
    outside: list[str] = []
    for unit in view.units:
        ivs = mentioned_intervals(unit)
        if not ivs or _about_another_part(unit, c, others):
            continue
        if any(lo <= a and b <= hi for a, b in ivs):
            inside.append(unit)
        elif all(b < lo or a > hi for a, b in ivs):
            outside.append(unit)
    is_list = len(view.items) >= 2
    if outside and (is_list or not inside):
        return Status.VIOLATED, f"offline: dates outside {c.text!r}: {outside[0][:80]!r}"
    if inside and not outside and is_list and len(inside) < len(view.units):
        # one dated item among undated ones is no evidence for the rest ("E.T. (1982), Titanic, Avatar")
        told = f"{len(inside)} of {len(view.units)} items dated {c.text!r}"
        return Status.UNKNOWN, f"offline: {told}; the rest give no date"
    if inside and not outside:
        return Status.SATISFIED, f"offline: the dates given fall {c.text!r}"
    if not inside and not outside and _off_topic(view, others, docs, query):
        return Status.VIOLATED, "offline: the response gives no date and never mentions the request's terms"
    return Status.UNKNOWN, "offline: no clear dates for the time constraint"


def _about_another_part(unit: str, c: Constraint, others: Sequence[Constraint]) -> bool:
    """Whether an answer sentence speaks to another sub-question of the request (names a content word of its
    constraints, none of ``c``'s own): "When did the war end? Who ruled in 1805?" answered "The war ended in 1918."
    is no date outside 1805 for the second question."""
    words = {w.lower() for w in re.findall(r"[^\W\d_]+", unit)}

    def named(o: Constraint) -> bool:
        return any(t.lower() in words for t in content_terms(o.text))

    mine = [o for o in others if o.subquestion == c.subquestion and o is not c]
    theirs = [o for o in others if o.subquestion != c.subquestion]
    return any(named(o) for o in theirs) and not any(named(o) for o in mine)


def _wanted(c: Constraint, others: Sequence[Constraint], noun: str | None) -> int | None:
    """How many things ``c``'s sub-question asks for: its count ("three"), else one for a singular noun ("a city"),
    else None (a plural with no count)."""
    for o in others:
        if o.category is Category.QUANTITY and o.subquestion == c.subquestion and (target := _target(o.text)):
            return target[0]
    if noun is None:
        return None
    return 1 if wordnet.base_noun(noun) == noun.lower() else None


def _places(text: str) -> tuple[list[str], bool]:
    """Capitalised names a constraint requires and whether all are required ('and') or any ('or')."""
    names = [n for n in capitalised_names(text) if n.lower() not in _STOP and n.lower() not in _SKIP_ENTITY_WORDS]
    return names, " or " not in text.lower()


def _forms(name: str) -> list[str]:
    low = name.lower()
    return [low, *demonyms(low), *code_names(name)]


def _location(
    c: Constraint, view: ResponseView, others: Sequence[Constraint], docs: str = "", query: str = ""
) -> Verdict3:
    names, need_all = _places(c.text)
    if not names:
        return _terms_check(c, view, others, "location", docs, query)
    noun = subject_noun(c, others) if len(names) == 1 else None
    items = listed(view) or enumerated(view, noun) or named_items(view, noun, _wanted(c, others, noun))
    if items and len(names) == 1:
        placement = place_of_items(items, name_parts(view), names[0].lower(), _forms(names[0]))
        return items_in(c, placement, len(items))
    places = view.named(frozenset({"GPE", "LOC"}))
    said = {n: any(view.has_term(f) for f in _forms(n)) for n in names}  # the place's own name in the answer
    present = [n for n in names if said[n] or any(contains(n.lower(), p) for p in places)]
    # a place the answer names that GeoNames puts inside the asked one ("Rome" for "in Italy"): said as such
    located = [p for p in places for n in present if not said[n] and contains(n.lower(), p)]
    if not present:
        # "rivers in Spain" answered "the Ebro and the Tagus": WordNet's part-of chain puts them there.
        for n in names:
            inside = [p for p in name_parts(view) if wordnet.located_in(p, n)]
            if inside:
                present.append(n)
                located.extend(inside)
    missing = [n for n in names if n not in present]
    if present and (not missing or not need_all):
        if located:
            return Status.SATISFIED, f"offline: the response names {', '.join(located[:3])}, in {', '.join(present)}"
        return Status.SATISFIED, f"offline: the response names {', '.join(present)}"
    if present and missing:
        return Status.VIOLATED, f"offline: the response leaves out {', '.join(missing)}"
    if places and all(contains(n.lower(), p) is False for n in names for p in places):
        return Status.VIOLATED, f"offline: the response is about {', '.join(places[:3])}, not {c.text!r}"
    if places:
        return Status.UNKNOWN, f"offline: the response names {', '.join(places[:3])}; cannot tell if in {c.text!r}"
    if _off_topic(view, others, docs, query):
        return Status.VIOLATED, "offline: the response never mentions the place or any term of the request"
    return Status.UNKNOWN, f"offline: no place named for {c.text!r}"


def _contrastive(unit: str, term: str) -> bool:
    low = unit.lower()
    pos = low.find(term)
    window = low[max(0, pos - 60) : pos] if pos >= 0 else low
    return _CONTRAST.search(window) is not None


def _restricted_object(text: str) -> bool:
    """Whether an exclusion of common nouns carries a prepositional restriction ("no tasks for the first stage").

    Such an exclusion forbids the thing only in that context, so naming it elsewhere proves nothing.
    """
    from faithguard.nlp import parse

    doc = parse(text[:500])
    return any(t.dep_ == "prep" and any(ch.dep_ == "pobj" for ch in t.children) for t in doc)


def _exclusion(c: Constraint, view: ResponseView) -> Verdict3:
    names, _ = _places(c.text)
    entity_kind = _ENTITY_EXCLUSION.search(c.text) is not None or _BARE_NAME_EXCLUSION.match(c.text) is not None
    if not names and entity_kind:
        if _restricted_object(c.text):
            return Status.UNKNOWN, "offline: the exclusion is restricted by a phrase; a mention is not evidence"
        names = excluded_objects(c.text)
    if not names:
        return Status.UNKNOWN, "offline: the exclusion names nothing checkable"
    verbs = [w for w in content_terms(c.text) if w not in names and w.lower() not in _SKIP_ENTITY_WORDS]
    for unit in view.units:
        low = unit.lower()
        for name in names:
            for form in _forms(name):
                if not re.search(r"(?<!\w)" + re.escape(form) + r"(?!\w)", low):
                    continue
                if _contrastive(unit, form):
                    continue
                demonym = form != name.lower()
                unit_stems = {stem(x) for x in re.findall(r"\w+", low)}
                if entity_kind or demonym or any(stem(v) in unit_stems for v in verbs):
                    return Status.VIOLATED, f"offline: names excluded {form!r} affirmatively: {unit[:80]!r}"
    if entity_kind and not view.empty:
        kinds = [n for n in names if wordnet.has_kinds(n) is not False]
        if kinds:  # "no meat": an answer with beef never says "meat"; absence of the word is no evidence
            return Status.UNKNOWN, f"offline: {kinds[0]!r} has kinds the answer may name; absence is no evidence"
        for name in (n for n in names if is_place(n.lower())):
            # "cities in Asia, excluding Japan" answered "Tokyo": the place is named by what lies in it (the name
            # itself was read above, a contrastive mention of it included)
            parts = [p for p in name_parts(view) if p not in _forms(name)]
            inside = place_of_items(view.units, parts, name.lower()).inside
            if inside:
                return Status.VIOLATED, f"offline: {inside[0]!r} lies in excluded {name}"
        return Status.SATISFIED, f"offline: the response does not name {', '.join(names)}"
    return Status.UNKNOWN, "offline: whether the items meet the exclusion needs knowledge"


def _compared_items(c: Constraint, others: Sequence[Constraint]) -> list[str]:
    for o in others:
        if o.subquestion != c.subquestion or o is c or o.negated:
            continue
        parts = re.split(r"\s+(?:and|with|vs\.?|versus|to|or)\s+|,\s*", o.text)
        items = [content_terms(p)[-1] for p in parts if content_terms(p)]
        if len(items) >= 2:
            return items
    return []


def _task(
    c: Constraint, family: str, view: ResponseView, others: Sequence[Constraint], docs: str, query: str = ""
) -> Verdict3:
    if family == "write":
        family = write_form(c, others) or "write"
    long_prose = len(view.sentences) >= 3 and len(view.items) < 2
    if family == "list":
        if len(view.items) >= 2:
            return Status.SATISFIED, f"offline: the response lists {len(view.items)} items"
        if _INLINE_LIST.search(view.lower):
            return Status.SATISFIED, "offline: the response enumerates several items inline"
        noun = subject_noun(c, others)
        typed = typed_names(view, noun)[0] if noun else []
        if len(typed) >= 2:
            return Status.SATISFIED, f"offline: the response names {len(typed)} {noun!r} (typed by WordNet)"
        if asks_for_one(c, query):
            # "provide a description": one thing asked, so running prose is no shortfall (items found above
            # stay evidence of a performed task until the verdict layer reads the object too)
            return Status.UNKNOWN, f"offline: {c.text!r} asks for one thing; prose is no evidence against it"
        if long_prose and not view.has_code and len(view.named()) <= 1 and view.names_reliable:
            return Status.VIOLATED, "offline: asked to list, the response is running prose without items"
    elif family == "compare":
        items = _compared_items(c, others)
        missing = [i for i in items if not _present(view, i)]
        if items and missing and len(missing) < len(items):
            return Status.VIOLATED, f"offline: asked to compare, the response leaves out {', '.join(missing)}"
        if view.comparative and not missing:
            return Status.SATISFIED, "offline: the response uses comparative language over the items"
        if long_prose and not view.comparative and (view.evaluative or view.summary_cues):
            return Status.VIOLATED, "offline: asked to compare, the response evaluates or summarises instead"
    elif family == "summarize":
        if view.evaluative and not view.summary_cues:
            return Status.VIOLATED, "offline: asked to summarise, the response evaluates instead"
        if docs and len(view.words) > len(docs.split()):
            return Status.VIOLATED, "offline: the 'summary' is longer than the source"
        if docs and view.words:
            return Status.SATISFIED, "offline: the response is shorter than the source"
    elif family in ("code",):
        if view.has_code:
            return Status.SATISFIED, "offline: the response contains code"
        if long_prose and (task_family(c) == "code" or software_form(c, others)):
            return Status.VIOLATED, "offline: asked for code, the response is prose only"
    elif family == "poem":
        short_lines = [ln for ln in view.lines if len(ln.split()) <= 14]
        if len(view.lines) >= 3 and len(short_lines) >= 0.7 * len(view.lines):
            return Status.SATISFIED, f"offline: verse structure ({len(view.lines)} short lines)"
        if len(view.lines) <= 2 and len(view.sentences) >= 3:
            return Status.VIOLATED, "offline: asked for a poem, the response is a prose paragraph"
    elif family in ("story", "prose", "explain"):
        if len(view.sentences) >= 2 and not view.has_code:
            return Status.SATISFIED, "offline: the response is connected prose"
    elif family == "evaluate":
        if view.evaluative:
            return Status.SATISFIED, "offline: the response uses evaluative language"
    elif family == "calculate" and re.search(r"\d", view.text):
        return Status.SATISFIED, "offline: the response gives a number"
    return Status.UNKNOWN, f"offline: cannot tell whether the response performs {c.text!r}"


def check_constraint(
    c: Constraint, response: str, others: Sequence[Constraint] = (), documents: str = "", query: str = ""
) -> Verdict3:
    """Status and reason for one constraint; UNKNOWN whenever the evidence is not clear.

    With the ``query``, a whole-response count that the request's syntax scopes to a part of the
    answer is read as a bound (:mod:`faithguard.engine.scope`).
    """
    scope = request_scope(query) if query.strip() else None
    if c.verifier:
        status, reason = scoped_verifier(c, bridge.run_verifier(c.verifier, c.params, response), scope)
        if c.tentative and status is Status.VIOLATED:
            # read from a question about the form ("Is it rude to type in all caps?"): maybe never asked
            return Status.UNKNOWN, "tentative: read from a question about this form; the response does not take it"
        return status, reason
    view = view_of(response)
    if view.empty:
        if c.negated:
            return Status.UNKNOWN, "offline: empty response"
        return Status.VIOLATED, "offline: empty response"
    if c.negated:
        return _exclusion(c, view)
    if c.category is Category.QUANTITY:
        return _quantity(c, view, others, scope)
    if c.category is Category.TIME:
        return _time(c, view, others, documents, query)
    if c.category is Category.LOCATION:
        return _location(c, view, others, documents, query)
    if c.category is Category.ACTION:
        family = task_family(c)
        if family is not None:
            return _task(c, family, view, others, documents, query)
        return _terms_check(c, view, others, "action", documents, query)
    return _terms_check(c, view, others, str(c.category), documents, query)
