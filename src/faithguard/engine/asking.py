"""Whether a verifiable instruction was read where the request may not ask it of the answer (issue 11).

"Is it rude to type in all caps?", "My boss says reports must be under 200 words. Is that fair?", "Write a memo
telling staff that reports must be under 500 words": the form is the topic of a question, someone else's rule, or
a rule the answer passes on; no answer is asked to take it. But "Is it possible to answer in all caps?" is a
request phrased as a question, and syntax does not always tell the two apart. So the engine does not drop what it
reads there: the constraint is *tentative* (``Constraint.tentative``): an answer that takes the form satisfies
it, one that does not leaves it unknown, never an omission. (Dropping them, tried in session 9, lost real
requests.) :mod:`faithguard.engine.tentative` applies these readings to the specs the verifiers found.

- :func:`asks_about`: a question (its clause ends with "?") asks for the form only when a verb in it is addressed
  to the answer: a modal of request with "you", "it" or the answer named ("Can you keep it under 50 words?",
  "Could your summary be shorter?"), an imperative ("Keep it short?"), "you" doing it in a clause ("Is it okay if
  you ..."), a judgement whose clause names the answer ("Is it possible to get the answer in caps?"), or the idiom
  of asking ("Can I get ...?", "Didn't I ask for ...?"). A fragment with no verb ("Answer in French?") or a
  verbless aside ("What are the benefits of yoga, in under 50 words?") asks for it.
- :func:`told_of_others`, :func:`quoted_for_someone`: what a third party does or says, and quotations brought in
  without asking them of the reader, read only in a request that asks a question of its own and orders nothing
  made (:func:`asks_question`, :func:`orders_production`).
- :func:`rule_for_others`: a rule the answer tells others, under a verb of communication the answer itself does.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "asks_about",
    "asks_question",
    "orders_production",
    "quoted_for_someone",
    "rule_for_others",
    "rules_passed_on",
    "told_of_others",
]

#: Modals of request (a closed class of English auxiliaries): "can you", "could it", "would you", "will you".
#: "should", "must", "may" ask about duty or possibility ("Should I capitalize it?"). Fixtures:
#: tests/engine/test_asking.py.
_REQUEST_MODALS = frozenset({"can", "could", "would", "will"})
#: Subjects that make a modal question a request of the answer: the assistant, or the answer itself.
_ANSWER_SUBJECTS = frozenset({"you", "u", "it", "ya"})
#: Marks that set an aside off inside a question ("..., in under 50 words?", "(in French)", "- in bullets?").
_ASIDE_MARKS = (",", "(", " - ", "\u2013", "\u2014")


#: How many of a noun's most frequent WordNet senses are read for a text sense ("response": a phenomenon, an act,
#: then a reply; "output": an artifact, an act, then a signal). Fixtures: tests/engine/test_asking.py.
TEXT_SENSES = 3


def _names_the_answer(subject: Any, the: bool = True, senses: int = TEXT_SENSES) -> bool:
    """Whether a subject names the answer: "you", "it", or the answer as a definite text ("your answer", "the
    response", "your reply": a noun with a noun.communication sense among its :data:`TEXT_SENSES` most frequent,
    with "your", or "the" when ``the``; ``senses`` reads fewer); "a sonnet" is any sonnet."""
    if subject.lower_ in _ANSWER_SUBJECTS:
        return True
    owners = ("your", "ur", "the") if the else ("your", "ur")
    if subject.pos_ != "NOUN" or not any(c.lower_ in owners for c in subject.children):
        return False
    from faithguard.lexical import wordnet

    read = wordnet.type_synsets(subject.lemma_.lower())[:senses]
    return any(s.lexname() == "noun.communication" for s in read)


def _judged_clauses(verb: Any) -> list[Any]:
    """The clauses an "it ... adjective" judgement is about ("Would it be weird if ...", "Is it ok to ..."), or []."""
    kids = list(verb.children)
    clauses = [c for c in kids if c.dep_ in ("advcl", "ccomp", "xcomp", "csubj")]
    judged = any(c.lower_ == "it" and c.dep_ in ("nsubj", "expl") for c in kids) and any(
        c.dep_ == "acomp" for c in kids
    )
    return clauses if judged else []


def _judges_it(verb: Any) -> bool:
    """A judgement of a clause that does not name the answer ("Would it be weird if my vows were short?"): it asks
    for the judgement, not for the form, even with a modal of request."""
    clauses = _judged_clauses(verb)
    return bool(clauses) and not _clause_names_answer(clauses)


def _asks_it_of_answer(verb: Any) -> bool:
    """A judgement of a clause that names the answer ("Is it possible to get the answer in all caps?", "Is it ok
    to keep it under 40 words?"): a request, whatever the adjective."""
    clauses = _judged_clauses(verb)
    return bool(clauses) and _clause_names_answer(clauses)


def _clause_names_answer(clauses: list[Any]) -> bool:
    """Whether clauses name the answer: "you" in them, or the answer as subject or object ("to get the answer in
    caps", "to keep it under 40 words": an object "it" is the answer; the judged "it" stands outside them)."""
    for t in (t for c in clauses for t in c.subtree):
        if t.lower_ in ("you", "u") and t.dep_ in ("nsubj", "nsubjpass", "pobj"):
            return True
        if t.dep_ == "dobj" and t.lower_ in ("it", "this"):
            return True
        if t.dep_ in ("nsubj", "nsubjpass", "dobj") and t.lower_ != "it" and _names_the_answer(t):
            return True
    return False


#: Verbs of receiving in the idiom of asking ("Can I get it in Spanish?", "Could I have 4 bullet points?"): a closed
#: class of the idiom, not a vocabulary of forms. Fixtures: tests/engine/test_asking.py.
_RECEIVING = frozenset({"get", "have", "receive", "see"})


def _idiom_of_asking(verb: Any) -> bool:
    """The idiom of asking, "Can I get ...?" / "Could we have ...?", and a reminder put as a negated question
    ("Didn't I say to end with 'Go team!'?", "Didn't I ask for all lowercase?"): requests, not questions about the
    form."""
    kids = list(verb.children)
    first_person = any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in kids)
    if not first_person:
        return False
    modal = any(c.dep_ == "aux" and c.lower_ in _REQUEST_MODALS for c in kids)
    if modal and verb.lemma_.lower() in _RECEIVING:
        return True
    return any(c.dep_ == "neg" for c in kids) and _of_saying(verb)


