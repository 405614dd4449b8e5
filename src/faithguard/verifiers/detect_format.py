"""Detect format, content, combination and start/end instructions in a query (IFEval ids)."""

from __future__ import annotations

import itertools
import re

from faithguard.verifiers.detect_counts import N, count_unit, find_counts
from faithguard.verifiers.spec import (
    REL,
    VerifiableSpec,
    leading_quote,
    make_spec,
    number,
    quoted_items,
    sentence_at,
    sentence_span,
)
from faithguard.verifiers.text import ORDINAL_RE, parse_number

__all__ = ["detect_format", "detect_paragraphs", "detect_startend"]


#: Units counted here (declared: warm-up compiles their count patterns).
_PLACEHOLDERS = count_unit(r"(?:\[[^\]\n]{1,30}\]\s+)?place\s*-?\s*holders?")
_HIGHLIGHTED = count_unit(
    r"(?:text\s+)?(?:sections?|parts?|keywords?|words?|phrases?|names?|sentences?|items?|points?|lines?)"
)
_SECTIONS = count_unit(r"sections?|parts?|chapters?|paragraphs?|days?|slides?|steps?|stanzas?")
_PARTS = count_unit(r"paragraphs?|sections?|parts?|stanzas?|chunks?")
_PARAGRAPHS = count_unit(r"paragraphs?")


def _first_count(text: str, unit: str) -> int | None:
    counts = find_counts(text, unit)
    if counts:
        return counts[0].n
    m = re.search(rf"(?i){N}\s+(?:[A-Za-z-]+\s+){{0,2}}?(?:{unit})\b", text)
    return number(m.group("n")) if m else None


#: A lower bound stated apart from its unit ("placeholders like [x], at least 5 of them", "(minimum 2)",
#: "six or more of the answers"): read only when the sentence states exactly one such bound.
_BOUND = re.compile(
    rf"(?i)(?:\b(?:at\s+least|minimum(?:\s+of)?|min\.?|no\s+fewer\s+than)\s+(?=\S)|(?<!\w)(?=\S+\s+or\s+more\b)){N}"
)
#: What may follow a bound that stands apart from its unit: nothing of its own ("(minimum 2)", ", at least 5.") or
#: a part of the items ("at least 5 of them", "six or more of the answers"); "at least 300 words", "for at least 50
#: guests" count other things.
_BARE_AFTER = re.compile(r"(?i)\s*(?:or\s+more\s*)?(?:[).,;:!?]|$|of\s+(?:them|these|those|the)\b)")


def _bound_in(sentence: str) -> int | None:
    """The one lower bound the sentence states apart from its unit, else None (none, or several)."""
    found = {number(m.group("n")) for m in _BOUND.finditer(sentence) if _BARE_AFTER.match(sentence, m.end())}
    found.discard(None)
    return found.pop() if len(found) == 1 else None


#: A count of things joined to a format cue by a preposition (not "with": "3 phones in a table with bullets below
#: it" are not bullets), the sentence's only number: "mark at least 3 key moments using markdown
#: highlighting", "list exactly 5 ways to save money as markdown bullets". Anchored at the cue: the counted noun
#: phrase (up to six words after the number) then the joining word, then at most markdown-ish modifiers.
_LINKED_COUNT = re.compile(
    rf"(?i)(?:\b{REL}\s+)?\b{N}\s+(?:[\w'\[\]-]+\s+){{1,6}}?(?:using|in|as|via)\s+"
    r"(?:(?:a|an|the|some|markdown|bold|italic|plain)\s+)*[*_]*$"
)


_CLAUSE_JOIN = re.compile(r"(?i),\s*(?:and|but|then)\b|;")


def _linked_count(text: str, cue_start: int) -> int | None:
    """The count of the things a format cue at ``cue_start`` applies to, stated before it in its sentence."""
    s_start, s_end = sentence_span(text, cue_start)
    # the cue's own clause: "explain vaccines in 300 words, and mark 4 terms in italics" holds two asks
    joins = list(_CLAUSE_JOIN.finditer(text, s_start, cue_start))
    c_start = joins[-1].end() if joins else s_start
    if len(re.findall(rf"(?i)\b{N}\b", text[c_start:s_end])) != 1:
        return None  # "3 pros and 3 cons as bullet points": several counts, none of them the bullets'
    m = _LINKED_COUNT.search(text[c_start:cue_start])
    return number(m.group("n")) if m else None


