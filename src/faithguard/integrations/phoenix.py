"""Verdicts as evaluations in Arize Phoenix (or any backend with Phoenix's span-annotation API).

Phoenix shows a span's evaluations from its *annotations*, which are not span attributes: they
are posted to ``POST {endpoint}/v1/span_annotations``. :class:`PhoenixAnnotations` is an
OpenTelemetry span processor, added to the same tracer provider as the exporter that sends
spans to Phoenix::

    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(f"{phoenix}/v1/traces")))
    provider.add_span_processor(PhoenixAnnotations(phoenix))
    guard = Guard(tracer_provider=provider)

When a guard span ends with evaluations (``evaluations.N.evaluation.*``, written by the guard
for every scored answer), one annotation per evaluation is posted against the *evaluated*
span: the guard span's ``chat`` child (the LLM call it guarded), else the caller's span when
the guard joined a remote trace (the check-only proxy endpoint), else the guard span itself.
Each annotation carries ``gen_ai.response.id`` in its metadata when the chat span had one.

It also gives faithguard's own spans an OpenInference kind when they start without one:
``LLM`` for chat spans, ``EVALUATOR`` for detector spans, ``CHAIN`` for decomposition spans.

Posting happens on a daemon thread in batches; a full queue drops annotations (counted in
``dropped``) rather than slowing the guarded call. Needs no Phoenix package: only ``httpx``.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import OrderedDict
from typing import Any

import httpx
from opentelemetry.context import Context
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor

__all__ = ["PhoenixAnnotations", "annotations_of"]

log = logging.getLogger("faithguard.phoenix")

_KIND = "openinference.span.kind"
_EVAL_PREFIX = "evaluations."


def annotations_of(span: ReadableSpan, target_span_id: str, response_id: str | None = None) -> list[dict[str, Any]]:
    """Phoenix span-annotation records for the evaluations a guard span carries."""
    attrs = dict(span.attributes or {})
    indexes = sorted({int(k.split(".")[1]) for k in attrs if k.startswith(_EVAL_PREFIX) and k.split(".")[1].isdigit()})
    out: list[dict[str, Any]] = []
    for i in indexes:
        prefix = f"{_EVAL_PREFIX}{i}.evaluation."
        name = attrs.get(prefix + "name")
        if not isinstance(name, str):
            continue
        score = attrs.get(prefix + "score")
        result: dict[str, Any] = {
            "label": attrs.get(prefix + "label"),
            "score": float(score) if isinstance(score, int | float) else None,
            "explanation": attrs.get(prefix + "explanation"),
        }
        kind = attrs.get(prefix + "annotator_kind")
        metadata: dict[str, Any] = {"guard_span_id": f"{span.context.span_id:016x}"}
        if response_id:
            metadata["gen_ai.response.id"] = response_id
        out.append(
            {
                "span_id": target_span_id,
                "name": name,
                "annotator_kind": kind if kind in ("LLM", "CODE", "HUMAN") else "CODE",
                "result": result,
                "metadata": metadata,
                # one annotation per (span, name, identifier): a re-check replaces, never piles up
                "identifier": f"faithguard:{i}",
            }
        )
    return out


class PhoenixAnnotations(SpanProcessor):
    """Post faithguard's evaluations to Phoenix as span annotations on the evaluated span."""

    def __init__(
        self,
        endpoint: str = "http://127.0.0.1:6006",
        *,
        headers: dict[str, str] | None = None,
        timeout: float = 5.0,
        max_queue: int = 2048,
        batch_size: int = 100,
        client: httpx.Client | None = None,
    ) -> None:
        self.url = endpoint.rstrip("/") + "/v1/span_annotations"
        self._client = client or httpx.Client(timeout=timeout, headers=headers)
        self._own_client = client is None
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue(maxsize=max_queue)
        self._batch_size = batch_size
        # chat spans by (trace id, parent span id): a guard span finds the call it guarded
        self._chats: OrderedDict[tuple[int, int], tuple[str, str | None]] = OrderedDict()
        self._lock = threading.Lock()
        self.posted = 0
        self.dropped = 0
        self.failed = 0
        self._idle = threading.Condition()
        self._pending = 0
        self._thread = threading.Thread(target=self._work, name="faithguard-phoenix", daemon=True)
        self._thread.start()

    # -- span processor ------------------------------------------------------------------------

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        """Give faithguard's spans an OpenInference kind when they have none."""
        attrs = span.attributes or {}
        if _KIND in attrs:
            return
        if attrs.get("gen_ai.operation.name") == "chat":
            span.set_attribute(_KIND, "LLM")
            model = attrs.get("gen_ai.request.model")
            if isinstance(model, str):
                span.set_attribute("llm.model_name", model)
        elif "faithguard.detector" in attrs:
            span.set_attribute(_KIND, "CHAIN" if span.name.startswith("decompose ") else "EVALUATOR")

    def on_end(self, span: ReadableSpan) -> None:
        """Remember chat spans; turn a guard span's evaluations into annotations."""
        attrs = span.attributes or {}
        ctx = span.context
        if attrs.get("gen_ai.operation.name") == "chat" and span.parent is not None:
            rid = attrs.get("gen_ai.response.id")
            with self._lock:
                self._chats[(ctx.trace_id, span.parent.span_id)] = (
                    f"{ctx.span_id:016x}",
                    rid if isinstance(rid, str) else None,
                )
                while len(self._chats) > 4096:
                    self._chats.popitem(last=False)
            return
        if attrs.get(_KIND) != "GUARDRAIL" or not any(k.startswith(_EVAL_PREFIX) for k in attrs):
            return
        with self._lock:
            chat = self._chats.pop((ctx.trace_id, ctx.span_id), None)
        if chat is not None:
            target, response_id = chat
        elif span.parent is not None and span.parent.is_remote:
            target, response_id = f"{span.parent.span_id:016x}", None
        else:
            target, response_id = f"{ctx.span_id:016x}", None
        for record in annotations_of(span, target, response_id):
            try:
                with self._idle:
                    self._pending += 1
                self._queue.put_nowait(record)
            except queue.Full:
                with self._idle:
                    self._pending -= 1
                self.dropped += 1

    # -- delivery ------------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < self._batch_size:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._queue.put(None)  # stop after this batch
                    break
                batch.append(item)
            self._post(batch)
            with self._idle:
                self._pending -= len(batch)
                self._idle.notify_all()

    def _post(self, batch: list[dict[str, Any]]) -> None:
        try:
            resp = self._client.post(self.url, json={"data": batch})
            resp.raise_for_status()
            self.posted += len(batch)
        except httpx.HTTPError as exc:
            self.failed += len(batch)
            log.warning("could not post %d annotations to Phoenix: %s", len(batch), type(exc).__name__)

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        """Wait until every queued annotation is posted."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending <= 0, timeout_millis / 1000)

    def shutdown(self) -> None:
        """Post what is queued, then stop."""
        self.force_flush(5000)
        self._queue.put(None)
        self._thread.join(timeout=5)
        if self._own_client:
            self._client.close()