def _requests(verb: Any, conjunct: bool = False) -> bool:
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass", "expl")]
    if not conjunct and _imperative(verb) and not _has(verb, "aux"):
        return True  # an imperative with a question mark: "Answer in French?" (a conjunct shares its head's subject)
    modal = any(c.dep_ == "aux" and c.tag_ == "MD" and c.lower_ in _REQUEST_MODALS for c in verb.children)
    return modal and not _judges_it(verb) and all(_names_the_answer(s) for s in subjects)


def _you_do(tokens: Any) -> bool:
    """A verb below the question's own whose subject is "you" ("Is it okay if you answer in 20 words?", "Do you
    think you could keep it short?", "Is there a way you could end with ...?"): the answer asked, in a clause."""
    return any(
        t.dep_ == "nsubj" and t.lower_ in ("you", "u") and t.head.dep_ in ("advcl", "ccomp", "relcl", "xcomp")
        for t in tokens
    )


def _verbless_aside(sent: Any, text: str, begin: int, end: int) -> bool:
    """Whether the question's clause ``[begin, end)`` of the sentence (``text``) ends in an aside: after its last
    comma, bracket or dash, words with no verb up to the question mark ("..., in under 50 words?")."""
    mark = max(text.rfind(m, begin, end) for m in _ASIDE_MARKS)
    if mark < 0:
        return False
    base = sent.start_char
    tail = [t for t in sent if mark < t.idx - base < end and not t.is_punct]
    # "..., or just the abstract itself?" goes on with the question: a conjunction joins, an aside stands apart
    return bool(tail) and tail[0].pos_ != "CCONJ" and not any(t.pos_ in ("VERB", "AUX") for t in tail)


