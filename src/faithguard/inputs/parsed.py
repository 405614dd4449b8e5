"""References only the parse can find or rule out: parse filters, first-person pointers and bare deictics.

Split from ``references.py`` (the pattern pass); every reading here comes from ``specs/syntax.json`` through
``faithguard.inputs.syntax``. The parse is the shared, cached ``faithguard.nlp.parse`` of the request.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from faithguard.inputs.content_kinds import classify_noun, known_noun, lexname_test
from faithguard.inputs.discourse import sentence_of as _sentence_of
from faithguard.inputs.discourse import sentences as _sentences
from faithguard.inputs.references import Reference, _class_kind
from faithguard.inputs.vocab import CREATION_VERBS, kind_of
from faithguard.lexical import wordnet_verbs

__all__ = [
    "DEICTIC_TRIGGER",
    "HISTORY_TRIGGER",
    "POINTER_TRIGGER",
    "assistant_made",
    "deictic_refs",
    "linked_objects",
    "parse_filter",
    "pointer_refs",
    "recalled_exchange",
    "sent_elsewhere",
]


def parse_filter(refs: list[Reference], doc: Any, masked: str) -> list[Reference]:
    """Drop non-strong references the parse of the whole request reads as non-references.

    ``doc`` is the parse of the request text (the masked text has the same offsets). Dropped: a determiner
    that belongs to another noun phrase ("the change added ten minutes"), a noun used as a modifier, a
    narrated subject or object ("I read the report yesterday and it was boring") that nothing later picks
    up again, the object of a creation verb. Readings come from ``specs/syntax.json``.
    """
    tokens = {t.idx: t for t in doc}
    refs = [r for r in refs if not (r.kind == "thread" and _setting_of_talk(tokens.get(r.noun_start)))]
    refs = [r for r in refs if not being_made_by_user(tokens.get(r.noun_start))]
    weak = [r for r in refs if not r.strong]
    if not weak:
        return refs
    from faithguard.inputs.syntax import anchors, role_of

    found = anchors(doc)
    by_role: dict[str, set[int]] = {}
    for name, offs in found.items():
        by_role.setdefault(role_of(name), set()).update(offs)
    at = {t.idx: t for t in doc}
    dropped: set[int] = set()
    for r in weak:
        tok = at.get(r.noun_start)
        if tok is None:
            continue
        det = at.get(r.start)
        gap = [t for t in doc[det.i + 1 : tok.i]] if det is not None else []
        if det is not None and any(t.tag_.startswith("VB") for t in gap) and not _in_phrase(det, tok):
            dropped.add(id(r))  # "the change added ten minutes": a verb between, and "the" is another noun's
            continue
        if r.noun_start in by_role.get("pointer", set()):
            continue
        if r.noun_start in by_role.get("generic", set()) and not any(c.dep_ == "poss" for c in tok.children):
            # a possessor picks out a held item whatever the phrase after it ("the chatbot's reply on a scale of
            # 1 to 10": the parser may hang the verb's phrase on the noun). Fixtures: tests/inputs/test_voice.py
            dropped.add(id(r))  # "the best recipe for pancakes", "the error on a login page": a kind, not an item
            continue
        if _do_support_subject(doc, tok):
            continue  # "does the graph show ...": the tagger read the main verb as a noun
        question = masked[r.sentence[0] : r.sentence[1]].rstrip().endswith("?")
        if r.noun_start in by_role.get("modifier", set()) or (
            tok.i + 1 < len(doc)
            and doc[tok.i + 1].pos_ in ("NOUN", "PROPN")
            and doc[tok.i + 1].dep_ != "appos"
            and tok.head.i == tok.i + 1
        ):
            if not _content_head(tok.head):
                dropped.add(id(r))  # "the email address": the content noun only modifies another thing
        elif r.noun_start in by_role.get("narrative", set()) and not question and not _picked_up(doc, tok):
            dropped.add(id(r))  # "My essay got a C." narrates, does not hand the content over
        elif tok.dep_ == "dobj" and tok.head.lower_ in CREATION_VERBS:
            dropped.add(id(r))
    return [r for r in refs if id(r) not in dropped]


#: Prepositions of place and time (a closed class of English): the talk's setting, "in this chat", "during this
#: conversation".
_WHERE_OR_WHEN = frozenset({"in", "within", "inside", "during", "throughout"})


def _setting_of_talk(tok: Any) -> bool:
    """'How do I attach a file in this chat?': the conversation under way as where something happens (the object of
    a preposition that hangs on a verb, under 'this'), not a record of it handed over ("summarize this chat", "the
    main points of this thread"). Fixtures: tests/inputs/test_talk_and_links.py."""
    if tok is None or tok.dep_ != "pobj" or tok.head.dep_ != "prep" or tok.head.lower_ not in _WHERE_OR_WHEN:
        return False  # "tldr of this thread?", "comment on this thread": the talk's content, not its setting
    verb = tok.head.head
    if verb.pos_ != "VERB" or verb.lemma_ == "be" or verb.tag_ in ("VBD", "VBN"):
        # "who is right in this thread?", "the points made in this thread", "what I told you in this chat": what
        # was said in it, which the earlier turns would hold
        return False
    if any(c.dep_ == "compound" for c in tok.children):
        return False  # "this email thread": another conversation, pasted or not
    return any(c.dep_ == "det" and c.lower_ == "this" for c in tok.children)


#: WordNet 3.0 verb lexicographer files of making and saying (``lexnames``: 36 verb.creation, 32
#: verb.communication): "wrote", "drew", "described", "suggested".
_MAKING_FILES = (36, 32)
#: Share of a verb's tagged uses that must be making or saying for "the X you VERB" to be the assistant's own output.
MAKING_SHARE = 0.5


def assistant_made(tok: Any) -> bool:
    """'the diagram you described above', 'the plan you gave me': a thing the assistant itself made or said, named
    by a relative clause whose subject is "you" and whose verb makes or says (WordNet's tagged uses) or hands the
    thing to the user ("gave me"); "the email you got from me", "the article you found" are the user's or the
    world's. Fixtures: tests/inputs/test_talk_and_links.py."""
    if tok is None:
        return False
    from faithguard.lexical.senses import verb_lexfiles_share

    for c in tok.children:
        if c.dep_ != "relcl" or not any(s.dep_ == "nsubj" and s.lower_ in ("you", "u") for s in c.children):
            continue
        if any(k.dep_ == "prep" and k.lower_ == "from" for k in c.children):
            continue  # "you got from me": handed to the assistant
        to_user = any(k.dep_ in ("dative", "dobj") and k.lower_ in ("me", "us") for k in c.children)
        if to_user or verb_lexfiles_share(c.lemma_, _MAKING_FILES) >= MAKING_SHARE:
            return True
    return False


#: WordNet 3.0 verb files of making, saying, moving and handing over (36 creation, 32 communication, 38 motion, 40
#: possession): what the user does to a thing they are producing or about to hand on ("write", "send", "give").
_PRODUCING_FILES = (36, 32, 38, 40)
#: Verbs whose complement is what the user means to do ("I need to write", "we plan to send"); with "going" and
#: "about" ("I'm going to give", "I'm about to send") the clause speaks of something not yet done.
_INTENT_LEMMAS = frozenset({"need", "plan", "want", "intend", "have", "go", "about", "hope", "mean"})


def being_made_by_user(tok: Any) -> bool:
    """'the handover document I'm writing', 'the email I'm about to send', 'the cover letter I need to write': a thing
    the user is still producing or about to hand on, named by a relative clause whose subject is "I" or "we", that
    speaks of what is in progress or to come (a progressive, "will", "going to", "about to", "need to") with a verb of
    making, saying, moving or handing over (WordNet's tagged uses), and that the request names only as what advice is
    for or what to put in it ("tips for the speech", "what should I include in the document"): advice about it needs
    no copy of it. Acting on it does ("proofread the email I'm writing", "feedback on the letter I'm writing", "the
    mistakes in the report I'm writing"), as does a thing on its way to the assistant ("the letter I'm sending you");
    "the error I'm getting" or "the report I wrote" name things the user holds.
    Fixtures: tests/inputs/test_being_made.py."""
    if tok is None:
        return False
    from faithguard.lexical.senses import verb_lexfiles_share

    # advice about it: the thing a request is for or in ("tips for the speech", "what to include in the document"),
    # or the object of the user's own doing ("how should I structure the letter"); "feedback on", "help with" or
    # the assistant's own verb ("proofread the email I'm writing") act on it, and need it
    # what advice is for ("tips for the speech"), or what to put in it ("what should I include in the document":
    # the verb's own object is the question word); "the bugs in the code", "find the mistakes in the report" and
    # "how should I improve the essay" read what is in it, and need it (reviewer 97)
    prep = tok.head if tok.dep_ == "pobj" else None
    purpose = prep is not None and (
        prep.lower_ == "for"
        or (
            prep.lower_ == "in"
            and prep.head.pos_ in ("VERB", "AUX")
            and any(
                c.dep_ == "dobj" and (c.tag_ in ("WP", "WDT") or any(d.tag_ in ("WP", "WDT") for d in c.children))
                for c in prep.head.children
            )
        )
    )
    if not purpose:
        return False
    clauses = [c for c in tok.children if c.dep_ in ("relcl", "acl")]
    after = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    # "the document I'm writing" read as a clause of the main verb: a verb right after the noun, with the noun's
    # place (its object) left empty, is the noun's relative clause all the same
    if (
        after is not None
        and after.dep_ == "nsubj"
        and after.lower_ in ("i", "we")
        and after.head.i > tok.i
        and not any(c.dep_ in ("dobj", "ccomp") for c in after.head.children)
    ):
        clauses.append(after.head)
    for clause in clauses:
        if not any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in clause.children):
            continue
        if any(c.dep_ in ("dative", "dobj") and c.lower_ in ("you", "u") for c in clause.subtree):
            continue  # "the letter I'm sending you": on its way to the assistant
        verbs = [clause, *(t for t in clause.subtree if t.dep_ == "xcomp" and t.pos_ == "VERB")]
        later = any(t.dep_ == "aux" and t.lemma_.lower() in ("will", "shall") for t in clause.children)
        doing = clause.tag_ == "VBG" and any(t.dep_ == "aux" and t.lemma_.lower() == "be" for t in clause.children)
        intent = any(t.lemma_.lower() in _INTENT_LEMMAS for t in clause.subtree if t.i < verbs[-1].i)
        if not (later or doing or (intent and len(verbs) > 1)):
            continue
        action = verbs[-1]
        if verb_lexfiles_share(action.lemma_, _PRODUCING_FILES) >= MAKING_SHARE:
            return True
    return False


