"""Integrations: LangChain, the OpenAI SDK, a guarding proxy, Prometheus metrics.

Each submodule imports its third-party library itself, so importing this package
costs nothing; install the matching extra (``faithguard[langchain]``,
``faithguard[openai]``, ``faithguard[proxy]``, ``faithguard[prometheus]``).
"""

from __future__ import annotations

from faithguard.integrations.session import GuardedCall, Outcome, report_summary

__all__ = ["GuardedCall", "Outcome", "report_summary"]