def asks_about(doc: Any, pos: int, phrases: tuple[tuple[int, int], ...] = ()) -> bool:
    """Whether the clause of ``doc`` holding character ``pos`` is a question that asks about something rather than
    asking the answer to do something. The clause runs between colons or semicolons of its sentence: in "Repeat
    this request, then answer it: What is the capital of Australia?" the question is the material, after the colon,
    and the order before it ends with no question mark. ``phrases`` are character spans of words the answer must
    carry ("End with the exact phrase Is there anything else I can help with?"): their question mark is theirs."""
    from faithguard.nlp import sentence_at

    sent = sentence_at(doc, pos)
    if sent is None:
        return False
    text, base = sent.text, sent.start_char
    for a, b in phrases:  # blank the answer's own words, keeping offsets
        lo, hi = max(a - base, 0), min(b - base, len(text))
        if lo < hi:
            text = text[:lo] + " " * (hi - lo) + text[hi:]
    at = pos - base
    cuts = [i for i, ch in enumerate(text) if ch in ":;"]
    begin = max((i + 1 for i in cuts if i < at), default=0)
    end = min((i for i in cuts if i >= at), default=len(text))
    if not text[begin:end].rstrip().endswith("?"):
        return False
    if _verbless_aside(sent, text, begin, end):
        return False
    inside = [t for t in sent if begin <= t.idx - base < end]
    heads = [t for t in inside if not (begin <= t.head.idx - base < end) or t.head.i == t.i]
    if not any(h.pos_ in ("VERB", "AUX") for h in heads):
        return False  # a fragment ("Answer in French?", "Under 100 words?"): no clause to read, the form stays asked
    if _you_do(inside):
        return False
    verbs = [(h, v) for h in heads for v in (h, *h.conjuncts)]
    if any(_asks_it_of_answer(v) or _idiom_of_asking(v) for _, v in verbs):
        return False
    return not any(_requests(v, v is not h) for h, v in verbs)


#: WordNet lexicographer files of nouns naming people and groups of them (noun.person 18, noun.group 14), and the
#: share of a noun's tagged uses they must hold for it to name someone ("teacher", "recruiter", "team"; not
#: "poem", "reply", "software"). Fixtures: tests/engine/test_asking.py.
_PEOPLE_FILES = (18, 14)
#: (also the share of a verb's tagged uses filed as communication for it to be a verb of saying: "say", "inform")
FILED_SHARE = 0.5
#: noun.communication: a document ("our style guide", "the lease") that says or requires something tells a rule.
_COMMUNICATION = 10
#: Modals of duty: "The response should ...", "It must ...", "You shall ..." order the answer.
_DUTY_MODALS = frozenset({"must", "should", "shall"})
#: Words that speak to the reader: a sentence holding one is addressed to the answer ("you", "your", "please").
_TO_READER = frozenset({"you", "your", "yours", "yourself", "u", "ur", "please", "pls", "plz", "kindly"})


def _someone(tok: Any) -> bool:
    """Whether a subject names a third party: he/she/they, someone/everyone, a name, a noun WordNet files as people
    or groups, or a document that says or requires something ("The lease says ...", "Our guidelines require")."""
    if tok.pos_ == "PRON":
        morph = tok.morph
        if morph.get("PronType") == ["Ind"]:
            return bool(tok.lower_.endswith(("one", "body")))  # someone, everyone, somebody; not "something"
        return morph.get("Person") == ["3"] and "Neut" not in morph.get("Gender") and tok.lower_ not in ("this", "that")
    if tok.pos_ == "PROPN":
        return True
    if tok.pos_ == "NOUN":
        from faithguard.lexical.senses import lexfile_share

        lemma = tok.lemma_.lower()
        if sum(lexfile_share(lemma, f) for f in _PEOPLE_FILES) >= FILED_SHARE:
            return True
        says = tok.head.pos_ == "VERB" and _of_saying(tok.head)
        return (
            says
            and not any(c.lower_ in ("your", "ur") for c in tok.children)
            and (lexfile_share(lemma, _COMMUNICATION) >= FILED_SHARE)
        )
    return False


