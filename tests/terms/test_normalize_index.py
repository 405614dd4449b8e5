"""Normalisation, the on-disk index and the ``kb`` CLI."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from faithguard.errors import ConfigError
from faithguard.terms.commands import add_kb_parser
from faithguard.terms.kbindex import MAGIC, TermIndex, build_index
from faithguard.terms.normalize import acronym, contains_term, normalize, number_variants


def test_normalize_appendix_k_rules() -> None:
    assert normalize("  Nano-Sync   Fusion_Technology! ") == "nano sync fusion technology"
    assert number_variants("viral video") == ["viral video", "viral videos"]
    assert "nanoparticles" in number_variants("nanoparticle")
    assert "policy" in number_variants("policies")
    assert acronym("Nano-Sync Fusion Technology") == "NSFT"
    assert acronym("Nanorobotics") is None


@pytest.mark.parametrize(
    ("text", "term", "expected"),
    [
        ("We used nano sync fusion technologies here.", "Nano-Sync Fusion Technology", True),
        ("The Alley-oop is spectacular.", "Alley-oop (basketball)", True),
        ("The NSFT approach works.", "Nano-Sync Fusion Technology", True),
        ("Nanotechnology is broad.", "Nano-Sync Fusion Technology", False),
        ("fusion technology alone", "Nano-Sync Fusion Technology", False),
        ("", "x", False),
    ],
)
def test_contains_term(text: str, term: str, expected: bool) -> None:
    assert contains_term(text, term) is expected


def test_index_roundtrip(index_path: Path) -> None:
    with TermIndex(index_path) as index:
        assert index.count >= 7
        for term in ["nanorobotics", "Alley oop", "alley-oop (basketball)", "viral marketing", "Calvin cycles"]:
            assert term in index, term
        for term in ["information cascade flux", "Nano-Sync Fusion Technology", "", "treaty"]:
            assert term not in index, term
        assert 42 not in index


def test_index_from_iterable_and_duplicates(tmp_path: Path) -> None:
    stats = build_index(["Alpha", "alpha", "Beta (letter)"], tmp_path / "i.idx")
    assert stats.titles == 3
    assert stats.keys == 3  # alpha, beta letter, beta
    with TermIndex(tmp_path / "i.idx") as index:
        assert "ALPHA" in index and "beta" in index and "gamma" not in index


def test_empty_titles_builds_empty_index(tmp_path: Path) -> None:
    stats = build_index([], tmp_path / "e.idx")
    assert stats.keys == 0
    with TermIndex(tmp_path / "e.idx") as index:
        assert "anything" not in index


def test_bad_index_file_is_config_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.idx"
    bad.write_bytes(MAGIC + b"\x00" * 3)
    with pytest.raises(ConfigError):
        TermIndex(bad)
    with pytest.raises(ConfigError):
        TermIndex(tmp_path / "missing.idx")
    empty = tmp_path / "empty.idx"
    empty.write_bytes(b"")
    with pytest.raises(ConfigError):
        TermIndex(empty)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="faithguard")
    add_kb_parser(parser.add_subparsers(dest="command"))
    return parser


def test_cli_kb_build_and_lookup(tmp_path: Path, titles_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli.idx"
    args = _parser().parse_args(["kb", "build", str(titles_file), "--out", str(out)])
    assert args.handler(args) == 0
    assert out.is_file()
    assert "7 titles" in capsys.readouterr().out
    args = _parser().parse_args(["kb", "lookup", "nanorobotics", "--index", str(out)])
    assert args.handler(args) == 0
    args = _parser().parse_args(["kb", "lookup", "nanorobotics", "Quantum Loop Weaving", "--index", str(out)])
    assert args.handler(args) == 1
    assert "unknown\tQuantum Loop Weaving" in capsys.readouterr().out


def test_cli_errors(tmp_path: Path) -> None:
    args = _parser().parse_args(["kb", "build", str(tmp_path / "nope.txt"), "--out", str(tmp_path / "x.idx")])
    assert args.handler(args) == 2
    args = _parser().parse_args(["kb", "lookup", "x", "--index", str(tmp_path / "nope.idx")])
    assert args.handler(args) == 2
