"""With content capture off, no content or secret reaches any signal faithguard exports (issue 16).

Each case puts marker strings in the query, the response, the documents, the API key and URL
credentials, runs one path (check, inspect, wrap, a failing plugin, an erroring judge, the proxy),
then scans every exported signal: spans (attributes, events, status), log records, metric points,
``report.errors``/``judge_reason`` and everything logged through :mod:`logging`. A case that leaks
today is marked ``xfail(strict=True)`` with the place it leaks from, so the fix flips it to a pass.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from faithguard import DetectorResult, Guard, InspectReport, Report, hookimpl
from faithguard.detector import CallContext
from faithguard.plugins import make_plugin_manager

# Marker strings: unlikely in any real text, so a hit is a leak and not a coincidence.
Q = "qmarkzq7731"
R = "rmarkzq7732"
D = "dmarkzq7733"
KEY = "sk-keymarkzq7734"
USER, PASSWORD = "usermarkzq7735", "passmarkzq7736"
MARKERS = (Q, R, D, KEY, USER, PASSWORD)

QUERY = f"List three rivers in Spain and explain {Q} in two sentences, using the attached notes."
RESPONSE = f"1. Ebro 2. Tagus 3. Douro. The term {R} is not something I know."
DOCUMENTS = [f"Notes: {D} rivers of Iberia."]


def exported(otel: Any, caplog: pytest.LogCaptureFixture, reports: list[Report | InspectReport]) -> str:
    """Every exported signal as one text: spans, log records, metrics, report errors, logging."""
    parts = [span.to_json() for span in otel.spans.get_finished_spans()]
    for data in otel.logs.get_finished_logs():
        record = data.log_record
        parts.append(f"{record.event_name} {record.body!r} {dict(record.attributes or {})!r}")
    metrics = otel.metrics.get_metrics_data()
    if metrics is not None:
        parts.append(metrics.to_json())
    for report in reports:
        parts += [e.model_dump_json() for e in report.errors]
        parts.append(str(getattr(report, "judge_reason", "") or ""))
    parts += [record.getMessage() + repr(record.args) + str(record.exc_text or "") for record in caplog.records]
    return "\n".join(parts)


def assert_clean(text: str) -> None:
    found = [m for m in MARKERS if m in text]
    assert not found, f"markers leaked: {found}\n" + "\n".join(
        line.strip()[:300] for line in text.splitlines() if any(m in line for m in found)
    )


def quiet_guard(otel: Any, **kw: Any) -> Guard:
    """The default guard (built-in plugins, no entry points), content capture off."""
    pm, _ = make_plugin_manager(load_entrypoints=False)
    kw.setdefault("judge", None)
    return Guard(plugin_manager=pm, capture_content=False, **otel.providers(), **kw)


@pytest.fixture(autouse=True)
def _no_capture_env(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.delenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", raising=False)
    caplog.set_level(logging.DEBUG)


def test_check_and_inspect(otel: Any, caplog: pytest.LogCaptureFixture) -> None:
    with quiet_guard(otel) as guard:
        pre = guard.inspect(QUERY, documents=DOCUMENTS)
        report = guard.check(QUERY, RESPONSE, documents=DOCUMENTS)
    assert report.query == QUERY  # the report itself carries the content; its exports must not
    assert_clean(exported(otel, caplog, [pre, report]))


@pytest.mark.parametrize(
    "query",
    [
        f"Add docstrings to the following {Q} class.",  # a forward pointer with nothing after it
        f"{Q} resume attached. Is it good?",  # an attachment claim nothing carries
        f"Please summarise what my {Q} sent me.",  # an item handed to the user
    ],
)
def test_missing_content_findings_quote_nothing(query: str, otel: Any, caplog: pytest.LogCaptureFixture) -> None:
    with quiet_guard(otel) as guard:
        pre = guard.inspect(query)
        report = guard.check(query, RESPONSE)
    assert any(v.kind == "missing_content" for v in pre.verdicts)  # the finding fired and quotes the request...
    assert_clean(exported(otel, caplog, [pre, report]))  # ...but none of it is exported with capture off


def test_check_messages(otel: Any, caplog: pytest.LogCaptureFixture) -> None:
    messages = [
        {"role": "system", "content": f"Answer from the notes. {D}"},
        {"role": "user", "content": QUERY},
    ]
    with quiet_guard(otel) as guard:
        report = guard.check(None, RESPONSE, messages=messages)
    assert_clean(exported(otel, caplog, [report]))


def test_wrap_ok(otel: Any, caplog: pytest.LogCaptureFixture) -> None:
    with quiet_guard(otel) as guard:
        reports: list[Report] = []
        fn = guard.wrap(lambda prompt, **kw: RESPONSE, on_report=reports.append)
        fn(QUERY, documents=DOCUMENTS, api_key=KEY)
    assert reports and reports[0].query == QUERY
    assert_clean(exported(otel, caplog, reports))


def test_wrap_raising_function(otel: Any, caplog: pytest.LogCaptureFixture) -> None:
    def llm(prompt: str, **kw: Any) -> str:
        raise RuntimeError(f"upstream refused the prompt {prompt!r} with key {kw.get('api_key')}")

    with quiet_guard(otel) as guard:
        fn = guard.wrap(llm)
        with pytest.raises(RuntimeError):  # the caller's own exception is theirs to keep
            fn(QUERY, documents=DOCUMENTS, api_key=KEY)
    assert_clean(exported(otel, caplog, []))


class LeakyDetector:
    """A plugin detector that fails with the request in its message (as careless plugins do)."""

    name = "leaky"
    stage = "output"
    order = 150
    timeout: float | None = None

    def run(self, ctx: CallContext) -> DetectorResult:
        raise ValueError(f"could not handle {ctx.query!r} / {ctx.response!r} / {ctx.documents!r}")


class LeakyPlugin:
    @hookimpl
    def register_detectors(self, register: Any) -> None:
        register(LeakyDetector())


def test_detector_plugin_raising(otel: Any, caplog: pytest.LogCaptureFixture) -> None:
    pm, _ = make_plugin_manager(load_entrypoints=False)
    pm.register(LeakyPlugin(), name="leaky")
    with Guard(plugin_manager=pm, judge=None, capture_content=False, **otel.providers()) as guard:
        report = guard.check(QUERY, RESPONSE, documents=DOCUMENTS)
    assert any(e.detector == "leaky" for e in report.errors)
    assert_clean(exported(otel, caplog, [report]))


class _EchoHandler(BaseHTTPRequestHandler):
    """A judge endpoint that rejects every request, echoing its credentials and user turns back."""

    requests = 0

    def do_POST(self) -> None:
        type(self).requests += 1
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        users = [m.get("content") for m in body.get("messages", []) if m.get("role") == "user"]
        message = f"bad request from {self.headers.get('Authorization')}: invalid user content {users}"
        echo = json.dumps({"error": {"message": message}}).encode()
        self.send_response(400)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(echo)))
        self.end_headers()
        self.wfile.write(echo)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def echo_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EchoHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_judge_endpoint_echoing_errors(otel: Any, caplog: pytest.LogCaptureFixture, echo_server: str) -> None:
    from pydantic import SecretStr

    from faithguard.judge import JudgeConfig

    config = JudgeConfig(base_url=echo_server, model="judge-test", api_key=SecretStr(KEY), max_retries=0, timeout=5.0)
    with quiet_guard(otel, judge=config) as guard:
        report = guard.check(QUERY, RESPONSE, documents=DOCUMENTS)
    assert _EchoHandler.requests > 0
    assert_clean(exported(otel, caplog, [report]))


def test_proxy_upstream_credentials(otel: Any, caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from faithguard.integrations.proxy import create_app

    with socket.socket() as s:  # a port nothing listens on: the upstream is unreachable
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    reports: list[Report] = []
    with quiet_guard(otel) as guard:
        app = create_app(guard, f"http://{USER}:{PASSWORD}@127.0.0.1:{port}/v1", on_report=reports.append)
        with TestClient(app) as client:
            resp = client.post(
                "/v1/chat/completions",
                json={"model": "m", "messages": [{"role": "user", "content": QUERY}]},
                headers={"Authorization": f"Bearer {KEY}"},
            )
    assert resp.status_code >= 400
    assert_clean(exported(otel, caplog, reports) + "\n" + resp.text)


@pytest.mark.parametrize(
    ("query", "response", "kw"),
    [
        (f"{Q} rivers \ud800", RESPONSE, {}),
        (QUERY, RESPONSE, {"documents": [{"body": D}]}),
        (None, RESPONSE, {"messages": [{"role": "narrator", "content": Q}]}),
        (f"{Q} " * 200_001, RESPONSE, {}),
        (QUERY, {"unexpected": R}, {}),
    ],
    ids=["surrogate", "document-shape", "no-user-turn", "too-long", "response-shape"],
)
def test_input_errors_name_no_content(
    otel: Any, caplog: pytest.LogCaptureFixture, query: Any, response: Any, kw: dict[str, Any]
) -> None:
    from faithguard import InputError

    with quiet_guard(otel) as guard, pytest.raises(InputError) as info:
        guard.check(query, response, **kw)
    assert_clean(str(info.value) + repr(info.value.args) + "\n" + exported(otel, caplog, []))


class QuotingDetector:
    """Flags every request with a verdict whose explanation quotes it (as built-in explanations do)."""

    name = "quoting"
    stage = "input"
    order = 50
    timeout: float | None = None

    def run(self, ctx: CallContext) -> DetectorResult:
        from faithguard import Severity, Verdict

        why = f"the request {ctx.query!r} refers to {ctx.documents!r}"
        return DetectorResult(verdicts=[Verdict(kind="missing_content", severity=Severity.CRITICAL, explanation=why)])


def test_wrap_blocked(otel: Any, caplog: pytest.LogCaptureFixture) -> None:
    from faithguard import Action, HallucinationBlocked, Policy

    with quiet_guard(otel, extra_detectors=[QuotingDetector()], policy=Policy(default=Action.BLOCK)) as guard:
        fn = guard.wrap(lambda prompt, **kw: RESPONSE)
        with pytest.raises(HallucinationBlocked) as info:
            fn(QUERY, documents=DOCUMENTS, api_key=KEY)
    assert any(Q in v.explanation for v in info.value.report.verdicts)  # the report keeps it, for the caller
    assert_clean(str(info.value) + repr(info.value.args) + "\n" + exported(otel, caplog, [info.value.report]))


class _Undecided:
    """A plugin that cannot judge the call and says why in the request's own words."""

    name, stage, order, timeout = "lang_probe", "output", 300, None

    def run(self, ctx: CallContext) -> DetectorResult:
        return DetectorResult(undetermined=f"could not parse request {ctx.query!r}")


