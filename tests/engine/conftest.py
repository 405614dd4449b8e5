"""Make the golden helper importable from the engine tests."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


import pytest


@pytest.fixture(scope="session", autouse=True)
def _wordnet_loaded() -> None:
    """Load WordNet once before any engine test, as ``Guard.warmup`` does, so no check pays for it."""
    from faithguard.lexical import wordnet

    wordnet.available()


@pytest.fixture(scope="session", autouse=True)
def _language_id_loaded() -> None:
    """Load the language identifier once, as ``Guard.warmup`` does."""
    from faithguard.engine.content import load_language_id

    load_language_id()
