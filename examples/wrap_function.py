"""Guard any LLM-calling function with ``guard.wrap`` (offline, no network)."""

from __future__ import annotations

from faithguard import Guard, Policy
from faithguard.integrations.warmup import warm


def fake_llm(prompt: str) -> str:
    """Stands in for a real model call."""
    return "The Louvre is the best-known museum in Paris."


def main() -> None:
    guard = Guard(judge=None)
    warm(guard)  # load the models now: the first call is then scored like the rest
    reports = []
    ask = guard.wrap(fake_llm, policy=Policy.observe(), on_report=reports.append)
    answer = ask("Which museum in Paris should I visit first?")
    report = reports[-1]
    print("answer:", answer)
    print("constraint score:", report.constraint_score, "band:", report.band)
    for c in report.constraints:
        print(f"  {c.id} [{c.category}/{c.tier}] {c.text!r}: {c.status}")
    print("verdicts:", [v.kind for v in report.verdicts] or "none")
    guard.close()


if __name__ == "__main__":
    main()
