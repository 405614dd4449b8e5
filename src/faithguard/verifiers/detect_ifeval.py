"""Detect keyword, language, length, case and punctuation instructions in a query (IFEval ids)."""

from __future__ import annotations

import re
from typing import Any

from faithguard.lexical.frequency import stop_words
from faithguard.lexical.langid import LANGUAGE_NAMES
from faithguard.numwords import CARDINALS
from faithguard.verifiers.detect_counts import CountMatch, count_unit, find_counts, find_times
from faithguard.verifiers.spec import VerifiableSpec, make_spec, quoted_items, sentence_at, sentence_span, split_list

__all__ = [
    "detect_case",
    "detect_keywords",
    "detect_language",
    "detect_length",
    "detect_letters",
    "detect_no_comma",
]

#: Negation cues; contractions also as typed without the apostrophe ("dont", "shouldnt").
_NEG = re.compile(
    r"(?i)\b(?:not|never|avoid|avoiding|without|exclude|excluding|refrain|no|nor|don't|doesn't|shouldn't|mustn't|"
    r"cannot|can't|forbid|forbidden|banned|dont|doesnt|shouldnt|mustnt|cant)\b|n't\b"
)
_KW_NOUN = r"(?:key\s*words?|words?|terms?|phrases?|items|lines?)"
# A keyword noun right after a cardinal ("40 words", "forty lines") is a unit of length, never a keyword list.
_COUNTED = re.compile(r"(?i)(?:\b\d[\d,]*|\b(?:" + "|".join(sorted(CARDINALS, key=len, reverse=True)) + r"))\s*$")
_STOP_AFTER = re.compile(
    r"(?i)\s(?:in|throughout|from|anywhere|within|at|for|when|while|because|cannot|can't|should|must|are|is|will|"
    r"may|to|anymore|again)\b|[.;!?\n]|\s-\s|$"
)
_NOT_KEYWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "any",
        "some",
        "other",
        "more",
        "following",
        "these",
        "those",
        "count",
        "limit",
        "number",
        "before",
        "after",
        "you",
        "your",
        "it",
        "in",
        "of",
        "or",
        "and",
        "characters",
        "should",
        "must",
        "will",
        "can",
        "be",
    ]
)


def _items_after(text: str, start: int, sentence_end: int) -> list[str]:
    """Quoted items after ``start`` in the sentence, else an unquoted list up to a stop word."""
    rest = text[start:sentence_end]
    clause = re.split(r"(?i),?\s+but\s+|;|\s+-\s+|\.\s", rest, maxsplit=1)[0]
    if re.match(r"\s*:?\s*[\"“'‘\[]", rest):
        rest = clause
    quoted = quoted_items(rest) if re.match(r"\s*:?\s*[\"“'‘\[]", rest) else []
    if quoted:
        return [q.strip() for q in quoted if q.strip()]
    rest = rest.lstrip(" :").split(")", 1)[0]  # a parenthesis closes the clause ("(... an empty line, no dividers)")
    m = _STOP_AFTER.search(rest)
    chunk = rest[: m.start()] if m else rest
    times = find_times(chunk)
    if times:
        chunk = chunk[: times[0].start]  # "use the word hygge twice": the frequency ends the list
    items: list[str] = []
    for item in split_list(chunk):
        words = item.split()
        if not words:
            continue
        word = words[0]
        if word.lower() in _NOT_KEYWORDS or not re.match(r"^[\w'-]+$", word):
            break
        if len(words) > 1 and word.lower() in stop_words():
            break  # a clause opened by a function word ("words that contain ..."), not a list ("with and without")
        if items and len(words) > 2:  # a clause after the list ("cheap or easy, and keep it short")
            break
        items.append(word if len(words) > 2 else item)
    return items


def _sentence_span(text: str, pos: int) -> tuple[int, int]:
    return sentence_span(text, pos)


def _freq_specs(keyword: str, times: list[CountMatch], negated: bool, phrase: str) -> list[VerifiableSpec]:
    out = []
    for t in times:
        rel, n = t.relation, t.n
        if negated and rel == "at least":
            rel = "less than"
        if rel == "exactly":
            out.append(
                make_spec("keywords:frequency", {"relation": "at least", "keyword": keyword, "frequency": n}, phrase)
            )
            rel, n = "less than", n + 1
        out.append(make_spec("keywords:frequency", {"relation": rel, "keyword": keyword, "frequency": n}, phrase))
    return out


