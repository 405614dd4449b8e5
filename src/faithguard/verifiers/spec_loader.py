"""One loader for the declarative detection specs in ``faithguard/verifiers/data/*.json``.

A spec file holds ``macros`` (named regex fragments, written ``<NAME>`` in patterns) and ``specs``. Each
spec has an ``id``, the ``verifier`` it yields, a one-line ``why`` (its provenance), a ``gate`` (cheap
lower-case substrings, one of which must occur before the pattern is compiled and tried), a ``pattern``,
static ``params``, ``groups`` (regex group -> ``[param, type]``) and its own ``positive`` /
``negative`` fixtures, run by one parametrised test. Group types:

- ``int``: a cardinal in digits or words; ``ordinal``: "second" / "2nd" / "2" -> 2, "last" -> -1;
- ``unit``: a unit noun, singular ("stanzas" -> "stanza", "bullet points" -> "bullet");
- ``value``: a quoted or bare string, quotes and edge punctuation removed; ``text``: stripped as is;
- ``verb``: start/begin -> ``starts_with``, end/finish/close/conclude -> ``ends_with``;
- ``language``: a language name (``<LANG>``) -> its ISO 639-1 code;
- ``rel``: a relation phrase ("at least", "no more than") applied to the spec's ``number`` param,
  stored under ``relation_param`` (default ``relation``) in IFEval's vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from faithguard.lexical.langid import LANGUAGE_NAMES
from faithguard.specfiles import read_spec_file
from faithguard.verifiers.spec import REL, VerifiableSpec, make_spec, relation_of, sentence_at, split_list
from faithguard.verifiers.text import NUMBER_RE, ORDINAL_RE, parse_number

__all__ = ["DetectionSpec", "load_specs", "run_specs"]

_BUILTIN_MACROS = {
    "NUM": NUMBER_RE,
    "ORD": ORDINAL_RE,
    "REL": REL.replace("(?P<rel>", "(?:"),
    "LANG": "(?:" + "|".join(sorted(LANGUAGE_NAMES.values(), key=len, reverse=True)) + ")",
}
_LANG_CODES = {name.lower(): code for code, name in LANGUAGE_NAMES.items()}
_MACRO = re.compile(r"<([A-Z][A-Z0-9_]*)>")


@dataclass(frozen=True)
class DetectionSpec:
    """One compiled declarative spec."""

    id: str
    verifier: str
    why: str
    pattern: str
    params: dict[str, Any] = field(default_factory=dict)
    groups: dict[str, tuple[str, str]] = field(default_factory=dict)
    number: str | None = None
    relation_param: str = "relation"
    post: str | None = None
    positive: tuple[tuple[str, dict[str, Any]], ...] = ()
    negative: tuple[str, ...] = ()
    #: Lower-case substrings of which the request must hold one for the pattern to be tried at all.
    gate: tuple[str, ...] = ()

    @property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern (compiled on first use: most requests never pass most gates)."""
        return _compile(self.pattern)


@cache
def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _expand(pattern: str, macros: dict[str, str]) -> str:
    for _ in range(5):  # macros may use macros
        new = _MACRO.sub(lambda m: macros.get(m.group(1), m.group(0)), pattern)
        if new == pattern:
            break
        pattern = new
    return pattern


@cache
def load_specs(name: str) -> tuple[DetectionSpec, ...]:
    """The compiled specs of ``data/{name}.json`` (cached)."""
    # the one reader (read once) refuses a spec without its fixtures
    raw, specs = read_spec_file("faithguard.verifiers", f"data/{name}.json")
    macros = dict(_BUILTIN_MACROS)
    for key, value in raw.get("macros", {}).items():
        macros[key] = _expand(value, macros)
    out = []
    for s in specs:
        out.append(
            DetectionSpec(
                id=s["id"],
                verifier=s["verifier"],
                why=s["why"],
                pattern=_expand(s["pattern"], macros),
                params=dict(s.get("params", {})),
                groups={k: (v[0], v[1]) for k, v in s.get("groups", {}).items()},
                number=s.get("number"),
                relation_param=s.get("relation_param", "relation"),
                post=s.get("post"),
                positive=tuple((p["text"], dict(p["params"])) for p in s.get("positive", [])),
                negative=tuple(s.get("negative", [])),
                gate=tuple(g.lower() for g in s.get("gate", [])),
            )
        )
    return tuple(out)


#: The spec files :func:`load_specs` reads.
SPEC_FILES = ("ifeval", "ifbench", "per_unit")


def spec_examples() -> tuple[str, ...]:
    """The positive fixture texts of every spec file (warm-up runs detection over them)."""
    return tuple(text for name in SPEC_FILES for spec in load_specs(name) for text, _ in spec.positive)


_UNIT_NOUNS = {
    "verse": "stanza",
    "bullet point": "bullet",
    "bulletpoint": "bullet",
    "point": "bullet",
    "character": "letter",
}


def _unit(text: str) -> str:
    t = re.sub(r"\s+", " ", text.strip().lower())
    t = re.sub(r"s$", "", t) if not t.endswith("ss") else t
    t = re.sub(r"bullet points?$", "bullet point", t)
    return _UNIT_NOUNS.get(t, t)


