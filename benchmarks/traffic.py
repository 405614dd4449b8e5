"""Realistic benchmark traffic built at run time from the shared dev sets (never copied into the repo).

Each dev set under ``--data`` (default ``../shared/data``) gives real requests with real answers:

- ifeval: IFEval prompts with GPT-4's responses (``ifeval-dev``);
- ifbench: IFBench prompts with the sample model's outputs (``ifbench-dev``);
- infobench: InFoBench instructions (task ``input`` sent as a document) with GPT-4 outputs;
- llmbar: LLMBar instructions, once with each of the two outputs.

Every call carries its split part (``benchmarks/_split.py``): benchmarks time both parts and say
which part a line covers; nothing here reads a label. Sets that are missing are skipped and named.

Run it alone to print what the traffic looks like: ``python benchmarks/traffic.py --data DIR``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import pct
from _split import KEYS, Part, part_of, row_key

__all__ = ["DATASETS", "Call", "default_data", "distinct_queries", "load_traffic", "long_answer", "summary"]

DATASETS = ("ifeval", "ifbench", "infobench", "llmbar")


@dataclass(frozen=True)
class Call:
    """One real request/answer pair from a dev set."""

    dataset: str
    part: Part
    key: str
    query: str
    response: str
    documents: tuple[str, ...] = ()

    @property
    def words(self) -> int:
        """Words in the answer (whitespace-separated)."""
        return len(self.response.split())


def default_data() -> Path:
    """``../shared/data`` next to the checkout (the Makefile's DATA default)."""
    return Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def _jsonl(path: Path) -> Iterator[dict[str, object]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _prompt_answers(dataset: str, prompts: Path, answers: Path, answer_field: str = "response") -> Iterator[Call]:
    """IFEval/IFBench layout: prompts with keys in one file, answers keyed by prompt text in another."""
    keys: dict[str, str] = {}
    for row in _jsonl(prompts):
        keys[str(row["prompt"])] = row_key(row, KEYS[dataset])
    for row in _jsonl(answers):
        prompt, answer = str(row["prompt"]), row.get(answer_field)
        if prompt in keys and isinstance(answer, str) and answer.strip():
            key = keys[prompt]
            yield Call(dataset, part_of(dataset, key), key, prompt, answer)


def _infobench(path: Path) -> Iterator[Call]:
    for row in _jsonl(path):
        key = row_key(row, KEYS["infobench"])
        task_input = str(row.get("input") or "")
        output = row.get("output")
        if isinstance(output, str) and output.strip():
            docs = (task_input,) if task_input.strip() else ()
            yield Call("infobench", part_of("infobench", key), key, str(row["instruction"]), output, docs)


def _llmbar(path: Path) -> Iterator[Call]:
    for row in _jsonl(path):
        key = row_key(row, KEYS["llmbar"])
        for field in ("output_1", "output_2"):
            output = row.get(field)
            if isinstance(output, str) and output.strip():
                yield Call("llmbar", part_of("llmbar", key), f"{key}:{field}", str(row["input"]), output)


def load_traffic(data: Path, datasets: Sequence[str] = DATASETS) -> tuple[list[Call], list[str]]:
    """(calls in a fixed interleaved order, names of the sets not found under ``data``)."""
    sources = {
        "ifeval": lambda: _prompt_answers(
            "ifeval",
            data / "ifeval-dev" / "input_data.jsonl",
            data / "ifeval-dev" / "input_response_data_gpt4_20231107_145030.jsonl",
        ),
        "ifbench": lambda: _prompt_answers(
            "ifbench", data / "ifbench-dev" / "IFBench_test.jsonl", data / "ifbench-dev" / "sample_output.jsonl"
        ),
        "infobench": lambda: _infobench(data / "infobench-dev" / "infobench_gpt4_dev.jsonl"),
        "llmbar": lambda: _llmbar(data / "llmbar-dev" / "llmbar_dev.jsonl"),
    }
    per_set: list[list[Call]] = []
    missing: list[str] = []
    for name in datasets:
        try:
            per_set.append(list(sources[name]()))
        except FileNotFoundError:
            missing.append(name)
    return _interleave(per_set), missing


def _interleave(groups: Sequence[Sequence[Call]]) -> list[Call]:
    """Round-robin over the sets, so any prefix of the traffic mixes them (deterministic)."""
    out: list[Call] = []
    for i in range(max((len(g) for g in groups), default=0)):
        out.extend(g[i] for g in groups if i < len(g))
    return out


def distinct_queries(calls: Iterable[Call]) -> list[Call]:
    """The first call of each distinct query text (whitespace-normalised), in order."""
    seen: set[str] = set()
    out: list[Call] = []
    for call in calls:
        norm = " ".join(call.query.split())
        if norm not in seen:
            seen.add(norm)
            out.append(call)
    return out


def long_answer(calls: Sequence[Call], words: int) -> str:
    """A real-text answer of exactly ``words`` words: real answers, each used once, joined as paragraphs.

    Raises ValueError when the traffic holds fewer distinct answer words than asked for.
    """
    out: list[str] = []
    total = 0
    seen: set[str] = set()
    for call in calls:
        if call.response in seen:
            continue
        seen.add(call.response)
        tokens = call.response.split()
        take = tokens[: words - total]
        out.append(" ".join(take))
        total += len(take)
        if total >= words:
            return "\n\n".join(out)
    raise ValueError(f"the traffic holds {total} distinct answer words, fewer than {words}")


def summary(calls: Sequence[Call]) -> list[str]:
    """Lines describing the traffic: per set and part, calls, distinct queries, answer length."""
    lines = []
    for name in sorted({c.dataset for c in calls}):
        for part in ("study", "holdout"):
            group = [c for c in calls if c.dataset == name and c.part == part]
            if not group:
                continue
            words = [float(c.words) for c in group]
            qwords = [float(len(c.query.split())) for c in group]
            lines.append(
                f"{name:<10} {part:<8} calls {len(group):>4}  distinct queries {len(distinct_queries(group)):>4}  "
                f"query words p50 {pct(qwords, 0.5):>4.0f}  answer words p50 {pct(words, 0.5):>5.0f} "
                f"p99 {pct(words, 0.99):>5.0f} max {max(words):>5.0f}"
            )
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data(), help="the shared dev sets (default ../shared/data)")
    args = ap.parse_args()
    calls, missing = load_traffic(args.data)
    if missing:
        print(f"missing under {args.data}: {', '.join(missing)}")
    print(
        f"{len(calls)} calls, {len(distinct_queries(calls))} distinct queries, "
        f"{sum(c.words for c in calls):,} answer words in all"
    )
    for line in summary(calls):
        print(line)
    return 0 if calls else 1


if __name__ == "__main__":
    raise SystemExit(main())