def _content_head(head: Any) -> bool:
    """Whether a compound's head keeps a content modifier a reference: 'the blog post', 'this email chain'.

    The head is a content noun of the kind table, a message-like WordNet noun (weak, or strong by its communication
    share), or a set of things (the ``collection`` lexname test); a head whose first sense alone makes it content
    ("address", "title") names a property of the content, not the content.
    """
    if head.pos_ not in ("NOUN", "PROPN"):
        return False
    nxt = head.doc[head.i + 1] if head.i + 1 < len(head.doc) else None
    if (nxt is not None and nxt.pos_ == "PROPN") or any(t.pos_ == "PROPN" for t in head.rights):
        return False  # "the email protocol SMTP": a named thing of the world
    word = head.text
    if kind_of(word) is not None or lexname_test("collection", word):
        return True
    cls = classify_noun(word)
    return cls is not None and (cls.brief or cls.strength == "weak")


def _in_phrase(det: Any, noun: Any) -> bool:
    """Whether the determiner token belongs to the noun's phrase (its subtree, or a conjunct's)."""
    heads = {noun.i, *(c.i for c in noun.conjuncts)}
    cur = det
    for _ in range(6):
        if cur.i in heads:
            return True
        if cur.head.i == cur.i:
            return False
        cur = cur.head
    return False


