"""Edge cases found in review: malformed inputs raise clearly, nothing is silently left unguarded."""

from __future__ import annotations

from pathlib import Path

import pytest

from faithguard import ConfigError, InputError, Policy, Report
from faithguard.cli import main
from faithguard.testing import ScriptedLLM, StaticDetector

from .helpers import bare_guard


def test_malformed_documents_raise_instead_of_switching_guarding_off() -> None:
    llm = ScriptedLLM(["It is about climate."])
    fn = bare_guard().wrap(llm, policy=Policy.block(["missing_content"]))
    with pytest.raises(InputError, match="document"):
        fn(prompt="Summarise the attached article.", documents=[5])
    assert llm.prompts == []  # no token spent on a call that could not be guarded


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"documents": 5}, "documents must be a list"),
        ({"documents": {"a": "b"}}, "documents must be a list"),
        ({"messages": [{"role": "user", "content": b"List rivers"}]}, "not bytes"),
    ],
)
def test_odd_input_types(kwargs: dict[str, object], reason: str) -> None:
    with pytest.raises(InputError, match=reason):
        bare_guard().check("List three rivers in Spain." if "messages" not in kwargs else None, "x", **kwargs)  # type: ignore[arg-type]


def test_unpaired_surrogates_are_bad_input() -> None:
    with pytest.raises(InputError, match="surrogate"):
        bare_guard().check("List three rivers in Spain \ud800?", "The Ebro.")
    with pytest.raises(InputError, match="surrogate"):
        bare_guard().inspect("q", documents=["bad \udfff text"])


def test_closed_guard_says_so() -> None:
    guard = bare_guard()
    guard.close()
    with pytest.raises(ConfigError, match="closed"):
        guard.check("q", "r")
    with pytest.raises(ConfigError, match="closed"):
        guard.wrap(lambda p: "x")("List three rivers.")


def test_methods_decorated_in_a_class_are_guarded() -> None:
    reports: list[Report] = []
    guard = bare_guard()

    class Bot:
        @guard.wrap(on_report=reports.append)
        def ask(self, prompt: str) -> str:
            return "Paris has three museum sites."

    assert Bot().ask("Museums in Paris?") == "Paris has three museum sites."
    assert len(reports) == 1 and reports[0].query == "Museums in Paris?"


def test_nothing_to_guard_passes_through() -> None:
    fn = bare_guard().wrap(lambda messages: "ok")
    assert fn(messages=[{"role": "system", "content": "no user turn"}]) == "ok"


def test_background_reports_survive_a_shut_down_pool() -> None:
    # At interpreter exit the detector pool shuts down before atexit flushes the background queue;
    # the remaining jobs must still produce their reports (run inline).
    reports: list[Report] = []
    guard = bare_guard(background=True, extra=[StaticDetector(name="s", stage="output")])
    guard._pool.shutdown()
    fn = guard.wrap(ScriptedLLM(["Paris museum three"]), on_report=reports.append)
    fn("Museums in Paris?")
    assert guard.flush(timeout=30)
    assert len(reports) == 1 and reports[0].errors == []


def test_cli_strips_a_byte_order_mark(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain, bom = tmp_path / "q.txt", tmp_path / "bom.txt"
    plain.write_text("List three rivers in Spain.", encoding="utf-8")
    bom.write_bytes("\ufeffList three rivers in Spain.".encode())
    outputs = []
    for path in (plain, bom):
        assert main(["inspect", "-q", f"@{path}", "-f", "json"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]


def test_an_image_in_the_user_turn_is_supplied_material() -> None:
    """A vision request ("What plant is this?" with a photo part) is not missing its material; the same words
    without the image are. An image-only turn gives the checks nothing to read: the wrapped call passes untouched."""
    from faithguard import Guard

    guard = Guard(judge=None)
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
    text = {"type": "text", "text": "What plant is this? Is it safe for my cat?"}
    with_image = guard.inspect(None, messages=[{"role": "user", "content": [text, image]}])
    without = guard.inspect(None, messages=[{"role": "user", "content": [text]}])
    assert not [v for v in with_image.verdicts if v.kind == "missing_content"]
    assert [v for v in without.verdicts if v.kind == "missing_content"]
    llm_calls: list[object] = []

    @guard.wrap(policy=Policy.block(["missing_content"]))
    def ask(messages: list[dict[str, object]]) -> str:
        llm_calls.append(messages)
        return "A monstera; it is mildly toxic to cats."

    assert ask([{"role": "user", "content": [image]}]) == "A monstera; it is mildly toxic to cats."
    assert ask([{"role": "user", "content": [text, image]}]) == "A monstera; it is mildly toxic to cats."
    assert len(llm_calls) == 2
    guard.close()


def test_the_size_limit_counts_a_query_taken_from_the_messages_once() -> None:
    from faithguard.calls import MAX_INPUT_CHARS, normalize

    text = "List rivers. " + "x" * (MAX_INPUT_CHARS // 2)  # over half the limit: counted twice it was refused
    messages = [{"role": "user", "content": text}]
    assert normalize(None, messages=messages).query == text
    assert normalize(text, messages=messages).query == text
    with pytest.raises(InputError, match="limit"):
        normalize(text + " more", messages=messages)  # a query apart from the turn counts on its own


def test_a_policy_given_one_kind_as_a_string_blocks_on_that_kind() -> None:
    # Iterable[str] would read "omission" as its letters: one rule per character, none ever matching
    policy = Policy.block("omission")
    assert [rule.kind for rule in policy.rules] == ["omission"]
    assert policy.rules == Policy.block(["omission"]).rules