_PLACEHOLDER = re.compile(r"(?i)\bplace\s*-?\s*holders?\b")
#: The marker with dots, or "PS" in capitals before a colon ("End with a PS: ask about the dog"); a bare "PS" is a
#: console or a file type as often (fixtures: tests/verifiers/test_count_paraphrases.py).
_POSTSCRIPT = re.compile(r"(?i)\bpost\s*-?\s*scripts?\b|\bP\.\s?P?\.?\s?S\.?(?=\s|$|[\"'”])|(?-i:\bP?PS\b)(?=\s*:)")
_BULLETS = re.compile(
    rf"(?i)(?:\b{REL}\s+)?{N}\s+(?:[a-z-]+\s+){{0,3}}?bullet(?:ed)?(?:\s*-?\s*(?:points?|items?|lists?))?"
)
#: The list named first, its size after: "bullet list please - four items exactly", "a bulleted list of 5 points".
_BULLETS_AFTER = re.compile(
    rf"(?i)\b(?:bullet(?:ed)?\s*-?\s*(?:points?|list)|bullets)\b[^.?!\n]{{0,25}}?\b{N}\s+(?:items?|points?|bullets?|entries)\b"
)
#: The answer itself said to be JSON: "the output must be only JSON", "I'd prefer the whole response to be valid
#: JSON" (the answer named with "the"/"your", not a third party's: "the API output"). Fixtures:
#: tests/verifiers/test_count_paraphrases.py.
_JSON_ANSWER = re.compile(
    r"(?i)\b(?:the|your)\s+(?:(?:whole|entire|full)\s+)?(?:response|answer|reply|output)\s+(?:[\w']+\s+){0,3}?"
    r"(?:be|is)\s+(?:[\w']+\s+){0,2}?JSON\b"
)


#: What may stand before the answer in its sentence for the statement to be the user's own ask: nothing, or the
#: user wanting it ("I'd prefer", "we need", "make sure", "please"); "the docs say the response must be JSON"
#: reports someone else's rule.
_ASKED_BEFORE = re.compile(
    r"(?i)(?:^|[,;:]|\b(?:and|also|so|please)\b)\s*(?:(?:i|we)(?:'d|\s+would)?\s+(?:really\s+)?(?:prefer|like|want|need)|"
    r"make\s+sure(?:\s+that)?|ensure(?:\s+that)?|please)?\s*$"
)


def _json_answer(text: str) -> bool:
    """Whether a statement (not a question) asks for the answer to be JSON (:data:`_JSON_ANSWER`), as the user's own
    ask (:data:`_ASKED_BEFORE`)."""
    for m in _JSON_ANSWER.finditer(text):
        start, end = sentence_span(text, m.start())
        if not text[start:end].rstrip().endswith("?") and _ASKED_BEFORE.search(text[start : m.start()]):
            return True
    return False


#: The bullet list as a counted unit (:func:`detect_counts.find_counts`), for a size said apart from it.
_BULLET_UNIT = count_unit(r"bullet(?:ed)?(?:\s*-?\s*(?:points?|items?|lists?))?|bullets")
_HIGHLIGHT_VERB = re.compile(r"(?i)\b(?:highlight\w*|itali[cs]\w*|emphasi[sz]\w*|bold\w*)\b")
_SECTION_MARK = re.compile(
    r"\b(SECTION|Section|section|PART|Part|CHAPTER|Chapter|PARAGRAPH|Paragraph|Day|DAY|Slide|SLIDE|Step|STEP|"
    r"Stanza|STANZA)\s+(?:X|N|\d+|\{\w*\}|#)(?=[\s\"'”.,:;)]|$)"
)


#: Blanks to fill named by their form, with no word "placeholder": square brackets, and in the same sentence an
#: example slot holding a word, after "like" / "such as" / "e.g." ("leave 4 spots in square brackets like [client
#: name]", "3 square-bracket blanks like [guest name]"). Citations ("[1]") hold no word. Fixtures:
#: tests/verifiers/test_bracket_slots.py.
_NEGATED = re.compile(r"(?i)\b(?:no|not|never|without|avoid)\b|n't\b")
_SQUARE_BRACKETS = r"square\s*-?\s*brackets?"
_SLOT_EXAMPLE = re.compile(
    r"(?i)\b(?:like|such\s+as|e\.g\.,?|for\s+example,?)\s*\(?\s*\[[A-Za-z][A-Za-z'’ ]{1,28}\](?!\()"
)
#: Each example slot of the sentence ("like [client name] and [date]"): a word or words in brackets, not a character
#: class ("[a-z]") or a link ("[text](url)").
_SLOT = re.compile(r"\[[A-Za-z][A-Za-z'’ ]{1,28}\](?!\()")