def _picked_up(doc: Any, tok: Any) -> bool:
    """A later request acts on the narrated item by pronoun ("I finished the report. Can you check it?")."""
    return any(
        t.lower_ in ("it", "them") and t.dep_ in ("dobj", "pobj") and t.head.tag_ == "VB" for t in doc[tok.sent.end :]
    )


#: A noun phrase followed by a clause whose subject is the user: "the warning I keep getting", "the answers my
#: students gave". Only then is the parse needed when the patterns found nothing missing.
POINTER_TRIGGER = re.compile(
    r"\b(?:the|this|that|these|those|my|our)\s+(?:[\w'’-]+\s+){0,3}?[\w'’-]+\s+(?:that\s+|which\s+)?"
    r"(?:I|we|my|our)(?:['’](?:m|ve|re|d|ll))?\s+[\w'’-]+"
    # the user's clause first: "why am I getting this error"
    r"|\b(?:I|we)(?:['’](?:m|ve|re|d|ll))?\s+(?:[\w'’-]+\s+){0,3}?(?:this|these)\s+[\w'’-]+"
    # a hand-over still to come: "I'll paste three reviews", "we're going to upload the slides"
    r"|\b(?:I|we)(?:['’](?:ll|m|re)|\s+will|\s+am|\s+are)?\s+(?:going\s+to\s+)?(?:send|paste|share|upload|attach|"
    r"forward|post|give|provide)\b"
    # the message a reply is to: "respond to the review", "reply to her message"
    r"|\b(?:respond|reply)\s+to\s+(?:(?:the|this|that|these|those|my|your|his|her|our|their)\b|[A-Z][\w-]*['’]s\b)"
    # a free relative the user received: "sum up what my landlord sent me"
    r"|\bwhat\s+(?:my|our|his|her|their|the)\s+",
    re.I,
)


