"""Shared fixtures for the term tests (all data is written here, never read from the eval set)."""

from __future__ import annotations

from pathlib import Path

import pytest

from faithguard.terms.kbindex import build_index

TITLES = [
    "Nanorobotics",
    "Alley-oop (basketball)",
    "Information cascade",
    "Viral_marketing",
    "Calvin cycle",
    "Treaty of Westphalia",
    "Jump, Jive an' Wail",
]


@pytest.fixture
def titles_file(tmp_path: Path) -> Path:
    """A tiny trusted-titles file."""
    path = tmp_path / "titles.txt"
    path.write_text("\n".join(TITLES) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def index_path(tmp_path: Path, titles_file: Path) -> Path:
    """An index built from :func:`titles_file`."""
    out = tmp_path / "kb.idx"
    build_index(titles_file, out)
    return out