def _opener(sent: Any) -> Any | None:
    """The sentence's first word (past punctuation), or None."""
    return next((t for t in sent if not t.is_punct and not t.is_space), None)


def _only_verb(tok: Any) -> bool:
    """A word WordNet knows only as a verb, whatever the tagger made of it ("Respond only with ...", tagged a proper
    noun at the start of its sentence)."""
    from faithguard.lexical import wordnet_verbs

    return bool(tok.is_alpha and wordnet_verbs.only_verb(tok.text))


def _imperative(verb: Any, opens: bool = False) -> bool:
    """A base-form verb with no subject of its own and no auxiliary but "do" ("Write ...", "Don't say ..."); with
    ``opens`` (the word opens its sentence), a word known only as a verb counts whatever its tag."""
    return (verb.tag_ == "VB" or (opens and _only_verb(verb))) and not any(
        c.dep_ in ("nsubj", "nsubjpass", "expl") or (c.dep_ == "aux" and c.lemma_.lower() != "do")
        for c in verb.children
    )


def _has(verb: Any, dep: str) -> bool:
    return any(c.dep_ == dep for c in verb.children)


def _order(verb: Any, opens: bool = False) -> bool:
    """An order given outright: an imperative (:func:`_imperative`) with no auxiliary and no negation ("Write ...",
    not "Don't ask me why")."""
    return _imperative(verb, opens) and not _has(verb, "aux") and not _has(verb, "neg")


def _of_duty(verb: Any) -> bool:
    """A verb under a modal of duty ("must be", "should include", "shall use")."""
    return any(c.dep_ in ("aux", "auxpass") and c.lower_ in _DUTY_MODALS for c in verb.children)


def _of_saying(verb: Any) -> bool:
    """A verb WordNet files mostly as communication (at least :data:`FILED_SHARE` of its tagged uses): say, tell,
    ask, inform, state."""
    from faithguard.lexical.senses import verb_lexfile_share

    return verb_lexfile_share(verb.lemma_.lower()) >= FILED_SHARE


def _ordering_verbs(sent: Any) -> list[tuple[Any, bool]]:
    """The verbs of a sentence that may give it its order, each with whether it opens the sentence: the main verb,
    its conjuncts, the sentence's first verb ("Just answer with one of these: '...'" where the parser hangs the
    sentence on the quotation), and its first word when WordNet knows it only as a verb."""
    opener = _opener(sent)
    first = next((t for t in sent if t.pos_ in ("VERB", "AUX")), None)
    candidates = [sent.root, *sent.root.conjuncts]
    if first is not None:
        candidates.append(first)
    if opener is not None and opener.pos_ not in ("VERB", "AUX") and _only_verb(opener):
        candidates.append(opener)
    out: dict[int, tuple[Any, bool]] = {}
    for verb in candidates:
        out.setdefault(verb.i, (verb, opener is not None and verb.i == opener.i))
    return list(out.values())


def _speaks_to_reader(tokens: Any) -> bool:
    """A second-person word or please, an imperative (:func:`_ordering_verbs`), or the answer named as subject
    ("The answer is expected to be one of the following: ...")."""
    tokens = list(tokens)
    if not tokens:
        return False
    for tok in tokens:
        if tok.lower_ in _TO_READER:
            return True
        # "The answer is expected to be ...": the text's first sense ("the rules say" names someone else's text)
        if tok.dep_ in ("nsubj", "nsubjpass") and tok.lower_ != "it" and _names_the_answer(tok, senses=1):
            return True
    held = {t.i for t in tokens}
    lo, hi = min(held), max(held)
    sents = [s for s in tokens[0].doc.sents if s.start <= hi and lo < s.end]
    return any(v.i in held and _imperative(v, opens) for s in sents for v, opens in _ordering_verbs(s))