_KW_TRIGGER = re.compile(
    rf"(?i)\b(?:the\s+|these\s+|following\s+|some\s+|negative\s+|any\s+|of\s+)*{_KW_NOUN}\b\s*(?:such\s+as|like|:)?"
)
_INCLUDE_VERB = re.compile(
    r"(?i)\b(?:include|includes|including|contain|contains|containing|use|uses|using|mention|mentions|mentioning|"
    r"has|have|having|with|incorporate|feature|add|put|say|list)\s+(?:\w+\s+){0,2}$"
)


#: Characters read on each side of a keyword noun ("the words ...", "keywords ..."): far more than a request's
#: keyword sentence holds, and what bounds the work on run-on text.
KEYWORD_WINDOW = 400


def detect_keywords(text: str) -> list[VerifiableSpec]:
    """keywords:existence, keywords:frequency and keywords:forbidden_words."""
    specs: list[VerifiableSpec] = []
    seen_spans: list[tuple[int, int]] = []
    for m in _KW_TRIGGER.finditer(text):
        s_start, s_end = _sentence_span(text, m.start())
        # a keyword list and the words that govern it lie near the noun: reading the whole sentence around every
        # keyword noun made a run-on text of n nouns cost n^2 (a 20,000-character run: 15 s)
        s_start, s_end = max(s_start, m.start() - KEYWORD_WINDOW), min(s_end, m.end() + KEYWORD_WINDOW)
        before = text[s_start : m.start()]
        phrase = text[s_start:s_end]
        raw_after = text[m.end() : s_end]
        if re.match(
            r"(?i)\s*(?:in\s+(?:all\s+)?cap|that\s+are|you\s+use|per\s+|long|in\s+your\s+(?:response|answer)\b"
            r"|before|after|should\s+follow)",
            raw_after,
        ) or re.match(
            r"(?i)\s*(?:with|in|written|typed|that|which)\b[^.]{0,30}?\b(?:caps|capital|upper\s*-?case)", raw_after
        ):
            continue  # which words ("words with all capital letters"): a case count's unit, not a keyword list
        if raw_after.startswith(","):
            continue  # a comma after the noun closes it ("with an empty line, no dividers"): no list follows
        items = _items_after(text, m.end(), s_end)
        if not items:
            continue
        if re.search(r"(?i)\blines?\s*$", m.group(0).rstrip(" :")) and not re.match(r"\s*:?\s*[\"“'‘]", raw_after):
            continue  # "lines" is a unit of layout ("blank lines between them"): only quoted lines are listed
        if re.search(
            r"(?i)(?:(?:start|begin|open|kick\s+off|lead\s+off|end|finish|conclude|close|wrap\s+up|sign\s+off)\w*\s+"
            r"(?:[\w-]+\s+){0,4}?with|caps|"
            r"capital\w*|upper\s*case)\s*$",
            before,
        ) or re.search(r"(?i)\bphrase", m.group(0)):
            continue  # the word a part starts or ends with ("Kick off paragraph 3 with the word X"), or a case
        noun = m.group(0).lower()
        listed = m.group(0).rstrip().endswith(":") or re.match(r"\s*[:\"“'‘]", raw_after) is not None
        if "letter" in noun or (_COUNTED.search(before) and not listed):
            continue  # "40 words" is a length; "the two words 'cheap' and 'easy'" still names its words
        # 'any words before ...' is not a keyword list unless quoted words follow.
        if re.search(r"(?i)\bany\s+" + _KW_NOUN + r"\b\s*$", m.group(0)) and not re.match(r"\s*[:\"“']", raw_after):
            continue
        # A frequency stated right after the keyword: 'the word war at least 8 times'.
        window_end = min(s_end, m.end() + 90)
        nxt = _KW_TRIGGER.search(text, m.end() + 1, window_end)
        if nxt is not None and re.search(r"(?i)\b(?:word|term|keyword)", nxt.group(0)):
            window_end = nxt.start()
        times = find_times(text[m.end() : window_end])
        if times:
            times = [t for t in times if t.start == times[0].start]
        clause_before = re.split(r"(?i),\s*but\b|\bbut\b|;", before)[-1]
        negated = bool(_NEG.search(clause_before[-70:]))
        if times and len(items) == 1:
            specs.extend(_freq_specs(items[0].lower(), times[:2], negated, phrase))
            seen_spans.append((m.start(), window_end))
            continue
        after_neg = re.match(
            r"(?i)[^.]{0,60}?\b(?:cannot|can't|should\s+not|must\s+not|are\s+not\s+allowed|"
            r"are\s+forbidden|not\s+be\s+used|may\s+not)\b",
            raw_after,
        )
        if negated or after_neg:
            specs.append(
                make_spec(
                    "keywords:forbidden_words", {"forbidden_words": [i.lower() for i in items]}, phrase, negated=True
                )
            )
        elif _INCLUDE_VERB.search(before[-40:]) or re.search(r"(?i)\b(?:include|contain|use|mention)", before):
            specs.append(make_spec("keywords:existence", {"keywords": [i.lower() for i in items]}, phrase))
        seen_spans.append((m.start(), s_end))
    # 'Do not use "heute"' / 'avoid mentioning "photography"': a negated verb applied to quoted words.
    for m in re.finditer(
        r"(?i)\b(?:do\s+not|don't|never|avoid|without|exclude)\s+(?:using\s+|use\s+|mention(?:ing)?\s+|"
        r"say(?:ing)?\s+|includ(?:e|ing)\s+|writ(?:e|ing)\s+)?(?=[\"“'])",
        text,
    ):
        if any(s <= m.start() < e for s, e in seen_spans):
            continue
        s_start, s_end = _sentence_span(text, m.start())
        items = quoted_items(text[m.end() : s_end])
        if items and all(len(i.split()) <= 3 for i in items):
            specs.append(
                make_spec(
                    "keywords:forbidden_words",
                    {"forbidden_words": [i.lower() for i in items]},
                    text[s_start:s_end],
                    negated=True,
                )
            )
    return specs