#: A first-person clause that hands the item to the assistant ("the link I sent", "the thing we uploaded") or says the
#: user wrote it ("the bio I wrote"): whatever the noun names, it was meant to arrive with the request; a destination
#: after the verb ("sent to Berlin") is not this.
#: Fixtures: tests/inputs/test_generalize.py (spec handed_over_clause).
_HANDED_OVER = re.compile(
    # look-behind: a match starts at a run's first blank, so a run of blanks is scanned once (issue 16)
    r"(?<!\s)\s+(?:that\s+|which\s+)?(?:i|we)(?:['’]ve|\s+have|\s+just|\s+had|\s+already)*\s+"
    # handed over, or written by the user ("the bio I wrote", "the intro we drafted"): text the user holds
    r"(?P<verb>sent|shared|pasted|uploaded|attached|forwarded|linked|posted|wrote|drafted|typed|composed)\b"
    r"(?!\s+(?:to|off|out)\b)",
    re.I,
)
#: The verbs of that clause that only a file or a page can undergo ("the page I linked", "the site we uploaded"):
#: whatever WordNet files the noun's first sense as (a page, a site), the item is digital material.
_DIGITAL_VERBS = frozenset({"pasted", "uploaded", "attached", "forwarded", "linked"})


def _received(anchor: Any) -> bool:
    """Whether a recipient clause hands the item to the user ("sent me", "gave us") rather than to the assistant."""
    verb = anchor.head if anchor.tag_ == "WP" else next((c for c in anchor.children if c.dep_ == "relcl"), None)
    return verb is not None and any(c.dep_ in ("dobj", "dative") and c.lower_ in ("me", "us") for c in verb.children)


def _acted_on(anchor: Any) -> bool:
    """Whether the request's own verb acts on the item: its object (or a preposition's) in a clause addressed to
    the assistant ("Translate the letter my landlord sent me", "can u sum up what my landlord sent me")."""
    node = anchor.head if anchor.tag_ == "WP" else anchor
    if node.dep_ == "pobj":
        node = node.head
    if node.dep_ not in ("dobj", "ccomp", "prep"):
        return False
    return _asked_of_assistant(node.head)


def sent_elsewhere(noun: Any) -> bool:
    """Whether the noun's verb sends it somewhere other than this chat ("to the client", "with my class", "on
    Instagram"; not "to you", "in the next message")."""
    verb = noun.head
    return any(
        c.dep_ == "prep"
        and c.lower_ in ("to", "with", "on", "onto")
        and any(g.dep_ == "pobj" and g.lower_ not in ("you", "here") for g in c.children)
        for c in (*verb.children, *noun.children)
    )


def _made_by_answer(tok: Any) -> bool:
    """Whether ``tok`` heads an indefinite direct object ("a ...") of a verb WordNet files as creation."""
    indefinite = any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in tok.children)
    return tok.dep_ == "dobj" and indefinite and bool(wordnet_verbs.creates(tok.head.lemma_))