def told_of_others(doc: Any, start: int, end: int) -> bool:
    """Whether every sentence of ``doc`` in ``[start, end)`` tells what someone else does, says or wants ("A
    recruiter said cover letters should never pass 250 words.", "He struggles to read lowercase letters.", "Our
    style guide says headlines must be under 10 words."): its main verb's subject is a third party, and nothing in
    it speaks to the reader. The form in it is that party's, and the request may not ask it of the answer."""
    sents = [s for s in doc.sents if s.start_char < end and start < s.end_char]
    if not sents:
        return False
    for sent in sents:
        if _speaks_to_reader(sent):
            return False
        subjects = [c for c in sent.root.children if c.dep_ in ("nsubj", "nsubjpass")]
        if not subjects or not all(_someone(c) for c in subjects):
            return False
    return True


def _directs(sent: Any) -> bool:
    """Whether a sentence gives the answer an order: an imperative that is not negated, a modal of duty (must,
    should, shall: "The response should include ...") or a request to "you" ("Can you ...")."""
    return any(_order(verb) or _of_duty(verb) or _requests(verb) for verb in (sent.root, *sent.root.conjuncts))


def quoted_for_someone(doc: Any, start: int, end: int, quotes: tuple[tuple[int, int], ...]) -> bool:
    """Whether the stretch ``[start, end)`` of the request (``doc``: its whole parse, quotations included) overlaps
    a quotation (``quotes``: character spans) that the request brings in without asking it of the reader ('My boss
    sent this: "All updates must end with ..." Is that reasonable?'): the words before the quotation in its
    sentence, or the sentence before it when the quotation opens its own, do not speak to the reader, and no
    sentence of the stretch after the quotation gives an order. 'Follow these rules: "..."', 'Use this ending:
    "..."' and '"..." The response should include at least 5 pronouns.' ask."""
    quote = next(((a, b) for a, b in quotes if a < end and start < b), None)
    if quote is None:
        return False
    from faithguard.nlp import sentence_at

    sent = sentence_at(doc, quote[0])
    if sent is None:
        return False
    frame = [t for t in sent if t.idx < quote[0]]
    if not [t for t in frame if not t.is_punct and not t.is_space] and sent.start > 0:
        frame = list(doc[sent.start - 1].sent)  # the quotation opens its sentence: the one before introduces it
    if _speaks_to_reader(frame):
        return False
    return not any(_directs(s) for s in doc.sents if quote[1] <= s.start_char < end)


def orders_production(doc: Any, quotes: tuple[tuple[int, int], ...] = ()) -> bool:
    """Whether the request orders the answer to make something: an imperative sentence that is no question and not
    negated ("Write a product description ...", not "don't ask me why"), or a request to "you" with a verb WordNet
    files as creation ("Can you write ...?", "Could you draft ...?"). Someone else's rule told in such a request
    may be relayed for what is made ("Our SEO guy says 'cozy' must appear 3 times"); in a request that only asks
    ("Is that limit fair?") it is the topic. Verbs inside ``quotes`` (character spans) are the quotation's own."""
    from faithguard.lexical import wordnet_verbs

    for sent in doc.sents:
        question = sent.text.rstrip().endswith("?")
        for verb, opens in _ordering_verbs(sent):
            if any(a <= verb.idx < b for a, b in quotes):
                continue
            if not question and _order(verb, opens):
                return True
            if question and _requests(verb) and not _wh_question(sent):
                return True  # "Could you help me with my cover letter?", "Can you summarize Hamlet?"
            if _requests(verb) and wordnet_verbs.creates(verb.lemma_):
                return True
        if question and not _wh_question(sent) and any(_asked_of_you(t) for t in sent):
            return True  # the same, wherever the parser hung it ("Could you write a review of ...?")
    return False


