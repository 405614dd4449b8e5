"""A minimal OTLP/HTTP receiver on 127.0.0.1: decodes the protobuf exports of spans and log records."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class OTLPReceiver:
    """``with OTLPReceiver() as rx: rx.endpoint`` -- keeps every span and log record it was sent."""

    def __init__(self) -> None:
        self.spans: list[Any] = []
        self.logs: list[Any] = []
        self.resources: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                """Silent."""

            def do_POST(self) -> None:
                from opentelemetry.proto.collector.logs.v1 import logs_service_pb2
                from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

                data = self.rfile.read(int(self.headers.get("content-length") or 0))
                with receiver._lock:
                    if self.path == "/v1/traces":
                        req = trace_service_pb2.ExportTraceServiceRequest.FromString(data)
                        for rs in req.resource_spans:
                            receiver.resources.append({a.key: a.value.string_value for a in rs.resource.attributes})
                            for ss in rs.scope_spans:
                                receiver.spans.extend(ss.spans)
                    elif self.path == "/v1/logs":
                        logs = logs_service_pb2.ExportLogsServiceRequest.FromString(data)
                        for rl in logs.resource_logs:
                            for sl in rl.scope_logs:
                                receiver.logs.extend(sl.log_records)
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", "0")
                self.end_headers()

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> OTLPReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def attributes(item: Any) -> dict[str, Any]:
    """A protobuf span's or log record's attributes as a dict of plain values."""
    out: dict[str, Any] = {}
    for kv in item.attributes:
        which = kv.value.WhichOneof("value")
        value = getattr(kv.value, which) if which else None
        if which == "array_value":
            value = [getattr(v, v.WhichOneof("value")) for v in value.values]
        out[kv.key] = value
    return out