def _made_earlier(tok: Any) -> bool:
    """Whether an earlier indefinite object of a creation verb in its base form, not negated and not asked about, has
    the same lemma as ``tok``: the request has the answer make it ("I want to create a character", "Help me write a
    poem"). Not "I created a character" or "I'm writing a cover letter" (the user has it, still to be supplied), "I
    don't want to write a new story", or "Should I write a story?". Fixtures: tests/inputs/test_made_earlier.py."""
    lemma = tok.lemma_.lower()
    return any(t.lemma_.lower() == lemma and _made_by_answer(t) and _to_be_made(t.head) for t in tok.doc[: tok.i])


def _to_be_made(verb: Any) -> bool:
    """A creation verb in its base form; its clause and the one it depends on neither negated nor a question."""
    if verb.tag_ != "VB" or verb.sent.text.rstrip().endswith("?"):
        return False
    return not any(c.dep_ == "neg" for v in (verb, verb.head) for c in v.children)


def pointer_refs(refs: list[Reference], doc: Any, masked: str, source: str = "query") -> list[Reference]:
    """References the syntax shows point at items the user holds ('the stack trace I just got').

    An existing reference at a pointer anchor becomes strong; a noun the kind table and the WordNet classes do
    not know becomes a reference when WordNet reads it as information (the 'pointer' lexname test), never a
    physical thing ("the plant I just got").
    """
    from faithguard.inputs.syntax import anchors, role_anchors

    offs = role_anchors(doc, "pointer")
    if not offs:
        return refs
    at = {t.idx: t for t in doc}
    # a hand-over to someone else is not material for the assistant: "I'll send the invoice to the client"
    offs = {o for o in offs if not sent_elsewhere(at[o])}
    # "the email I never got": a negated clause says the item is not held
    offs = {
        o
        for o in offs
        if not any(c.dep_ == "neg" for k in at[o].children for c in k.children if k.dep_ in ("relcl", "acl"))
    }
    # "Write a reply template my staff can adapt": an indefinite object of a creation verb is what the answer makes,
    # whatever clause describes its later use
    offs = {o for o in offs if not _made_by_answer(at[o])}
    # "I want to create a character ... build this character": the pointer names again what the answer is making
    offs = {o for o in offs if not _made_earlier(at[o])}
    # received by the user ("the card my aunt sent me"): material only when the request acts on it
    found = anchors(doc)
    others = set().union(*(v for k, v in found.items() if k != "recipient_clause"))
    offs -= {o for o in found.get("recipient_clause", set()) - others if _received(at[o]) and not _acted_on(at[o])}
    sents = _sentences(masked)
    out = [replace(r, strong=True) if r.noun_start in offs else r for r in refs]
    have = {r.noun_start for r in refs}
    for off in sorted(offs - have):
        tok = at[off]
        if not masked[off : off + len(tok.text)].strip():
            continue  # inside supplied content
        word = tok.text
        if tok.tag_ == "WP":
            # a free relative, "sum up what my landlord sent me": the clause is the reference, when its verb is
            # one of communication (WordNet); "guess what my dad bought me" is a thing
            if not wordnet_verbs.communicates(tok.head.lemma_):
                continue
            end = max(t.idx + len(t.text) for t in tok.head.subtree)
            start = min(t.idx for t in tok.head.subtree)
            sent = _sentence_of(sents, off)
            out.append(Reference(masked[start:end], "content", 1, start, end, sent, source, True, None, off))
            continue
        cls = classify_noun(word)
        clause = _HANDED_OVER.match(masked, off + len(word))
        handed = clause is not None and (
            lexname_test("handed", word) or not known_noun(word) or clause.group("verb").lower() in _DIGITAL_VERBS
        )
        if kind_of(word) is None and cls is None and not lexname_test("pointer", word) and not handed:
            continue
        kind = kind_of(word) or (_class_kind(cls) if cls is not None else "message")
        start = min([t.idx for t in tok.lefts if t.dep_ == "det"] + [off])
        sent = _sentence_of(sents, off)
        text = masked[start : off + len(word)]
        # "the contract clause my landlord wants": the pattern pass read the modifier "contract" as the noun; the
        # phrase is one item, named by its head
        modifiers = {c.idx for c in tok.children if c.dep_ == "compound"}
        out = [r for r in out if r.noun_start not in modifiers or r.start < start]
        out.append(Reference(text, kind, 1, start, off + len(word), sent, source, True, None, off))
    return out