_LETTER = re.compile(r"(?i)\bletter\s+[\"'“‘]?(?P<l>[a-z])[\"'”’]?(?=[\s,.;:!?)]|$)")
_SYMBOL = re.compile(
    r"(?i)\b(?P<what>exclamation\s+marks?|question\s+marks?|hashtags?|hash\s+signs?|asterisks?)"
    r"(?:\s*[\"'(“]+(?P<sym>[!?#*])[\"')”]+)?"
)
_SYMBOL_CHAR = {"exclamation": "!", "question": "?", "hash": "#", "asterisk": "*"}
_MARKS = count_unit(r"(?:exclamation|question|hash|asterisk|hashtag)\w*")


def detect_letters(text: str) -> list[VerifiableSpec]:
    """keywords:letter_frequency: 'the letter t should appear at most once', '6 or more exclamation marks'."""
    specs: list[VerifiableSpec] = []
    for m in _LETTER.finditer(text):
        s_start, s_end = _sentence_span(text, m.start())
        phrase = text[s_start:s_end]
        before = text[s_start : m.start()]
        after = text[m.end() : s_end]
        times = find_times(after[:80]) or find_times(before[-60:])
        negated = bool(_NEG.search(before[-50:]))
        letter = m.group("l").lower()
        if not times:
            if negated:
                times = [CountMatch("less than", 1, 0, 0)]
            else:
                continue
        for t in times[:2]:
            rel, n = t.relation, t.n
            if negated and rel == "at least":
                rel = "less than"
            if rel == "exactly":
                specs.append(
                    make_spec(
                        "keywords:letter_frequency",
                        {"let_relation": "at least", "letter": letter, "let_frequency": n},
                        phrase,
                    )
                )
                rel, n = "less than", n + 1
            specs.append(
                make_spec(
                    "keywords:letter_frequency", {"let_relation": rel, "letter": letter, "let_frequency": n}, phrase
                )
            )
    for m in _SYMBOL.finditer(text):
        s_start, s_end = _sentence_span(text, m.start())
        counts = find_counts(text[s_start : m.end()], _MARKS)
        if not counts:
            continue
        key = m.group("what").split()[0].lower().rstrip("s")
        sym = m.group("sym") or _SYMBOL_CHAR.get(key.removesuffix("tag"), "")
        if not sym or (sym == "*" and "asterisk" in key and re.search(r"\*{3,}", text[s_start:s_end])):
            continue
        c = counts[-1]
        specs.append(
            make_spec(
                "keywords:letter_frequency",
                {
                    "let_relation": c.relation if c.relation != "exactly" else "at least",
                    "letter": sym,
                    "let_frequency": c.n,
                },
                text[s_start:s_end],
            )
        )
    return specs


