"""Term checks: unknown terms in a request, fabricated terms in a response (HypoTermQA)."""

from __future__ import annotations

from faithguard.terms.acceptance import classify_acceptance, classify_terms, find_mentions
from faithguard.terms.detectors import FabricatedTermsDetector, UnknownTermsDetector, resolve_term
from faithguard.terms.extract import Candidate, extract_candidates
from faithguard.terms.kbindex import TermIndex, build_index
from faithguard.terms.labels import answer_label, meaning_check, term_label
from faithguard.terms.normalize import contains_term, normalize
from faithguard.terms.sources import ContextSource, GlossarySource, IndexSource, LexiconSource, default_sources

__all__ = [
    "Candidate",
    "ContextSource",
    "FabricatedTermsDetector",
    "GlossarySource",
    "IndexSource",
    "LexiconSource",
    "TermIndex",
    "UnknownTermsDetector",
    "answer_label",
    "build_index",
    "classify_acceptance",
    "classify_terms",
    "contains_term",
    "default_sources",
    "extract_candidates",
    "find_mentions",
    "meaning_check",
    "normalize",
    "resolve_term",
    "term_label",
]
