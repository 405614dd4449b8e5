"""Fit the semantic layer's calibration (src/faithguard/semantic/calibration.json) on STUDY parts only.

Labelled pairs, all from the study parts (holdout rows are never read here):
- InFoBench: each instruction (+ its input) with its own answer -> on topic (0); with the answer of
  the next study row -> off topic (1): mismatched by construction.
- LLMBar: the output the authors marked as following the instruction -> 0; the other output of the
  adversarial subsets (a neighbouring instruction's answer or an off-target one) -> 1. The worse
  Natural outputs are left out: they are usually on topic but worse.
Two features (cos to the whole answer, cos to its best passage), logistic regression by Newton steps.

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

from faithguard.semantic.detector import Calibration, SemanticDetector

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
    det = SemanticDetector(calibration=Calibration(0.0, (0.0, 0.0)))
    feats: list[tuple[float, float]] = []
    labels: list[int] = []
    info = split_rows("infobench", _rows(args.data / "infobench-dev" / "infobench_gpt4_dev.jsonl"), KEYS["infobench"])
    study = info["study"]
    for i, row in enumerate(study):
        docs = [str(row["input"])] if row["input"] else []
        for answer, label in ((row["output"], 0), (study[(i + 1) % len(study)]["output"], 1)):
            f = det.features(str(row["instruction"]), docs, str(answer))
            if f is not None:
                feats.append(f)
                labels.append(label)
    llm = split_rows("llmbar", _rows(args.data / "llmbar-dev" / "llmbar_dev.jsonl"), KEYS["llmbar"])["study"]
    for row in llm:
        good, bad = (row["output_1"], row["output_2"]) if row["label"] == 1 else (row["output_2"], row["output_1"])
        pairs = [(good, 0)] + ([(bad, 1)] if row["subset"] != "Natural" else [])
        for answer, label in pairs:
            f = det.features(str(row["input"]), [], str(answer))
            if f is not None:
                feats.append(f)
                labels.append(label)
    x, y = np.array(feats), np.array(labels, dtype=float)
    w = _fit(x, y)
    cal = Calibration(float(w[0]), (float(w[1]), float(w[2])))
    p = np.array([cal.probability(*f) for f in feats])
    brier = float(np.mean((p - y) ** 2))
    for lo, hi in ((0.0, 0.2), (0.2, 0.8), (0.8, 1.01)):
        m = (p >= lo) & (p < hi)
        rate = y[m].mean() if m.any() else float("nan")
        print(
            f"split=study (fitted here) p in [{lo:.1f},{min(hi, 1.0):.1f}): n={int(m.sum())} off-topic rate {rate:.2f}"
        )
    print(
        f"split=study (fitted here) n={len(y)} positives={int(y.sum())} brier={brier:.3f} weights={w.round(3).tolist()}"
    )
    if args.write:
        fitted_on = f"study parts of infobench-dev (matched/mismatched) and llmbar-dev (adversarial), n={len(y)}"
        OUT.write_text(
            json.dumps({"bias": w[0], "weights": [w[1], w[2]], "fitted_on": fitted_on}, indent=1) + "\n",
            encoding="utf-8",
        )
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