def test_a_plugins_undetermined_reason_is_cut_to_its_code(otel: Any, caplog: pytest.LogCaptureFixture) -> None:
    # the reason went verbatim into the span's outcome explanation (helper 95)
    with quiet_guard(otel, extra_detectors=[_Undecided()]) as guard:
        answer = f"Historians care about it because records from the period are rare. {R}"
        report = guard.check(f"Why does {Q} matter to historians?", answer)
    assert report.outcome == "undetermined" and any(Q in r for r in report.outcome_reasons)  # the caller keeps it
    text = exported(otel, caplog, [report])
    assert not [m for m in MARKERS if m in text]
    reasons = guard.telemetry.reasons(report)
    assert "lang_probe: not judged (reason withheld: enable content capture to keep it)" in reasons, reasons
    coded = report.model_copy(update={"undetermined": ["unknown_terms: knowledge_source_failed: glossary x"]})
    assert "unknown_terms: knowledge_source_failed" in guard.telemetry.reasons(coded)


def test_plugin_verdict_kinds_are_bounded_metric_labels(otel: Any) -> None:
    from faithguard.telemetry import MAX_KIND_LABELS

    class Names:
        name, stage, order, timeout = "namer", "output", 300, None
        calls = 0

        def run(self, ctx: CallContext) -> DetectorResult:
            Names.calls += 1
            from faithguard import Verdict

            return DetectorResult(verdicts=[Verdict(kind=f"off_topic_{Names.calls}", severity="info")])

    with quiet_guard(otel, extra_detectors=[Names()]) as guard:
        for i in range(MAX_KIND_LABELS + 10):
            guard.check(f"Name a river in Spain, take {i}.", "The Ebro.")
    kinds = {dict(p.attributes)["faithguard.verdict.kind"] for p in otel.metric_points("faithguard.verdicts")}
    plugin_kinds = {k for k in kinds if k.startswith("off_topic_")}
    assert len(plugin_kinds) == MAX_KIND_LABELS and "other" in kinds