#: A pronoun that may stand for the material ("summarise this"); the parse decides (spec ``deictic_pronoun``).
DEICTIC_TRIGGER = re.compile(r"\b(?:this|these|it|them|that)\b", re.I)


def deictic_refs(doc: Any, masked: str, source: str = "query") -> list[Reference]:
    """Pronouns that stand for material nothing in the request introduces ('Summarize this.').

    'it'/'them' count only when no noun comes before them (otherwise that noun is the antecedent);
    'this'/'these' only when no earlier sentence has a noun ("I want to learn Spanish. How should I approach this?").
    """
    from faithguard.inputs.syntax import anchors, role_anchors

    offs = role_anchors(doc, "deictic")
    signified = anchors(doc).get("signified_subject", set())  # "what does this error mean": any noun
    judged = anchors(doc).get("deictic_judged", set())  # "Is that correct?": the request asks for a judgement of it
    sents = _sentences(masked)
    out: list[Reference] = []
    for tok in doc:
        if tok.idx not in offs or not masked[tok.idx : tok.idx + len(tok.text)].strip():
            continue
        sent = _sentence_of(sents, tok.idx)
        limit = tok.idx if tok.lower_ in ("it", "them") else sent[0]
        if any(t.pos_ in ("NOUN", "PROPN") and t.idx < limit and masked[t.idx : t.idx + 1].strip() for t in doc):
            continue
        if tok.dep_ == "pobj" and tok.head.lower_ == "of" and any(t.pos_ in ("NOUN", "PROPN") for t in doc[tok.i :]):
            continue  # "which of these is cheaper, a bus pass or a bike?": the choices follow
        end = tok.idx + len(tok.text)
        start = tok.idx
        if tok.pos_ == "NOUN":
            # "this stack trace": the noun must be a text or message (the spec's "shown" test), not any idea or
            # procedure ("this kind", "this process")
            meant = tok.idx in signified and not lexname_test("time", tok.text)
            if not (lexname_test("shown", tok.text) or classify_noun(tok.text) is not None or meant):
                continue
            if kind_of(tok.lower_) == "thread" and _setting_of_talk(tok):
                continue  # "How do I attach a file in this chat?": where the talk happens
            start = min([t.idx for t in tok.lefts if t.dep_ == "det"] + [tok.idx])
        elif tok.idx in judged:
            if any(c.dep_ == "ccomp" for c in tok.head.children):
                continue  # "Is that true that cats purr?": the clause after it is what is judged
        elif tok.lower_ == "that" and not _asked_of_assistant(tok.sent.root):
            continue  # "Why do people say that?": 'that' is only material when the assistant is to act on it
        elif tok.lower_ == "it" and tok.dep_ == "nsubj" and not _asked_of_assistant(tok.head.head):
            continue  # "How do I make it quick?": the user's own doing, not material for the assistant
        if _introduces_material(tok):
            continue  # "Summarize this - the council voted to close the library": the dash tail is the material
        text = masked[start:end]
        out.append(Reference(text, "content", 1, start, end, sent, source, True, None, tok.idx))
    return out


#: A dash or colon right after a deictic pronoun, or after its clause's next few words, introduces the material in
#: the same sentence ("Summarize this - the council voted ...", "Make this friendlier - ..."), as after a forward
#: pointer. Fixtures: tests/inputs/test_deictic_dash.py.
_INTRODUCED_RE = re.compile(r"^(?:\s+[\w'’]+){0,3}?\s*(?:—|–|\s--?\s|:)\s*\S")


def _introduces_material(tok: Any) -> bool:
    """Whether a pronoun is followed, in its own sentence and line, by a dash or colon and then words that are not
    the request's own order, question or voice (``forward.requested_words``: "Fix this -- I think it's broken" is a
    comment, not the thing to fix)."""
    from faithguard.inputs.forward import requested_words
    from faithguard.nlp import text_of

    text = text_of(tok.doc)
    after = tok.idx + len(tok.text)
    line_end = text.find("\n", after)
    end = tok.sent.end_char if line_end < 0 else min(tok.sent.end_char, line_end)
    m = _INTRODUCED_RE.match(text[after:end])
    if m is None:
        return False
    at = after + m.end() - 1
    return not requested_words(tok.sent, text, at, end, after_colon=":" in m.group())


