"""A few guarded calls, then the Prometheus exposition the alert rules and dashboard read."""

from __future__ import annotations

from faithguard import Guard
from faithguard.integrations.prometheus import prometheus_metrics
from faithguard.integrations.warmup import warm


def main() -> None:
    metrics = prometheus_metrics()
    guard = Guard(judge=None, meter_provider=metrics.meter_provider)
    warm(guard)  # load the models now: the first call is then scored like the rest
    answers = ["Visit the Louvre museum in Paris.", "Try the Colosseum in Rome.", "The Orsay museum in Paris."]
    for answer in answers:
        report = guard.check("Which museum in Paris should I visit?", answer)
        print(f"{answer!r}: score {report.constraint_score} ({report.band})")
    print()
    for line in metrics.exposition().decode().splitlines():
        if line.startswith("faithguard_") and "_bucket" not in line:
            print(line)
    guard.close()
    metrics.shutdown()


if __name__ == "__main__":
    main()
