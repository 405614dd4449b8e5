"""Built-in plugin: term knowledge sources, the unknown/fabricated term detectors, ``kb`` commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from faithguard.detector import Detector, KnowledgeSource
from faithguard.hookspecs import hookimpl

__all__ = ["register_commands", "register_detectors", "register_knowledge_sources"]


@hookimpl
def register_detectors(register: Callable[[Detector], None]) -> None:
    """Register ``unknown_terms`` (input, 60) and ``fabricated_terms`` (output, 300)."""
    from faithguard.terms.detectors import FabricatedTermsDetector, UnknownTermsDetector

    register(UnknownTermsDetector())
    register(FabricatedTermsDetector())


@hookimpl
def register_knowledge_sources(register: Callable[[KnowledgeSource], None]) -> None:
    """Register context, lexicon, and glossary/index when configured (FAITHGUARD_GLOSSARY, FAITHGUARD_KB_INDEX)."""
    from faithguard.terms.sources import default_sources

    for source in default_sources():
        register(source)


@hookimpl
def register_commands(subparsers: Any) -> None:
    """Add ``faithguard kb build`` and ``faithguard kb lookup``."""
    from faithguard.terms.commands import add_kb_parser

    add_kb_parser(subparsers)