def _bracket_slots(text: str) -> list[VerifiableSpec]:
    for m in re.finditer(rf"(?i)\b{_SQUARE_BRACKETS}", text):
        s_start, s_end = sentence_span(text, m.start())
        sent = text[s_start:s_end]
        near = text[m.start() : m.end() + 120]  # "(e.g. [jacket])": the sentence reader stops at the abbreviation
        if not (_SLOT_EXAMPLE.search(sent) or _SLOT_EXAMPLE.search(near)) or _NEGATED.search(sent):
            continue
        if sent.rstrip().endswith("?"):
            continue  # a question about brackets, not a template asked for
        counts = [number(c.group("n")) for c in re.finditer(rf"(?i)\b{N}\b", sent)]
        n = _first_count(sent, _SQUARE_BRACKETS) or _linked_count(text, m.start())
        if n is None and len(counts) == 1:
            n = counts[0]  # the sentence's one count: "slots in square brackets for at least 3 things"
        if n is None:  # as many as the examples shown (the sentence reader may stop at "e.g.")
            n = max(len(_SLOT.findall(sent[m.start() - s_start :])), len(_SLOT.findall(near))) or 1
        return [make_spec("detectable_content:number_placeholders", {"num_placeholders": n or 1}, sent)]
    return []


def detect_format(text: str) -> list[VerifiableSpec]:
    """Placeholders, postscript, bullets, constrained answer, highlights, sections, JSON, title, two responses."""
    specs: list[VerifiableSpec] = []
    m = _PLACEHOLDER.search(text)
    if m:
        sent = sentence_at(text, m.start())
        n = _first_count(sent, _PLACEHOLDERS) or _bound_in(sent)
        specs.append(make_spec("detectable_content:number_placeholders", {"num_placeholders": n or 1}, sent))
    else:
        specs += _bracket_slots(text)
    for m in _POSTSCRIPT.finditer(text):
        sent = sentence_at(text, m.start())
        # the marker's own full stop ended the "sentence" mid-clause ("a P.S. at the bottom"): read on to the real end,
        # not into a new sentence ("... ended letters with P.S. Write a card.")
        if sent.rstrip().endswith(m.group(0).rstrip()) and re.match(r"[ \t]*[a-z]", text[m.end() :]):
            tail = re.match(r"[^.!?\n]*[.!?]?", text[m.end() :])
            sent = sent.rstrip() + (tail.group(0) if tail else "")
        if "post" not in m.group(0).lower() and not re.search(
            r"(?i)\b(?:start|begin)\w*\s+with\b|\bnote\b|\bat\s+the\s+(?:end|bottom|close)\b|\badd\b|\binclude\b|"
            # a verb of ending as asked (base form or -ing), not told ("she ended her text with P.P.S.")
            r"\b(?:end(?:ing)?|finish(?:ing)?|clos(?:e|ing)|conclud(?:e|ing)|wrap(?:ping)?\s+up|sign(?:ing)?\s+off)\b",
            sent,
        ):
            continue
        marks = re.findall(r"P\.\s?P\.\s?S\.?|P\.\s?S\.?", text)
        marker = "P.S."
        if any(re.match(r"P\.\s?P", x) for x in marks):
            marker = "P.P.S"
        elif not marks and m.group(0) in ("PS", "PPS"):
            marker = m.group(0)  # the marker as the request writes it
        specs.append(make_spec("detectable_content:postscript", {"postscript_marker": marker}, sent))
        break
    for m in [*_BULLETS.finditer(text), *_BULLETS_AFTER.finditer(text)]:
        n = number(m.group("n"))
        if n is None or re.match(r"(?i)\s*\d", text[m.end() : m.end() + 3]):
            continue
        specs.append(
            make_spec("detectable_format:number_bullet_lists", {"num_bullets": n}, sentence_at(text, m.start()))
        )
        break
    else:
        cues = re.finditer(r"(?i)\bbullet(?:ed)?(?:\s*-?\s*(?:points?|list|items?))?\b|\bbullets\b", text)
        for m in itertools.islice(cues, 4):  # the first few mentions: a text of bullets is not a request
            n = _linked_count(text, m.start())
            if n is not None:
                specs.append(
                    make_spec("detectable_format:number_bullet_lists", {"num_bullets": n}, sentence_at(text, m.start()))
                )
                break
        else:
            # the size said apart from the list: "as bullets, half a dozen", "Bullet points please. Exactly nine."
            said = next((c for c in find_counts(text, _BULLET_UNIT) if c.relation == "exactly"), None)
            if said is not None:
                spec = {"num_bullets": said.n}
                specs.append(make_spec("detectable_format:number_bullet_lists", spec, sentence_at(text, said.start)))
    # the fixed answers offered as choices: two of them named, or one with a cue of choosing ("one of", "only")
    answers = list(re.finditer(r"(?i)my\s+answer\s+is\s+(yes|no|maybe)", text))
    offered = {m.group(1).lower() for m in answers}
    choosing = (
        r"(?i)\b(?:one\s+of|only|either|choose|pick|options?|phrased\s+as|"
        r"(?:answer|respond|reply)\w*\s+(?:with|using))\b"
    )
    if len(offered) >= 2 or (offered and re.search(choosing, text)):
        specs.append(make_spec("detectable_format:constrained_response", {}, sentence_at(text, answers[0].start())))
    specs.extend(_detect_highlights(text))
    specs.extend(_detect_sections(text))
    jm = re.search(r"(?i)\bJSON\b", text)
    if jm and (
        re.search(
            r"(?i)\bJSON\s+(?:format|block|object|code|only)|\bin\s+(?:valid\s+)?JSON\b|"
            r"\bwrap\w*\b[^.]{0,50}\bJSON\b|\bJSON\b[^.]{0,30}\b(?:entire|whole)\b|\bas\s+(?:a\s+)?JSON\b",
            text,
        )
        or _json_answer(text)
    ):
        specs.append(make_spec("detectable_format:json_format", {}, sentence_at(text, jm.start())))
    tm = re.search(r"<<[^<>\n]*>>|(?i:double\s+angular\s+brackets|double\s+angle\s+brackets)", text)
    if tm:
        specs.append(make_spec("detectable_format:title", {}, sentence_at(text, tm.start())))
    sm = re.search(r"\*{6,}|(?i:\b(?:6|six)\s+asterisks?)", text)
    if sm:
        specs.append(make_spec("combination:two_responses", {}, sentence_at(text, sm.start())))
    return specs