def _asked_of_you(tok: Any) -> bool:
    """ "you" as the subject of a verb with a modal of request ("could you write", "can you help")."""
    verb = tok.head
    return (
        tok.dep_ == "nsubj"
        and tok.lower_ in ("you", "u")
        and any(c.dep_ == "aux" and c.lower_ in _REQUEST_MODALS for c in verb.children)
    )


def _wh_question(sent: Any) -> bool:
    """A question opened by a wh-word ("How would you push back?"): it asks for information, orders nothing."""
    return any(t.tag_ in ("WRB", "WP", "WDT", "WP$") for t in sent[:3])


def asks_question(doc: Any, quotes: tuple[tuple[int, int], ...] = ()) -> bool:
    """Whether a sentence of the request outside ``quotes`` is a question (ends with "?"): a request that asks
    something of its own, where someone else's rules may be the topic ("... Is that limit fair?")."""
    return any(s.text.rstrip().endswith("?") and not any(a <= s.start_char < b for a, b in quotes) for s in doc.sents)


def _passes_rule_on(clause: Any) -> bool:
    """Whether ``clause`` (a verb) is a rule the answer passes on to others: the clause of a verb WordNet files
    mostly as communication (tell, ask, remind, state), told by the answer itself (the verb has no subject or names
    the answer; "the recruiter told me letters should be under 250 words" relays a rule to the user), that either
    has a modal of duty and a subject that is not the answer ("that all reports must be under 500 words", "that her
    slides should have 5 bullets"), or has no subject and the telling verb a person or group as object ("asking the
    team to keep updates short", "reminding my students to answer in French")."""
    head = clause.head
    if clause.dep_ not in ("ccomp", "xcomp") or head.pos_ != "VERB" or head.i == clause.i:
        return False
    told_by = [c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")]
    if not all(_names_the_answer(c, the=False) for c in told_by) or not _of_saying(head):
        return False
    subjects = [c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass")]
    others = subjects and not any(_names_the_answer(c, the=False) or c.lower_ in ("i", "we") for c in subjects)
    if others and _of_duty(clause):
        return True
    objects = [c for c in head.children if c.dep_ in ("dobj", "dative")]
    return not subjects and clause.dep_ == "xcomp" and any(_someone(c) for c in objects)


def rule_for_others(tok: Any) -> bool:
    """Whether the word ``tok`` of a form ("500" in "Write a memo telling staff that reports must be under 500
    words") stands in a rule the answer passes on to others (:func:`_passes_rule_on`, any clause above it).
    "Explain why the sky is blue in 3 sentences" tells no rule."""
    cur = tok
    while cur.head.i != cur.i:
        if cur.dep_ == "conj" and _imperative(cur):
            return False  # "..., and write the memo itself in all caps": an order of the answer's own
        if _passes_rule_on(cur):
            return True
        cur = cur.head
    return False


def rules_passed_on(doc: Any, start: int, end: int) -> list[tuple[int, int]]:
    """Character spans of the clauses in ``doc[start:end]`` that pass a rule on to others (outermost only): where
    a form with no parameter to locate it by ("in all caps", "in JSON format") can be looked for."""
    out: list[tuple[int, int]] = []
    for tok in doc:
        if start <= tok.idx < end and tok.pos_ in ("VERB", "AUX") and _passes_rule_on(tok):
            # the clause without what is coordinated after it ("..., and write the memo itself in all caps")
            joined = {t.i for c in tok.children if c.dep_ in ("conj", "cc") and c.i > tok.i for t in c.subtree}
            last = max((t for t in tok.subtree if t.i not in joined), key=lambda t: t.i)
            lo, hi = tok.left_edge.idx, last.idx + len(last)
            if not any(a <= lo and hi <= b for a, b in out):
                out = [(a, b) for a, b in out if not (lo <= a and b <= hi)] + [(lo, hi)]
    return sorted(out)