_LANG_ALIASES = {"farsi": "fa", "bangla": "bn", "mandarin": "zh", "brazilian portuguese": "pt", "tagalog": "tl"}
_LANG_BY_NAME = {name.lower(): code for code, name in LANGUAGE_NAMES.items()} | _LANG_ALIASES
_LANG_RE = re.compile(r"(?i)\b(" + "|".join(sorted(_LANG_BY_NAME, key=len, reverse=True)) + r")\b")
_LANG_CUE = re.compile(
    r"(?i)\b(?:only|entirely|completely|solely|exclusively|wholly|fully|no\s+other\s+language|language|"
    r"entire\s+(?:response|answer|output)|whole\s+(?:response|answer)|respond|reply|answer\s+in|written\s+in|"
    r"response\s+(?:should|must)\s+be\s+in|throughout)\b"
)


def detect_language(text: str, *, english_case: bool = False) -> list[VerifiableSpec]:
    """language:response_language: 'use only Hindi, no other language is allowed'."""
    specs: list[VerifiableSpec] = []
    done: set[str] = set()
    for m in _LANG_RE.finditer(text):
        code = _LANG_BY_NAME[m.group(1).lower()]
        if code in done or (code == "en" and english_case):
            continue
        s_start, s_end = _sentence_span(text, m.start())
        sent = text[s_start:s_end]
        before = text[max(s_start, m.start() - 60) : m.start()]
        after = text[m.end() : min(s_end, m.end() + 40)]
        if re.search(r"(?i)\b(?:of|about|from|into)\s+(?:the\s+)?$", before):
            continue
        if (
            not re.search(r"(?i)\b(?:in|using|use|only|speak|write|written|entirely)\s+(?:the\s+|only\s+)?$", before)
            and not re.match(r"(?i)\s+language", after)
            and not re.search(r"(?i)\bonly\s+(?:use\s+)?$", before)
        ):
            continue
        if not _LANG_CUE.search(sent):
            continue
        if re.search(r"(?i)\b(?:translat\w*|from)\s+(?:\w+\s+){0,3}$", before):
            continue
        done.add(code)
        specs.append(make_spec("language:response_language", {"language": code}, sent))
    return specs


_WORD_UNIT = count_unit(r"words?")
_SENTENCES = count_unit(r"sentences?")


def _split_exact(verifier: str, count: CountMatch, key: str, rel_key: str, phrase: str) -> list[VerifiableSpec]:
    if count.relation == "exactly":
        return [
            make_spec(verifier, {rel_key: "at least", key: count.n}, phrase),
            make_spec(verifier, {rel_key: "less than", key: count.n + 1}, phrase),
        ]
    return [make_spec(verifier, {rel_key: count.relation, key: count.n}, phrase)]


def detect_length(text: str) -> list[VerifiableSpec]:
    """length_constraints:number_words and number_sentences."""
    specs: list[VerifiableSpec] = []
    for c in find_counts(text, _WORD_UNIT):
        tail = text[c.end : c.end + 50]
        head_at = max(0, c.start - 25)
        head = text[head_at : c.end]
        if any(c.start <= m.start() <= c.end for m in _CAP_WORDS.finditer(text, head_at, c.end + 50)):
            continue  # "at least 6 words in full caps", "3 all-caps words": capital words, counted by their check
        if re.match(r"(?i)\s*(?:per|in\s+each|for\s+each|on\s+each|each|a\s+line|in\s+every|every)\b", tail):
            continue
        if (
            re.match(r"(?i)\s*(?:title|name|slogan|tagline|summary|sentence|line|phrase|headline)\b", tail)
            and c.relation == "at least"
            and re.search(r"(?i)\b(?:a|an|the)\s+\d+\s*-\s*words?$", head)
        ):
            continue
        phrase = sentence_at(text, c.start, c.end)
        lead = text[max(0, text.rfind(phrase[:20], 0, c.start + 1)) : c.start] if phrase else ""
        if re.search(
            r"(?i)\b(?:each|every|per)\s+(?:single\s+)?(?:line|sentence|paragraph|stanza|verse|bullet|item)", lead
        ):
            continue
        specs.extend(_split_exact("length_constraints:number_words", c, "num_words", "relation", phrase))
    for c in find_counts(text, _SENTENCES):
        tail = text[c.end : c.end + 30]
        if re.match(r"(?i)\s*(?:per|in\s+each|for\s+each|each)\b", tail):
            continue
        phrase = sentence_at(text, c.start, c.end)
        lead = text[max(0, text.rfind(phrase[:20], 0, c.start + 1)) : c.start] if phrase else ""
        if re.search(r"(?i)\b(?:each|every|per)\s+(?:single\s+)?(?:line|paragraph|stanza|verse|bullet|item)", lead):
            continue
        specs.extend(_split_exact("length_constraints:number_sentences", c, "num_sentences", "relation", phrase))
    return specs