#: A count right after the highlighting verb, as its object ("bold at least 2 important bits", "italicize two
#: titles"): fixtures in tests/verifiers/test_count_paraphrases.py.
#: A count of highlighted parts above this is not one answer's markup but a year, an amount or a measure
#: ("highlight 2020 as the key year", "the 24 hours of a barista's day"). Fixtures:
#: tests/verifiers/test_count_paraphrases.py.
MAX_HIGHLIGHTS = 20
# look-behind and possessive: a match starts at a run's first blank and reads it once (issue 16)
_DIRECT_COUNT = re.compile(rf"(?i)(?<![ \t])[ \t]++(?:{REL}\s+)?(?:the\s+|your\s+)?{N}\b")
#: Another highlighting verb joined to the first ("bold or italicize", "highlight and/or bold"), whose object the count
#: is. Fixtures: tests/verifiers/test_count_paraphrases.py (paraphrase study #6 class).
_JOINED_VERB = re.compile(
    # look-behind: a match starts at a run's first blank; "\s*,\s*|\s+" is "\s*(?:,\s*|\s+)" unsplit (issue 16)
    r"(?i)(?<!\s)(?:\s*,\s*|\s+)(?:or|and|and/or|/)\s+(?:highlight\w*|itali[cs]\w*|emphasi[sz]\w*|bold\w*)\b"
)