def test_capture_content_must_be_a_bool() -> None:
    from faithguard import ConfigError

    with pytest.raises(ConfigError, match="capture_content must be True, False or None"):
        Guard(judge=None, load_entrypoints=False, capture_content="false")  # type: ignore[arg-type]
    assert Guard(judge=None, load_entrypoints=False, capture_content=1, warmup=False).telemetry.capture_content is True


def test_reason_codes_keep_no_word_of_the_request() -> None:
    # a one-word reason ("d1: leukemia") passed as a code; the lifecycle's own reasons lost theirs (reviewer 97)
    from faithguard import lifecycle
    from faithguard.telemetry import LIFECYCLE_CODES, _reason_code

    assert _reason_code(f"d1: {Q}").startswith("d1: not judged (reason withheld")
    assert _reason_code("d1: leukemia") == "d1: not judged (reason withheld: enable content capture to keep it)"
    assert _reason_code("unknown_terms: knowledge_source_failed: glossary could not be asked") == (
        "unknown_terms: knowledge_source_failed"
    )
    own = [v for k, v in vars(lifecycle).items() if k.endswith("_REASON") and isinstance(v, str)]
    assert own and all(_reason_code(r) == r.split(":")[0] and r.split(":")[0] in LIFECYCLE_CODES for r in own)
    assert _reason_code("call_failed (ValueError)") == "call_failed"
    # a snake_case word of the request is no code of faithguard's (review 98)
    assert _reason_code("semantic: zorblatt_syndrome: not judged").startswith("semantic: not judged (reason withheld")
