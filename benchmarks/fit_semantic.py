"""Fit the semantic layer's calibration (src/faithguard/semantic/calibration.json) on STUDY parts only.

Labelled pairs, all from the study parts (holdout rows are never read here):
- InFoBench: each instruction (+ its input) with its own answer -> on topic (0); with the answer of
  the next study row -> off topic (1): mismatched by construction.
- LLMBar's study outputs are banded with the fitted map as a check (printed), not fitted: its worse
  outputs are mostly on topic (a neighbouring instruction's answer), not "about something else".
One feature, cos(request, the answer's first passage) exactly as the detector computes it (same token
budget), logistic regression by Newton steps.

Run: ``PYTHONPATH=src python benchmarks/fit_semantic.py [--data ../shared/data] [--write]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _split import KEYS, split_rows

from faithguard.semantic.detector import MAX_TOKENS, OFF_TOPIC_P, ON_TOPIC_P, Calibration, SemanticDetector, band_of

OUT = Path(__file__).resolve().parents[1] / "src" / "faithguard" / "semantic" / "calibration.json"


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-2) -> np.ndarray:
    a = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(a.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-(a @ w)))
        grad = a.T @ (p - y) + l2 * w
        hess = (a * (p * (1 - p))[:, None]).T @ a + l2 * np.eye(a.shape[1])
        w -= np.linalg.solve(hess, grad)
    return w


def main() -> None:
    """Build the pairs, fit, print the fit's study-part quality, optionally write calibration.json."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    det = SemanticDetector(calibration=Calibration(0.0, 0.0))
    feats: list[float] = []
    labels: list[int] = []
    info = split_rows("infobench", _rows(args.data / "infobench-dev" / "infobench_gpt4_dev.jsonl"), KEYS["infobench"])
    study = info["study"]
    for i, row in enumerate(study):
        docs = [str(row["input"])] if row["input"] else []
        for answer, label in ((row["output"], 0), (study[(i + 1) % len(study)]["output"], 1)):
            f = det.similarity(str(row["instruction"]), str(answer), docs)
            if f is not None:
                feats.append(f)
                labels.append(label)
    # LLMBar's worse outputs are scored as a check, not fitted: many are on topic but worse (a
    # neighbouring instruction's answer), so as "off topic" labels they flatten the map (measured:
    # with them, an answer about black holes to "Explain photosynthesis" got p=0.79).
    llm = split_rows("llmbar", _rows(args.data / "llmbar-dev" / "llmbar_dev.jsonl"), KEYS["llmbar"])["study"]
    checks: list[tuple[float, int]] = []
    for row in llm:
        good, bad = (row["output_1"], row["output_2"]) if row["label"] == 1 else (row["output_2"], row["output_1"])
        for answer, label in ((good, 0), (bad, 1)):
            f = det.similarity(str(row["input"]), str(answer))
            if f is not None:
                checks.append((f, label))
    # the band's false alarms: own answers flagged (fitted pairs alternate own, mismatched)
    x, y = np.array(feats)[:, None], np.array(labels, dtype=float)
    w = _fit(x, y)
    cal = Calibration(float(w[0]), float(w[1]))
    p = np.array([cal.probability(f) for f in feats])
    brier = float(np.mean((p - y) ** 2))
    for lo, hi in ((0.0, ON_TOPIC_P), (ON_TOPIC_P, OFF_TOPIC_P), (OFF_TOPIC_P, 1.01)):
        m = (p >= lo) & (p < hi)
        rate = y[m].mean() if m.any() else float("nan")
        print(
            f"split=study (fitted here) p in [{lo:.1f},{min(hi, 1.0):.1f}): n={int(m.sum())} off-topic rate {rate:.2f}"
        )
    print(
        f"split=study (fitted here) flagged off topic at p >= {OFF_TOPIC_P}: own answers "
        f"{float((p[y == 0] >= OFF_TOPIC_P).mean()):.3f}, "
        f"mismatched answers {float((p[y == 1] >= OFF_TOPIC_P).mean()):.3f}"
    )
    for label, name in ((0, "followed"), (1, "worse")):
        ps = [cal.probability(f) for f, y_ in checks if y_ == label]
        bands = {b: sum(band_of(p_) == b for p_ in ps) for b in ("off_topic", "unknown", "on_topic")}
        print(f"split=study (not fitted) llmbar {name} outputs n={len(ps)} bands {bands}")
    print(
        f"split=study (fitted here) n={len(y)} positives={int(y.sum())} brier={brier:.3f} weights={w.round(3).tolist()}"
    )
    if args.write:
        fitted_on = (
            f"benchmarks/fit_semantic.py on the study part of infobench-dev (own answer vs the next study "
            f"row's answer), n={len(y)}, positives={int(y.sum())}, "
            f"feature cos(request, first passage), {MAX_TOKENS} tokens per text"
        )
        OUT.write_text(
            json.dumps({"bias": w[0], "weight": w[1], "fitted_on": fitted_on}, indent=1) + "\n",
            encoding="utf-8",
        )
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