def _detect_highlights(text: str) -> list[VerifiableSpec]:
    m = re.search(
        rf"(?i)\b(?:at\s+least\s+)?{N}\s+(?:[a-z]+\s+)?(?:sections?|parts?)\s+(?:should|must)\s+be\s+"
        r"(?:highlighted|italici[sz]ed)",
        text,
    )
    if m:
        n = number(m.group("n"))
        return [
            make_spec(
                "detectable_format:number_highlighted_sections",
                {"num_highlights": n or 1},
                sentence_at(text, m.start()),
            )
        ]
    for m in _HIGHLIGHT_VERB.finditer(text):
        s_start, s_end = sentence_span(text, m.start())
        sent = text[s_start:s_end]
        # "keyword" cues a highlight only as what is highlighted (after the verb): "generate keywords,
        # highlighting their traits" asks for no markup. The count is read within the sentence.
        after = text[m.start() : max(s_end, m.end())]
        if not (re.search(r"(?i)markdown|\*|\bitali|\bsection|\bpart", sent) or re.search(r"(?i)keyword", after)):
            continue  # "a bold 3-act play", "emphasize 2 points": no markup named
        # "bold or italicize at least four terms": the count is the object of the last of the joined verbs
        verb_end = m.end()
        while (joined := _JOINED_VERB.match(text, verb_end)) is not None:
            verb_end = joined.end()
        direct = _DIRECT_COUNT.match(text, verb_end)
        window = after[:120]
        counts = find_counts(window, _HIGHLIGHTED)
        n = counts[0].n if counts else None
        if n is None and direct is not None and not text.startswith("%", direct.end()):
            k = number(direct.group("n"))  # "bold at least 2 important bits": the count is the verb's object
            n = k if k is not None and k <= MAX_HIGHLIGHTS else None
        if n is None:  # the count may come before the verb's own form too ("at least 3 highlighted sections")
            m2 = re.search(rf"(?i)\b{N}\s+(?:of\s+)?(?:your\s+|the\s+)?(?:[a-z-]+\s+){{0,2}}?{_HIGHLIGHTED}", window)
            if m2 is None:
                m2 = re.search(rf"(?i)\b{N}\s+(?:[a-z-]+\s+){{0,2}}?{_HIGHLIGHTED}", sent)
                # a count before the verb that another verb governs ("Write 300 words and highlight ...") is
                # that verb's: only a count joined to the highlighting without a conjunction or comma counts
                if m2 is not None and re.search(r"(?i)\b(?:and|then|but)\b|[,;]", text[s_start + m2.end() : m.start()]):
                    m2 = None
            n = number(m2.group("n")) if m2 else None
        if n is None:
            n = _linked_count(text, m.start()) or _bound_in(sent) or 1
        return [make_spec("detectable_format:number_highlighted_sections", {"num_highlights": n}, sent)]
    return []


#: A marker word shown enumerated ("SECTION 1, SECTION 2", "Lesson 1 ... Lesson 2") or said to carry its number
#: ("'Chapter' followed by its number"): the request shows the header each section opens with.
_ENUMERATED = re.compile(
    r"\b(?P<m>[A-Z]{2,})\s+1\b[^.\n]{0,30}?\b(?P=m)\s+2\b"  # SECTION 1, SECTION 2: headers set in capitals
    r"|\b(?P<m2>[A-Z][a-z]+)\s+1\b[^.\n]{0,30}?\b(?P=m2)\s+2\b,?\s+(?:format|and\s+so\s+on|etc\b|\.\.\.|…)"
)
_NUMBERED_MARKER = re.compile(
    r"[\"'“‘](?P<m>[A-Za-z]+)[\"'”’]\s+(?:followed\s+by|and\s+then|plus)\s+(?:its|the|a)\s+(?:section\s+)?(?:number|numeral)"
)


#: Section labels listed in full: "Label the sections 'Week 1', 'Week 2', 'Week 3'": a capitalised marker with 1,
#: then the same marker with each next number, joined by commas / "and" / "or", quotes optional.
#: The marker may be lower case after the cue ("labelled session 1, session 2 and session 3"; paraphrase study #6).
_LISTED_LABELS = re.compile(
    r"\b(?P<m>[A-Za-z][A-Za-z]+)\s+1\b(?P<rest>(?:[\"'”’]?\s*(?:,\s*and|,|and|or)\s*[\"'“‘]?(?P=m)\s+\d{1,2}\b)+)"
)
#: Labels given as a range of the same marker ("Week 1 through Week 4", "Unit 1 to Unit 5"; paraphrase study #6).
_RANGE_LABELS = re.compile(
    r"\b(?P<m>[A-Za-z][A-Za-z]+)\s+1[\"'”’]?\s*(?:through|thru|to|until|till|[-–—])\s*[\"'“‘]?(?P=m)\s+"
    r"(?P<last>\d{1,2})\b"
)
#: A cue before the list that it names headings, not things of the content ("visit Day 1, Day 2 and Day 3").
_LABEL_CUE = re.compile(r"(?i)\b(?:label\w*|section\w*|head\w*|title\w*|mark\w*|start\w*|begin\w*|call\w*)\b")


