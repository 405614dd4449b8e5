"""Judge settings: endpoint, model, timeouts, retries, budget, self-consistency."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

from faithguard.errors import ConfigError, redact_url

__all__ = ["DEFAULT_KEY_ENV", "FALLBACK_KEY_ENV", "JudgeConfig", "is_secret_header"]

DEFAULT_KEY_ENV = "FAITHGUARD_JUDGE_API_KEY"
FALLBACK_KEY_ENV = "OPENAI_API_KEY"

_SECRET_HEADER_PARTS = ("auth", "key", "token", "secret", "cookie", "password")

#: env var suffix -> JudgeConfig field, for the optional numeric settings.
_ENV_FIELDS: dict[str, str] = {
    "TIMEOUT": "timeout",
    "CALL_BUDGET": "call_budget",
    "STRUCTURED_OUTPUT": "structured_output",
    "QUESTION_MODE": "question_mode",
    "MAX_CALLS_PER_REQUEST": "max_calls_per_request",
    "CONNECT_TIMEOUT": "connect_timeout",
    "MAX_RETRIES": "max_retries",
    "CALLS_PER_MINUTE": "calls_per_minute",
    "SAMPLE_RATE": "sample_rate",
    "MAX_CONCURRENCY": "max_concurrency",
    "SELF_CONSISTENCY": "self_consistency",
    "TEMPERATURE": "temperature",
    "MAX_TOKENS": "max_tokens",
    "PROVIDER": "provider",
}


def _fields(exc: ValidationError) -> str:
    """The names of the fields a validation rejected (never their values)."""
    return ", ".join(dict.fromkeys(str(err["loc"][0]) for err in exc.errors() if err.get("loc"))) or "?"


def is_secret_header(name: str) -> bool:
    """Whether a header's value must be treated as a credential (never logged or shown)."""
    lowered = name.lower()
    return any(part in lowered for part in _SECRET_HEADER_PARTS)


class JudgeConfig(BaseModel):
    """How to reach and use an OpenAI-compatible judge (OpenAI, Ollama, llama-server, vLLM)."""

    # hide_input_in_errors: a rejected value (a key passed under a misspelt name, a URL with credentials) never
    # reaches an error message; allow_inf_nan=False: every time and rate is finite (an infinite budget jams a pool)
    model_config = ConfigDict(extra="forbid", frozen=True, hide_input_in_errors=True, allow_inf_nan=False)

    def __init__(self, **data: Any) -> None:
        """Validate the settings; :class:`~faithguard.ConfigError` naming the rejected fields (never their values)."""
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise ConfigError(f"invalid judge settings: {_fields(exc)}") from exc

    base_url: str = Field(description="API root including the version, e.g. http://localhost:11434/v1")
    model: str = Field(min_length=1)
    api_key_env: str = Field(
        default=DEFAULT_KEY_ENV, description=f"Env var holding the key; {FALLBACK_KEY_ENV} as fallback."
    )
    api_key: SecretStr | None = Field(default=None, description="Explicit key (wins over the env var).")
    headers: dict[str, str] = Field(default_factory=dict, description="Extra HTTP headers.")
    provider: str | None = Field(default=None, description="gen_ai.provider.name; guessed from the URL when None.")
    timeout: float = Field(default=30.0, gt=0, description="Seconds per read/write/pool phase.")
    connect_timeout: float = Field(default=5.0, gt=0)
    max_retries: int = Field(default=2, ge=0, le=10)
    backoff_base: float = Field(default=0.5, ge=0, description="First backoff delay in seconds (doubles, jittered).")
    backoff_max: float = Field(default=8.0, ge=0)
    retry_after_cap: float = Field(
        default=5.0, ge=0, description="Longest Retry-After waited for, seconds; a longer one degrades at once."
    )
    call_budget: float = Field(
        default=15.0,
        gt=0,
        description="Wall-clock seconds for one judge call: every attempt, backoff, Retry-After and format step.",
    )
    structured_output: Literal["auto", "json_schema", "json_object", "prompt"] = Field(
        default="auto", description="How to ask for JSON; 'auto' negotiates per endpoint and remembers."
    )
    question_mode: Literal["batch", "yes_no"] = Field(
        default="batch",
        description="'batch': one JSON verdict list; 'yes_no': one short yes/no question per constraint "
        "(in the same single call; more reliable with small models).",
    )
    max_calls_per_request: int = Field(
        default=2, ge=1, le=10, description="Judge calls per guarded request, term checks and repairs included."
    )
    calls_per_minute: float | None = Field(default=None, gt=0, description="Token-bucket limit; None: unlimited.")
    sample_rate: float = Field(default=1.0, ge=0.0, le=1.0, description="Share of requests the judge sees.")
    max_concurrency: int = Field(default=4, ge=1)
    self_consistency: int = Field(default=1, ge=1, le=15, description="Samples per judgement (majority vote).")
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    max_tokens: int | None = Field(default=None, gt=0)

    @field_validator("base_url")
    @classmethod
    def _check_url(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("base_url must be an http(s) URL")
        return value.rstrip("/")

    def __repr_args__(self) -> Any:
        for name, value in super().__repr_args__():
            if name == "headers" and isinstance(value, dict):
                yield name, {k: ("**********" if is_secret_header(k) else v) for k, v in value.items()}
            elif name == "base_url" and isinstance(value, str):
                yield name, redact_url(value)
            else:
                yield name, value

    @property
    def resolved_provider(self) -> str:
        """The provider name for traces: explicit, else guessed from the URL."""
        if self.provider:
            return self.provider
        parts = urlsplit(self.base_url)
        if parts.hostname and parts.hostname.endswith("openai.com"):
            return "openai"
        if parts.port == 11434:
            return "ollama"
        return "openai_compatible"

    def resolve_api_key(self, environ: Mapping[str, str] | None = None) -> str | None:
        """The key to send: explicit, then ``api_key_env``, then OPENAI_API_KEY; None if none."""
        if self.api_key is not None:
            return self.api_key.get_secret_value() or None
        env = os.environ if environ is None else environ
        return env.get(self.api_key_env) or env.get(FALLBACK_KEY_ENV) or None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> JudgeConfig | None:
        """Config from FAITHGUARD_JUDGE_* variables; None when base URL and model are both unset. One without the
        other is a :class:`ConfigError` (the judge was asked for, and would otherwise stay off in silence)."""
        env = os.environ if environ is None else environ
        base_url = env.get("FAITHGUARD_JUDGE_BASE_URL", "").strip()
        model = env.get("FAITHGUARD_JUDGE_MODEL", "").strip()
        if not base_url and not model:
            return None
        if not base_url or not model:
            unset = "FAITHGUARD_JUDGE_MODEL" if base_url else "FAITHGUARD_JUDGE_BASE_URL"
            both = "FAITHGUARD_JUDGE_BASE_URL and FAITHGUARD_JUDGE_MODEL"
            raise ConfigError(f"the judge needs both {both}: {unset} is unset")
        values: dict[str, Any] = {"base_url": base_url, "model": model}
        for suffix, field_name in _ENV_FIELDS.items():
            raw = env.get(f"FAITHGUARD_JUDGE_{suffix}")
            if raw is not None and raw.strip():
                values[field_name] = raw.strip()
        values.update(overrides)
        try:
            return cls(**values)
        except ConfigError as exc:
            cause = exc.__cause__
            fields = _fields(cause) if isinstance(cause, ValidationError) else "?"
            raise ConfigError(f"invalid FAITHGUARD_JUDGE_* settings: {fields}") from cause