def _ordinal(text: str) -> int | None:
    t = text.strip().lower()
    if t in ("last", "final"):
        return -1
    return parse_number(t)


def _value(text: str) -> str:
    return text.strip().strip("\"'“”‘’`").strip().rstrip(".,;:!?").strip()


def _verb(text: str) -> str:
    return "starts_with" if re.match(r"(?i)(?:start|begin|open)", text.strip()) else "ends_with"


_CONVERT: dict[str, Callable[[str], Any]] = {
    "int": parse_number,
    "ordinal": _ordinal,
    "unit": _unit,
    "value": _value,
    "text": str.strip,
    "verb": _verb,
    "lower": lambda s: s.strip().lower(),
    "language": lambda s: _LANG_CODES.get(s.strip().lower()),
    "list": lambda s: [x for x in (_value(v) for v in split_list(s)) if x] or None,
}


def _post_per_unit(params: dict[str, Any]) -> dict[str, Any] | None:
    """Per-unit specs: infer ``kind`` from the value, drop a unit measured in itself."""
    if params.get("relation") != "count":
        value = params.get("value")
        if not isinstance(value, str) or not value:
            return None
        if "kind" not in params:
            params["kind"] = "letter" if len(value) == 1 else "phrase" if " " in value else "word"
        elif params["kind"] == "word" and " " in value:
            params["kind"] = "phrase"
    elif params.get("of") == params.get("unit"):
        return None
    if params.get("scope") != "each" and "index" not in params:
        params["scope"] = "each"
    return params


def _post_upper_bound(params: dict[str, Any]) -> dict[str, Any]:
    """'At most N' in IFEval's vocabulary is 'less than N + 1' (IFEval has no 'at most')."""
    return {k: v + 1 if k.startswith("num_") and isinstance(v, int) else v for k, v in params.items()}


_POST: dict[str, Callable[[dict[str, Any]], dict[str, Any] | None]] = {
    "per_unit": _post_per_unit,
    "upper_bound": _post_upper_bound,
}


def _params(spec: DetectionSpec, m: re.Match[str]) -> dict[str, Any] | None:
    params: dict[str, Any] = dict(spec.params)
    rel: str | None = None
    for group, (name, kind) in spec.groups.items():
        got = m.groupdict().get(group)
        if got is not None and kind == "rel":  # a stated relation overrides the spec's default one
            rel = got
            continue
        if got is None or name in params:
            continue
        value = _CONVERT[kind](got)
        if value is None or value == "":
            return None
        params[name] = value
    if spec.number is not None:
        n = params.get(spec.number)
        if not isinstance(n, int):
            return None
        if rel is not None:
            mapped = relation_of(rel, n)
            if mapped is None:
                return None
            params[spec.relation_param], params[spec.number] = mapped
        elif spec.relation_param not in params:
            params[spec.relation_param] = "exactly"
    if spec.post in _POST:  # other posts (``context:...``) are applied by the caller, which sees the request
        return _POST[spec.post](params)
    return params


def matches(spec: DetectionSpec, text: str, low: str | None = None) -> Iterator[tuple[re.Match[str], dict[str, Any]]]:
    """Every match of ``spec`` in ``text`` with its parameters (``low``: ``text.lower()``, when the caller has it)."""
    if spec.gate:
        if low is None:
            low = text.lower()
        if not any(g in low for g in spec.gate):
            return
    for m in spec.regex.finditer(text):
        params = _params(spec, m)
        if params is not None:
            yield m, params


def run_specs(name: str, text: str) -> list[tuple[VerifiableSpec, tuple[int, int], DetectionSpec]]:
    """Specs found in ``text`` by the spec file ``name``, each with its match span and its spec."""
    out: list[tuple[VerifiableSpec, tuple[int, int], DetectionSpec]] = []
    seen: set[tuple[str, str]] = set()
    low = text.lower()  # once for every spec's gate
    for spec in load_specs(name):
        for m, params in matches(spec, text, low):
            key = (spec.verifier, repr(sorted(params.items())))
            if key in seen:
                continue
            seen.add(key)
            out.append((make_spec(spec.verifier, params, sentence_at(text, m.start(), m.end())), m.span(), spec))
    return out


def fixture_problem(path: str, spec_id: str, fixture: Any, positive: bool) -> str | None:
    """One fixture of a ``data/*.json`` detection spec file: a positive one is found with its ``params``, a
    negative one not at all (run by ``tests/test_spec_fixtures.py``)."""
    name = path.rsplit("/", 1)[-1].removesuffix(".json")
    spec = next((s for s in load_specs(name) if s.id == spec_id), None)
    if spec is None:
        return f"no spec {spec_id!r} in {path}"
    if positive:
        got = [p for _, p in matches(spec, str(fixture["text"]))]
        return None if dict(fixture["params"]) in got else f"{spec_id}: {fixture['text']!r} gave {got}"
    got = [p for _, p in matches(spec, str(fixture))]
    return None if not got else f"{spec_id} matched the negative {fixture!r}: {got}"