#: Most sections a range of labels is read as (a range "Chapter 1 to Chapter 40" names material, not headers).
MAX_LISTED_SECTIONS = 20


def _listed_sections(text: str) -> VerifiableSpec | None:
    """multiple_sections from labels listed in full after a labelling cue: the count is the list's length (its numbers
    must run 1, 2, ... k); a list that trails off ("and so on", "etc.") states no count."""
    for m in _LISTED_LABELS.finditer(text):
        numbers = [1, *(int(x) for x in re.findall(rf"\b{re.escape(m.group('m'))}\s+(\d{{1,2}})\b", m.group("rest")))]
        if numbers != list(range(1, len(numbers) + 1)) or re.match(
            r"[\"'”’]?,?\s*(?:and\s+so\s+on|etc\b|\.\.\.|…)", text[m.end() :]
        ):
            continue
        if _LABEL_CUE.search(text[max(0, m.start() - 80) : m.start()]):
            spec = {"section_spliter": m.group("m"), "num_sections": len(numbers)}
            return make_spec("detectable_format:multiple_sections", spec, sentence_at(text, m.start()))
    for m in _RANGE_LABELS.finditer(text):
        last = int(m.group("last"))
        if 2 <= last <= MAX_LISTED_SECTIONS and _LABEL_CUE.search(text[max(0, m.start() - 80) : m.start()]):
            spec = {"section_spliter": m.group("m"), "num_sections": last}
            return make_spec("detectable_format:multiple_sections", spec, sentence_at(text, m.start()))
    return None


def _detect_sections(text: str) -> list[VerifiableSpec]:
    found = _counted_sections(text)
    if found:
        return found
    listed = _listed_sections(text)
    return [listed] if listed is not None else []


def _counted_sections(text: str) -> list[VerifiableSpec]:
    unit = _SECTIONS
    mark = _SECTION_MARK.search(text)
    if mark is not None and re.search(
        r"(?i)\b(?:mark\w*|start\w*|begin\w*|label\w*|such\s+as|title\w*|head\w*|with)\b",
        text[max(0, mark.start() - 80) : mark.start()],
    ):
        marker, at = mark.group(1), mark.start()
    else:
        shown = _ENUMERATED.search(text) or _NUMBERED_MARKER.search(text)
        if shown is None:
            return []
        # the count must name sections, or the marker's own noun ("2 sections total", "in 3 chapters")
        marker, at = shown.group("m") or shown.group("m2"), shown.start()
        unit = rf"sections?|parts?|{re.escape(marker.lower())}s?"
    region = text[max(0, at - 250) : at + 100]
    # the headers' own numbers ("Phase 1 and Phase 2") are not the count of sections
    region = re.sub(rf"\b{re.escape(marker)}\s+\w+", lambda m: "_" * len(m.group(0)), region)
    n = _first_count(region, unit)
    if n is None:
        return []
    return [
        make_spec(
            "detectable_format:multiple_sections",
            {"section_spliter": marker, "num_sections": n},
            sentence_at(text, at),
        )
    ]


_DIVIDER = re.compile(r"(?<!\*)\*\*\*(?!\*)|(?i:markdown\s+divider|(?:3|three)\s+asterisk)")
_PARAGRAPH_NUM = r"\d+|one|two|three|four|five|six|seven|eight|nine|ten"
#: The paragraph, by ordinal or number; "one" stands for it after a count ("2 paragraphs; the first one ...").
_NTH = re.compile(
    rf"(?i)\b(?:the\s+)?(?:very\s+)?(?P<ord>{ORDINAL_RE})\s+(?:paragraph|one\b)|\bparagraph\s+(?P<num>{_PARAGRAPH_NUM})\b"
)
#: The first word, a word (inner apostrophes kept: "don't"), without the quote marks around it.
_FIRST_WORD = r"(?:word\s+)?[\"'“‘]?(?P<w>[\w-]+(?:'\w+)*)"
#: Any inflection of the verb ("the first paragraph starting with 'X'"; paraphrase study #6).
_STARTS = re.compile(rf"(?i)^[^.]{{0,40}}?\b(?:start(?:s|ing)?|begin(?:s|ning)?)\s+with\s+(?:the\s+)?{_FIRST_WORD}")
#: The verb first: "Start the 4th paragraph with 'Meanwhile'", "Kick off paragraph 3 with the word Surprisingly".
_VERB_NTH = re.compile(
    rf"(?i)\b(?:start|begin|open|kick\s+off|lead\s+off)\s+(?:the\s+|your\s+)?(?:(?P<ord>{ORDINAL_RE})\s+paragraph|"
    rf"paragraph\s+(?P<num>{_PARAGRAPH_NUM}))\s+(?:with|using)\s+(?:the\s+)?{_FIRST_WORD}"
)


