"""Language identification (``faithguard.lexical.langid``) on text no rule was written from.

Usage: PYTHONPATH=src python benchmarks/eval_langid.py [--data ../shared/data] [--seed 7]

Two measures, both printed with their source:
- **Each language's own vocabulary**: strings of 5, 12 and 40 words drawn by wordfreq (``random_words``, weighted
  by frequency, a fixed seed) for every language the identifier names and wordfreq lists; right / undecided
  (confidence < 0.35, the verifiers' and term checks' bar) / wrong. A resource's words, not ours.
- **English dev texts read as another language**: IFEval prompts, InFoBench instructions and answers, LLMBar
  answers, per split part (counts only: no row is printed). Every one of them is English; a confident other
  reading is a false one (a few InFoBench answers are translations, so the count is an upper bound).
Cache state: the identifier's text memo holds 64 texts and every text here is new to it; the model is loaded
before timing nothing (no timings are printed).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: The verifiers' and term checks' confidence bar (check_ifeval.LANG_CONFIDENCE, terms.language).
CONFIDENT = 0.35
_NON_SPACED = frozenset({"ja", "zh", "th"})  # wordfreq's words for these are not space-separated text


def _reading(text: str) -> str | None:
    from faithguard.lexical.langid import identify

    ident = identify(text)
    return ident.language if ident.confidence >= CONFIDENT else None


def vocabulary(seed: int) -> None:
    import wordfreq

    from faithguard.lexical.langid import LANGUAGE_NAMES

    random.seed(seed)
    langs = [c for c in sorted(LANGUAGE_NAMES) if c in wordfreq.available_languages("small") and c not in _NON_SPACED]
    print(f"== each language's own vocabulary (wordfreq random_words, seed {seed}, {len(langs)} languages x 20) ==")
    for n in (5, 12, 40):
        tally: Counter[str] = Counter()
        for lang in langs:
            for _ in range(20):
                got = _reading(wordfreq.random_words(lang, nwords=n, bits_per_word=8, ascii_only=False))
                tally["right" if got == lang else "undecided" if got is None else "wrong"] += 1
        total = sum(tally.values())
        print(f"{n:3d} words: right {tally['right']}/{total}  undecided {tally['undecided']}  wrong {tally['wrong']}")


def _texts(data: Path) -> dict[str, list[tuple[str, str]]]:
    """``{dataset: [(split key, text), ...]}`` of the English dev texts."""
    out: dict[str, list[tuple[str, str]]] = {"ifeval": [], "infobench": [], "llmbar": []}
    for line in (data / "ifeval-dev" / "input_data.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        out["ifeval"].append((str(row["key"]), row["prompt"]))
    for line in (data / "infobench-dev" / "infobench_gpt4_dev.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        out["infobench"] += [(str(row["id"]), row[k]) for k in ("instruction", "output") if isinstance(row.get(k), str)]
    for line in (data / "llmbar-dev" / "llmbar_dev.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        key = f"{row['subset']}:{row['index']}"  # the split key (benchmarks/_split.KEYS)
        out["llmbar"] += [(key, row[k]) for k in ("output_1", "output_2") if isinstance(row.get(k), str)]
    return out


def english(data: Path) -> None:
    sys.path.insert(0, str(HERE))
    from _split import part_of

    print("\n== English dev texts read confidently as another language (counts only) ==")
    for name, texts in _texts(data).items():
        tally: Counter[tuple[str, str]] = Counter()
        for key, text in texts:
            got = _reading(text)
            tally[(part_of(name, key), "en" if got == "en" else "undecided" if got is None else "other")] += 1
        for part in ("study", "holdout"):
            n = sum(v for (p, _), v in tally.items() if p == part)
            print(
                f"[split: {part}] {name}: {n} texts, English {tally[(part, 'en')]}, "
                f"undecided {tally[(part, 'undecided')]}, other {tally[(part, 'other')]}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    vocabulary(args.seed)
    if args.data.is_dir():
        english(args.data)
    else:
        print(f"({args.data} not found: the English dev texts are skipped)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
