"""Integrations: LangChain (chains and agents), the OpenAI SDK, a guarding proxy, Prometheus
metrics, OTLP export and Phoenix evaluations.

Each submodule imports its third-party library itself, so importing this package
costs nothing; install the matching extra (``faithguard[langchain]``, ``faithguard[agents]``,
``faithguard[openai]``, ``faithguard[proxy]``, ``faithguard[prometheus]``, ``faithguard[otlp]``).
"""

from __future__ import annotations

from faithguard.integrations.session import GuardedCall, Outcome, report_summary

__all__ = ["GuardedCall", "Outcome", "report_summary"]