#: The first word named as the subject: "the first word of the 4th paragraph has to be 'therefore'".
_WORD_OF = re.compile(r"(?i)\b(?:first|opening)\s+word\s+(?:of|in)\s+(?:the\s+|your\s+)?$")
_WORD_IS = re.compile(  # the word in quotes: "should be a verb" names a kind of word, not one
    # possessive: the blanks before the modal are read once, not split with those after it (issue 16)
    r"(?i)^\s*+(?:must|should|has\s+to|needs\s+to|will|shall)?\s*(?:be|is|reads?)\s+(?:the\s+(?:word\s+)?)?"
    r"[\"'“‘](?P<w>[\w-]+(?:'\w+)*)[\"'”’]"
)


def _word_is(text: str, nth: re.Match[str]) -> re.Match[str] | None:
    """The word after "the first word of <nth> paragraph ... be", when the request names it that way."""
    return _WORD_IS.match(text[nth.end() :]) if _WORD_OF.search(text[: nth.start()]) else None


#: Paragraphs separated by blank lines, as IFEval's paragraph-first-word check splits them.
_BLANK_LINES = re.compile(r"(?i)\b(?:blank|empty)\s+lines?|\bnew\s*-?\s*lines?|\bline\s*-?\s*breaks?|\\n\\n")


def detect_paragraphs(text: str) -> list[VerifiableSpec]:
    """length_constraints:number_paragraphs (*** dividers) and nth_paragraph_first_word."""
    specs: list[VerifiableSpec] = []
    unit = _PARTS
    counts = [c for c in find_counts(text, unit) if c.relation == "exactly"]
    n_par = counts[0].n if counts else _first_count(text, _PARAGRAPHS)
    nth_found = False
    readings = [(m, _STARTS.match(text[m.end() :]) or _word_is(text, m)) for m in _NTH.finditer(text)]
    if _BLANK_LINES.search(text):  # IFEval's reading (paragraphs split by blank lines); else the per-unit one
        readings += [(m, m) for m in _VERB_NTH.finditer(text)]
    for m, sm in readings:
        if not sm:
            continue
        ordinal = (m.group("ord") or "").lower()
        nth = parse_number(m.group("num")) if m.group("num") else parse_number(ordinal)
        if ordinal in {"last", "final"}:
            nth = n_par
        if nth is None or n_par is None:
            continue
        specs.append(
            make_spec(
                "length_constraints:nth_paragraph_first_word",
                {"num_paragraphs": n_par, "nth_paragraph": nth, "first_word": sm.group("w").lower()},
                sentence_at(text, m.start()),
            )
        )
        nth_found = True
        break
    if nth_found:
        return specs
    div = _DIVIDER.search(text)
    if div and re.search(r"(?i)\b(?:paragraph|section|part|stanza|chunk|separat)", text):
        if counts:
            n: int | None = counts[0].n
        else:
            n = _first_count(text, unit)
            if n is None:
                parts = re.split(r"\s*\*\*\*\s*", text[div.start() - 400 : div.end() + 400])
                n = len(parts) if len(parts) >= 3 else None
        if n is not None:
            specs.append(
                make_spec("length_constraints:number_paragraphs", {"num_paragraphs": n}, sentence_at(text, div.start()))
            )
    return specs


_END = re.compile(
    r"(?i)\b(?:end|ends|ending|finish|finishes|finishing|conclude|concludes|close|closes|wrap\s+up)\b"
    r"(?:\s+(?!with\b)[\w']+){0,5}?\s+(?:with|like|by\s+saying)\b"
    r"(?:\s+(?:this|the|exact|exactly|following|precise|phrase|sentence|words?|line)\b)*\s*:?\s*"
)
_END_READ = re.compile(
    r"(?i)\bvery\s+end\s+of\s+(?:your\s+)?(?:entire\s+)?(?:response|answer)\s+should\s+read"
    r"(?:\s+exactly)?(?:\s+like)?\s*:?\s*"
    # the end named as the subject: "the last thing in it must be the phrase", "the final line should read"
    r"|\b(?:very\s+)?(?:last|final|closing)\s+(?:thing|words?|line|sentence|bit)\b"
    r"(?:\s+(?:in|of)\s+(?:it|the\s+(?:answer|response|reply|text|poem|story|letter|email|essay)|your\s+\w+)"
    r"\s+(?:must|should|has\s+to|needs\s+to|will|is\s+to)\s+(?:be|read)"
    r"|\s+(?:must|should|has\s+to|needs\s+to|will|is\s+to)\s+read)"
    r"\s+(?:exactly\s+)?(?:the\s+(?:exact\s+)?(?:phrase|sentence|words?|line)\s+)?:?\s*(?=[\"“'])"
)


