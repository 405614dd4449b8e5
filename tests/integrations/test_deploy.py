"""Alert rules and the Grafana dashboard reference only metric/label names a real guard exports."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from integ_support import BAD, make_guard
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from prometheus_client.parser import text_string_to_metric_families

from faithguard import CallContext, DetectorResult, Severity, Verdict
from faithguard.integrations.prometheus import METRIC_NAMES, prometheus_metrics
from faithguard.judge import Judge
from faithguard.testing import FailingDetector, StaticDetector

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "deploy" / "prometheus" / "faithguard-alerts.yml"
RULES_TEST = ROOT / "deploy" / "prometheus" / "faithguard-alerts.test.yml"
DASHBOARD = ROOT / "deploy" / "grafana" / "faithguard-dashboard.json"
TOKEN = re.compile(r"\bfaithguard_[a-z_]+\b")


@pytest.fixture(scope="module")
def exposition() -> tuple[set[str], set[str]]:
    """Sample names and label names of a real exposition where every faithguard metric has data."""
    metrics = prometheus_metrics()

    class DegradedJudge(StaticDetector):
        def run(self, ctx: CallContext) -> DetectorResult:
            ctx.judge_use.record("degraded", "test")
            return super().run(ctx)

    degraded = DegradedJudge(
        verdicts=[Verdict(kind="fabricated_term", severity=Severity.CRITICAL, term="Zorblax")], name="degraded-judge"
    )
    guard = make_guard(
        meter_provider=metrics.meter_provider,
        extra=[degraded, FailingDetector()],
        judge=Judge.from_langchain(FakeListChatModel(responses=["{}"])),  # a bare guard has no judge resolver
    )
    report = guard.check("Which museum in Paris?", BAD)
    assert report.judge == "degraded" and report.errors
    text = metrics.exposition().decode()
    guard.close()
    samples: set[str] = set()
    labels: set[str] = set()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples.add(sample.name)
            labels.update(sample.labels)
    return samples, labels


def _rule_exprs() -> list[str]:
    import yaml

    doc = yaml.safe_load(RULES.read_text())
    return [rule["expr"] for group in doc["groups"] for rule in group["rules"]]


def _dashboard_exprs() -> list[str]:
    dash = json.loads(DASHBOARD.read_text())
    exprs = [t["expr"] for p in dash["panels"] for t in p["targets"]]
    exprs += [v["definition"] for v in dash["templating"]["list"] if "definition" in v]
    return exprs


def test_documented_metric_names_are_exported(exposition: tuple[set[str], set[str]]) -> None:
    samples, _ = exposition
    for name in METRIC_NAMES:
        assert name in samples or f"{name}_bucket" in samples, name


@pytest.mark.parametrize("source", ["rules", "dashboard"])
def test_every_referenced_name_is_real(source: str, exposition: tuple[set[str], set[str]]) -> None:
    samples, labels = exposition
    exprs = _rule_exprs() if source == "rules" else _dashboard_exprs()
    assert exprs
    for expr in exprs:
        tokens = set(TOKEN.findall(expr))
        unknown = tokens - samples - labels
        assert not unknown, f"{source}: {expr!r} references names no guard exports: {sorted(unknown)}"
        assert tokens & samples or "faithguard:" in expr, f"{source}: {expr!r} references no faithguard metric"


def test_dashboard_covers_the_required_panels() -> None:
    dash = json.loads(DASHBOARD.read_text())
    exprs = " ".join(_dashboard_exprs())
    assert "faithguard_constraint_score_bucket" in exprs  # score distribution
    assert "sum by (faithguard_verdict_kind)" in exprs  # verdict rates by kind
    assert "faithguard_constraint_category" in exprs  # violated categories
    assert "faithguard_detector_duration_seconds_bucket" in exprs  # detector latency
    assert len({p["id"] for p in dash["panels"]}) == len(dash["panels"])


def test_alert_rules_pass_promtool_unit_tests() -> None:
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool not installed (Debian: apt-get install -y --no-install-recommends prometheus)")
    check = subprocess.run([promtool, "check", "rules", str(RULES)], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
    test = subprocess.run(
        [promtool, "test", "rules", str(RULES_TEST)], capture_output=True, text=True, timeout=60, cwd=RULES.parent
    )
    assert test.returncode == 0, test.stdout + test.stderr
