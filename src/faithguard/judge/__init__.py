"""The optional LLM judge: OpenAI-compatible client, prompts, Judge, LangChain adapter.

The guard calls :func:`resolve_judge` once at construction; ``None`` means the
judge is off and faithguard stays fully offline.
"""

from __future__ import annotations

from typing import Any

from faithguard.errors import ConfigError, shown
from faithguard.judge.config import JudgeConfig
from faithguard.judge.judge import Judge, JudgeBudgetExceeded, JudgeSkipped, Precheck, SatisfyVerdict, TermLabel
from faithguard.judge.prompts import PROMPT_VERSION

__all__ = [
    "PROMPT_VERSION",
    "Judge",
    "JudgeBudgetExceeded",
    "JudgeConfig",
    "JudgeSkipped",
    "Precheck",
    "SatisfyVerdict",
    "TermLabel",
    "resolve_judge",
]


def resolve_judge(spec: Any, *, tracer: Any = None) -> Judge | None:
    """Build the judge from ``spec``: None/"off", "env", a JudgeConfig, a Judge, or a LangChain chat model.

    ``"env"`` reads FAITHGUARD_JUDGE_* and gives None when base URL or model is unset.
    ``tracer`` (an OpenTelemetry Tracer or TracerProvider) receives the ``chat {model}`` spans.
    """
    if spec is None or spec is False or spec == "off":
        return None
    if isinstance(spec, Judge):
        return spec
    if isinstance(spec, str):
        if spec != "env":
            raise ConfigError(
                f"unknown judge spec {shown(spec)}: use None, 'off', 'env', a JudgeConfig or a chat model"
            )
        config = JudgeConfig.from_env()
        return Judge.from_config(config, tracer=tracer) if config is not None else None
    if isinstance(spec, JudgeConfig):
        return Judge.from_config(spec, tracer=tracer)
    if callable(getattr(spec, "invoke", None)):
        return Judge.from_langchain(spec, tracer=tracer)
    raise ConfigError(f"cannot build a judge from {type(spec).__name__}")