def _tells_how_something_ends(text: str, m: re.Match[str]) -> bool:
    """Whether an "end with" is told of something, not asked of the answer: how the user's or someone's own text ends
    ("my speech ends with ...", "a song whose chorus ends with ..."), or the user's own habit ("I always end my emails
    with ..."). Questions are left to the engine's reading of requests (``engine/asking.py``): "Is it possible to have
    the response end with ...?" asks, "Should a cover letter end with ...?" is read tentatively there."""
    before = text[sentence_span(text, m.start())[0] : m.start()]
    if re.search(r"(?i)\b(?:my|our|his|her|their|whose|which)\s+(?:[\w'-]+\s+){0,2}$", before):
        return True
    return re.search(r"(?i)\b(?:i|we)\s+(?:\w+\s+)?$", before) is not None


#: A remark after an unquoted end phrase that nothing may follow it ("..., nothing after it.", "— no more words
#: after that"): not part of the phrase (paraphrase study #6).
_NOTHING_AFTER = re.compile(
    # look-behind: a match starts at a run's first blank, so a run of blanks is scanned once (issue 16)
    r"(?:(?<!\s)\s+)?(?:,|;|\s[-–—]{1,2}|[–—])\s*(?:and\s+)?(?:nothing|no|not|none)\b[^.!?]{0,40}?"
    r"\b(?:after|afterwards|else|more|following|further|beyond)\b[^.!?]{0,20}[.!?]$"
)
#: The kind of an unquoted tag before it ("the hashtag #X", "the handle @y"): the tag is the phrase (study #6).
_KIND_BEFORE_TAG = re.compile(r"^[a-z]+\s+(?=[#@]\w)")


def detect_startend(text: str) -> list[VerifiableSpec]:
    """startend:end_checker ('End with the exact phrase ...') and startend:quotation."""
    specs: list[VerifiableSpec] = []
    for m in list(_END_READ.finditer(text)) + list(_END.finditer(text)):
        rest = text[m.end() :]
        if m.re is _END and re.match(
            r"(?i)\s*(?:a|an|your|my|his|her|their|it)\b|\s*(?:post\s*-?\s*script|P\.\s?P?\.?\s?S)", rest
        ):
            continue
        if m.re is _END and _tells_how_something_ends(text, m):
            continue
        quoted = leading_quote(rest)
        if quoted is not None:
            phrase = quoted.strip()
        else:
            um = re.match(r"\s*(.+?[.!?])(?=\s|$)", rest)
            if not um:
                continue
            phrase = _NOTHING_AFTER.sub("", _KIND_BEFORE_TAG.sub("", um.group(1).strip()))
        if not phrase or len(phrase.split()) > 25:
            continue
        specs.append(make_spec("startend:end_checker", {"end_phrase": phrase}, sentence_at(text, m.start())))
        break
    qm2 = re.search(r"(?i)\bdouble\s+quot(?:e|es|ation)", text)
    if qm2:
        sent = sentence_at(text, qm2.start())
        # quotes around something else a described thing handles ("a function that wraps a string in double quotes")
        other = re.search(
            r"(?i)\b(?:that|which|to)\s+(?:\w+\s+)?(?:wrap\w*|enclos\w*|surround\w*)\s+(?:a|an|each|every|any|some)\s+\w+",
            sent,
        )
        if other is None and re.search(
            r"(?i)\b(?:wrap\w*|around|enclos\w*|surround\w*|inside|within|entire|whole)\b", sent
        ):
            specs.append(make_spec("startend:quotation", {}, sent))
    return specs


def quoted_phrase(text: str) -> str | None:
    """The first quoted phrase of ``text`` (helper for callers)."""
    items = quoted_items(text)
    return items[0] if items else None