_LOWER = re.compile(
    r"(?i)\blower\s*-?\s*case(?:d)?\b|\blowercased\b|\bno\s+capital\s+letters\b|\bnot\s+(?:contain|include|use|have)\s+"
    r"any\s+capital\s+letters|\bwithout\s+(?:any\s+|using\s+(?:any\s+)?)?capital(?:\s+letters|s)\b|"
    r"\bno\s+capitali[sz]ation\b|\bno\s+(?:uppercase|upper\s+case)\b|"
    # "no capitals at all", "no caps pls", "don't use capitals" (not "no capitals of Europe", "no caps on spending",
    # "don't use all caps"): fixtures in tests/verifiers/test_case_paraphrases.py
    r"(?:\bno|\b(?:don't|do\s+not|never)\s+use(?:\s+any)?)\s+(?:capitals|caps)\b(?!\s+(?:of|on|for|in)\b)"
)
_UPPER = re.compile(
    r"(?i)\ball\s+capital\s+letters\b|\ball\s+caps\b|\ball-caps\b|\bin\s+caps\b|\ball\s+upper\s*-?case\b|"
    r"\bupper\s*-?case\b|"
    r"\bcapital\s+letters\s+only\b|\bonly\s+(?:use\s+|using\s+|in\s+)?capital\s+letters\b|\bcapitali[sz]ed\b|"
    r"\ball\s+capitals\b|\bcapital\s+letters\b"
)
#: "full caps", "block capitals", "fully capitalized" say what "all caps" says (fixtures: tests/verifiers/
#: test_case_paraphrases.py).
_CAP_WORDS = re.compile(
    r"(?i)(?<!-)\bwords?\s+(?:\w+\s+){0,2}?(?:in\s+(?:all|full|block)\s+(?:caps|capital)|with\s+all\s+capital|in\s+capital|"
    r"(?:that\s+are\s+)?(?:all\s+|fully\s+)?capitali[sz]ed|in\s+upper\s*case)|"
    r"\b(?:all-caps|all\s+caps|full-caps|full\s+caps|capitali[sz]ed|uppercase|capital)\s+words\b"
)


#: The other case named beside lower case: "alternates between lower case and upper case", "a mix of upper and
#: lower case" describe mixed case, not an all-lowercase answer; negated before or after ("no upper case",
#: "capital letters are not allowed") it restates the lowercase rule. Only a case is named: "the capital of
#: France", "venture capital", "the Upper West Side" are not (negation as in the capital check below).
_CAPITAL_WORDS = count_unit(r"(?:such\s+)?(?:capitali[sz]ed\s+|all-caps\s+|all\s+caps\s+)?words?")
_OF_THEM = count_unit(r"of\s+them")
_OTHER_CASE = re.compile(r"(?i)\b(?:upper\s*-?\s*case|upper\s+and\s+lower|capital\s+letters?|capitali[sz]ed|caps)\b")
_NEGATED_BEFORE = re.compile(r"(?i)(?:\b(?:no|not|without|avoid|never|any|zero)\b|n't)[^.]{0,30}$")
_NEGATED_AFTER = re.compile(r"(?i)^[^.]{0,20}?\b(?:not|never|forbidden|banned)\b")


def _mixed_case(sentence: str) -> bool:
    """Whether a sentence that names lower case also names upper case as wanted (mixed case, not one case)."""
    return any(
        _NEGATED_BEFORE.search(sentence[max(0, m.start() - 40) : m.start()]) is None
        and _NEGATED_AFTER.search(sentence[m.end() : m.end() + 40]) is None
        for m in _OTHER_CASE.finditer(sentence)
    )