def _asked_of_assistant(verb: Any) -> bool:
    """Whether ``verb`` is addressed to the assistant: an imperative (no subject) or with 'you' as its subject."""
    subjects = [t for t in verb.children if t.dep_ in ("nsubj", "nsubjpass")]
    return not subjects or any(t.lower_ in ("you", "u") for t in subjects)  # "u": the chat spelling of "you"


#: Dependencies of a link hanging on a verb as what it acts on: the parser reads a long URL as a direct object, or
#: (its hyphens looking like a participle) as a clausal complement.
_OBJECT_DEPS = frozenset({"dobj", "xcomp", "ccomp", "oprd"})


#: WordNet 3.0 verb lexicographer files of taking in content (``lexnames``: 31 verb.cognition, 39 verb.perception,
#: 32 verb.communication): "read", "check", "review", "summarize", "compare". A link used as a string ("use ... as
#: the base URL", "block", "redirect", "include ... in the signature") is no page to read.
_READING_FILES = (31, 39, 32)
#: Share of the verb's tagged uses that must be such for its link object to be material. Fixtures:
#: tests/inputs/test_talk_and_links.py.
READING_SHARE = 0.5


def linked_objects(doc: Any) -> list[tuple[int, int]]:
    """Character spans of links the request asks the assistant to act on: a URL as the object of a verb
    addressed to it ("Pls read https://... and tell me"), its page text then being the material. A link that is
    the user's own doing or only named ("I posted https://...", "my site is https://...") is not. Fixtures:
    tests/inputs/test_talk_and_links.py."""
    from faithguard.lexical.senses import verb_lexfiles_share

    return [
        (t.idx, t.idx + len(t.text))
        for t in doc
        if t.like_url
        and t.dep_ in _OBJECT_DEPS
        and t.head.pos_ == "VERB"
        and _asked_of_assistant(t.head)
        and verb_lexfiles_share(t.head.lemma_, _READING_FILES) >= READING_SHARE
    ]


def _do_support_subject(doc: Any, tok: Any) -> bool:
    """In a do-support question the NP between 'does' and the main verb is the subject, not a compound.

    The small tagger often reads the main verb as a noun ("does the graph show", "does the writer use"): the
    misread verb is then the sentence root or hangs off 'do' itself.
    """
    head = tok.head
    if head.i != tok.i + 1:
        return False
    # do-support or a modal before the subject ("does the graph show", "won't my script run")
    dos = [t for t in doc[: tok.i] if (t.lemma_ == "do" and t.pos_ in ("AUX", "VERB")) or t.tag_ == "MD"]
    return bool(dos) and (head.dep_ == "ROOT" or head.head.i in {t.i for t in dos})


#: A first-person clause that may recall an earlier exchange: "what I/we ...", "did I/we ...", "we left off".
HISTORY_TRIGGER = re.compile(r"\b(?:what|did)\s+(?:I|we)\b|\b(?:I|we)\s+left\s+off\b", re.I)
#: A verb must be used mostly as a communication verb (WordNet tagged counts) for "what I ..." to recall an exchange
#: ("what did I tell you" recalls; "what did I eat" does not). Fixtures: tests/inputs/test_generalize.py
#: (spec recalled_exchange).
MOSTLY_SAYING = 0.5


def recalled_exchange(doc: Any, masked: str) -> list[dict[str, Any]]:
    """Findings for clauses that recall an earlier exchange (spec ``recalled_exchange``) when no turns were given."""
    from faithguard.inputs.syntax import role_anchors
    from faithguard.lexical.senses import verb_lexfile_share

    offs = role_anchors(doc, "history")
    for tok in doc:
        if tok.idx not in offs or not masked[tok.idx : tok.idx + len(tok.text)].strip():
            continue
        if tok.lemma_ != "leave" and verb_lexfile_share(tok.lemma_) < MOSTLY_SAYING:
            continue
        clause = tok.text  # the verb only: the rest of the clause is the user's content
        return [
            {
                "reference": "the earlier conversation",
                "expected": 1,
                "found": 0,
                "explanation": f"The request recalls an earlier exchange ({clause!r}) but no earlier turns were "
                "supplied.",
            }
        ]
    return []
