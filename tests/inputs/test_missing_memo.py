"""The missing-content analysis is read once per distinct inputs (fixtures written here)."""

from __future__ import annotations

import pytest

import faithguard.inputs.missing as missing
from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector
from faithguard.models import Message

ASK = "Summarize the attached report."


def test_a_request_checked_again_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = missing.analyse

    def counting(ctx: CallContext, parser: object = None) -> list[dict[str, object]]:
        calls.append(ctx.query)
        return real(ctx, parser)  # type: ignore[arg-type]

    monkeypatch.setattr(missing, "analyse", counting)
    det = MissingContentDetector()
    first = det.run(CallContext(query=ASK))
    first.findings["missing_content"][0]["reference"] = "changed by a caller"
    again = det.run(CallContext(query=ASK, response="an answer does not matter here"))
    assert calls == [ASK]
    assert again.verdicts and again.findings["missing_content"][0]["reference"] != "changed by a caller"


def test_other_inputs_are_read_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[CallContext] = []
    real = missing.analyse

    def counting(ctx: CallContext, parser: object = None) -> list[dict[str, object]]:
        calls.append(ctx)
        return real(ctx, parser)  # type: ignore[arg-type]

    monkeypatch.setattr(missing, "analyse", counting)
    det = MissingContentDetector()
    assert det.run(CallContext(query=ASK)).verdicts
    assert not det.run(CallContext(query=ASK, documents=["Revenue grew 12% in the third quarter."])).verdicts
    det.run(CallContext(query=ASK, system="Answer briefly."))
    det.run(CallContext(query=ASK, history=[Message(role="assistant", content="Could you paste the report?")]))
    det.run(CallContext(query=ASK, documents=["", ""]))  # two empty documents are not one, nor none
    det.run(CallContext(query=ASK, documents=[""]))
    assert len(calls) == 6
    assert det.run(CallContext(query=ASK)).verdicts and len(calls) == 6  # the first reading, from the memo