def _mentioned(text: str, m: re.Match[str]) -> bool:
    """Whether the matched words stand in quotes of their own inside a question ("Is it 'lowercase' or 'lower
    case'?"): a word talked about, not a form asked for."""
    opening = re.search(r"[\"“‘']\s*[^\"'“”‘’\n]{0,20}$", text[: m.start()])
    return bool(
        opening
        and re.match(r"[^\"'“”‘’\n]{0,20}[\"”’']", text[m.end() :])
        and not re.search(r"\w['’]\w*\s*[^\"'“”‘’\n]{0,20}$", text[: m.start()])
        # a question about the words ("Is it 'lowercase' or ...?"); "Respond in 'all lowercase'" asks for the form
        and sentence_at(text, m.start()).rstrip().endswith("?")
        and not re.search(r"(?i)\b(?:in|using|with|use)\s*$", text[: opening.start()])
    )


#: Characters read on each side of a capital-words phrase for its count: a request's sentence is shorter; a run-on
#: text of such phrases was read whole for each one (30k characters: 15 s).
CAPS_WINDOW = 300


def detect_case(text: str) -> list[VerifiableSpec]:
    """change_case:english_lowercase, english_capital and capital_word_frequency."""
    specs: list[VerifiableSpec] = []
    cap_word_sents: set[str] = set()
    for m in _CAP_WORDS.finditer(text):
        s_start, s_end = _sentence_span(text, m.start())
        # a run-on sentence: the count of these words stands near them (bounded work, as KEYWORD_WINDOW)
        whole_end = s_end
        s_start, s_end = max(s_start, m.start() - CAPS_WINDOW), min(s_end, m.end() + CAPS_WINDOW)
        # the count may sit in this sentence or the next one ('In particular, there should be 5 to 10 such ...'),
        # not in an ask before it in the sentence ("Keep it under 100 words, and use all-caps words sparingly")
        joins = list(re.finditer(r"(?i),\s*(?:and|but)\b|;", text[s_start : m.start()]))
        c_start = s_start + joins[-1].end() if joins else s_start
        later = re.search(r"(?i),\s*(?:and|but)\b|;", text[m.end() : s_end])
        if later and re.search(r"(?i)\bof\s+(?:them|these|those)\b", text[m.end() : s_end]):
            later = None  # "..., but fewer than 3 of them": the later clause counts these words
        c_end = m.end() + later.start() if later else s_end
        nxt_end = s_end
        if s_end == whole_end and s_end + 1 < len(text):
            nxt_end = min(_sentence_span(text, s_end + 1)[1], s_end + 2 * CAPS_WINDOW)
        # the count in the words' own clause, else (none there) the next sentence's ("... there should be 5 such")
        region = text[c_start:c_end]
        if not re.search(r"\d|\b(?:once|twice|thrice)\b", region) and later is None:
            region = text[c_start:nxt_end]
        counts = (
            find_counts(region, _CAPITAL_WORDS) + find_times(region)
            or find_counts(region, _OF_THEM)  # "capitalized words ..., but fewer than 4 of them"
        )
        phrase = text[s_start:s_end]
        cap_word_sents.add(phrase)
        seen: set[tuple[str, int]] = set()
        for c in counts:
            for spec in _split_exact(
                "change_case:capital_word_frequency", c, "capital_frequency", "capital_relation", phrase
            ):
                key = (spec.params["capital_relation"], spec.params["capital_frequency"])
                if key not in seen:
                    seen.add(key)
                    specs.append(spec)
        if re.search(r"(?i)\b(?:some|a\s+few|several)\s+words\b", region) and ("at least", 1) not in seen:
            specs.append(
                make_spec(
                    "change_case:capital_word_frequency",
                    {"capital_relation": "at least", "capital_frequency": 1},
                    phrase,
                )
            )
    lowers = [(m, _mixed_case(sentence_at(text, m.start()))) for m in _LOWER.finditer(text) if not _mentioned(text, m)]
    lower = next((m for m, mixed in lowers if not mixed), None)
    if lower:
        specs.append(make_spec("change_case:english_lowercase", {}, sentence_at(text, lower.start())))
    elif not any(mixed for _, mixed in lowers):
        for m in _UPPER.finditer(text):
            if _mentioned(text, m):
                continue
            sent = sentence_at(text, m.start())
            if sent in cap_word_sents or re.search(
                r"(?i)(?:\b(?:no|not|never|without|avoid)\b|n't)[^.]{0,30}$", text[max(0, m.start() - 40) : m.start()]
            ):
                continue
            if not re.search(
                r"(?i)\b(?:entire|whole|all|only|response|answer|output|letters|everything|summary)\b"
                r"|\bevery\s+(?:single\s+)?letter\b(?!\s+of\s+the\s+alphabet)",
                sent,
            ):
                continue
            if _caps_of_a_part(text, m):
                continue
            specs.append(make_spec("change_case:english_capital", {}, sent))
            break
    return specs


def _caps_of_a_part(text: str, m: re.Match[str]) -> bool:
    """Whether capitals are asked of a part or told of something else, not of the whole text: "in all caps" hangs
    on a verb whose object or subject is an uncounted noun WordNet does not file as a text ("put key skills in all
    caps", "the strings come in all caps"; "write your answer in all caps" stays). Paraphrase study #6."""
    from faithguard.lexical.senses import lexfile_share
    from faithguard.nlp import parse
    from faithguard.verifiers.detect_keyword_cues import TEXT_NOUN_SHARE

    span = parse(text).char_span(m.start(), m.end(), alignment_mode="expand")
    if span is None:
        return False
    root = span.root
    if root.dep_ != "pobj" or root.head.lower_ not in ("in", "with"):
        return False
    prep = root.head
    if prep.i > 0 and prep.doc[prep.i - 1].lower_ in ("all", "both", "each", ","):
        # "five bullets, all in capital letters": a floating quantifier takes in every unit; "..., in all caps"
        # set off by a comma is an afterthought about the whole, wherever the parser hangs it
        return False
    attach = prep.head

    def part(tok: Any) -> bool:  # a counted unit ("five bullets in caps") makes up the whole text
        counted = any(c.dep_ == "nummod" for c in tok.children)
        return tok.pos_ == "NOUN" and not counted and lexfile_share(tok.lemma_.lower()) < TEXT_NOUN_SHARE

    if attach.pos_ not in ("VERB", "AUX"):
        return False  # the parser hangs the phrase on the nearest noun ("an ad for a gym in all caps")
    return any(c.dep_ in ("dobj", "nsubj", "nsubjpass") and part(c) for c in attach.children)


_COMMA = re.compile(r"(?i)\bcommas?\b|\bcomma-free\b")


_DETERMINERS = frozenset({"the", "all", "any", "every", "those", "these", "of", "your", "my"})


def _omits(clause_before: str) -> bool:
    """Whether the verb right before a mark (past determiners) leaves it out, read through WordNet's roots of
    omission ("skip commas", "leave out the commas", "ditch all commas"): lexical.wordnet_verbs.OMISSION_ROOTS."""
    from faithguard.lexical import wordnet_verbs

    words = [w.lower() for w in re.findall(r"[A-Za-z]+", clause_before)]
    while words and words[-1] in _DETERMINERS:
        words.pop()
    if not words:
        return False
    verb = words[-1]
    if len(words) >= 2 and wordnet_verbs.knows_verb(wordnet_verbs.phrasal(words[-2], words[-1])):
        verb = wordnet_verbs.phrasal(words[-2], words[-1])  # "leave out"
    return bool(wordnet_verbs.verb_sense_under(verb, wordnet_verbs.OMISSION_ROOTS))


def detect_no_comma(text: str) -> list[VerifiableSpec]:
    """punctuation:no_comma: 'do not use any commas', 'commas are not allowed'."""
    for m in _COMMA.finditer(text):
        s_start, s_end = _sentence_span(text, m.start())
        before = text[max(s_start, m.start() - 60) : m.start()]
        # "separated by" only in the word's own clause: "... separated by asterisks, and don't use commas" is two asks
        clause_before = re.split(r"(?i),\s*(?:and|but)\b|;", before)[-1]
        after = text[m.end() : min(s_end, m.end() + 40)]
        if (
            m.group(0).lower() == "comma-free"
            or _NEG.search(before)
            or _omits(clause_before)
            or re.search(r"(?i)\b(?:zero|0)\s+$", before)  # "with zero commas": a count of none
            or re.match(r"(?i)\s+(?:are|is)\s+(?:not\s+allowed|forbidden|prohibited|banned)", after)
        ):
            if re.search(r"(?i)\b(?:separated|separate)\s+by\b", clause_before):
                continue
            return [make_spec("punctuation:no_comma", {}, text[s_start:s_end], negated=True)]
    return []
