"""Time detect() on a 60-word query and verify() for every verifier on a 400-word response.

Every line names its cache state. A new query or response: the memos keyed by its text (``detect``'s,
sentence breaks, refusal cues, ``langid.identify``) cleared before each timed call, and the shared parse
cache too unless the line says "parse warm"; loaded specs and word-keyed memos stay warm, as in a process
that has served other requests. Times are CPU (``time.process_time``): the machine may be shared.

Usage: PYTHONPATH=src python benchmarks/bench_verifiers.py [--runs 300]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from functools import partial

from faithguard.lexical import langid
from faithguard.nlp import clear_parse_cache
from faithguard.verifiers import VERIFIER_IDS, detect, detect_builtin, refusal, spec, verify

QUERY = (
    "Write a blog post about a trip to Lisbon for first-time visitors. Your answer must contain a title "
    "wrapped in double angular brackets, such as <<title>>. Use at least 300 words, highlight at least 3 "
    'sections with markdown, and do not use any commas. Include the keywords "tram" and "pastry". '
    'End your response with the exact phrase "Any other questions?"'
)
_PARA = (
    "The old tram climbs the hill slowly while tourists lean out of the windows to take pictures of "
    "the river and the red roofs below. A small bakery near the square sells a famous custard pastry "
    "that locals eat with strong coffee in the morning. "
)
RESPONSE = "<<Lisbon Days>>\n\n" + "\n\n".join(f"*Part {i}* " + _PARA * 2 for i in range(5)) + "\n\nP.S. Enjoy!"
PARAMS = {
    "keywords": ["tram"],
    "keyword": "tram",
    "frequency": 3,
    "relation": "at least",
    "forbidden_words": ["cheap"],
    "letter": "a",
    "let_frequency": 10,
    "let_relation": "at least",
    "language": "en",
    "num_sentences": 10,
    "num_paragraphs": 5,
    "num_words": 300,
    "nth_paragraph": 2,
    "first_word": "part",
    "num_placeholders": 1,
    "postscript_marker": "P.S.",
    "num_bullets": 3,
    "num_highlights": 3,
    "section_spliter": "Part",
    "num_sections": 3,
    "prompt_to_repeat": "Write a blog",
    "end_phrase": "Enjoy!",
    "capital_frequency": 2,
    "capital_relation": "less than",
    "num_lines": 5,
    "num_stanzas": 5,
    "words": ["tram"],
    "word": "below",
    "scheme": "AABB",
    # IFBench kwargs
    "N": 3,
    "small_n": 3,
    "percentage": 40,
    "min_words": 100,
    "max_words": 400,
    "options": "yes/no/maybe",
    "sep": "*",
    "reference_text": "The old tram climbs the hill slowly.",
    "names": ["Emma", "Liam"],
    **{f"keyword{i}": w for i, w in enumerate(("tram", "hill", "river", "the", "a"), start=1)},
    "n": 2,
    "m": 3,
    "n_start": 0,
    "n_end": 3,
    "sentence": "Only output this sentence here.",
}


def forget_text(parse: bool) -> None:
    """A new text: clear the memos keyed by it (and the shared parse cache when ``parse``)."""
    memos = (detect_builtin._detect, spec._sentence_breaks, refusal._may_refuse, refusal._tokens, langid.identify)
    # langid.model_ranking: the language model's memo, once langid shares the model (in progress on 2026-11-24)
    for memo in (*memos, getattr(langid, "model_ranking", None)):
        if memo is not None:
            memo.cache_clear()
    if parse:
        clear_parse_cache()


def _time(fn: Callable[[], object], runs: int, setup: Callable[[], object] = lambda: None) -> tuple[float, float]:
    """p50 and p99 CPU microseconds of ``runs`` calls of ``fn``, each after an untimed ``setup``."""
    fn()
    samples = []
    for _ in range(runs):
        setup()
        t0 = time.process_time()
        fn()
        samples.append((time.process_time() - t0) * 1e6)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(0.99 * len(samples)))]


def main() -> int:
    """Print p50/p99 timings."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=300, help="timed detect() calls per line (verify(): 2/3 of it)")
    args = parser.parse_args()
    runs = args.runs
    print(f"query: {len(QUERY.split())} words, response: {len(RESPONSE.split())} words")
    print(f"load average {os.getloadavg()[0]:.2f}; CPU time (time.process_time)")
    new_text = partial(forget_text, parse=True)
    for label, setup in (
        ("new query, parse cache cold", new_text),
        ("new query, parse warm", partial(forget_text, parse=False)),
        ("same query again (memo)", lambda: None),
    ):
        p50, p99 = _time(lambda: detect(QUERY), runs, setup)
        name = f"detect(): {label}"
        print(f"{name:52} p50 {p50:9.1f} µs   p99 {p99:9.1f} µs   ({len(detect(QUERY))} specs)")
    print("verify(), each call a new response (text-keyed memos and parse cache cleared):")
    total = 0.0
    n = max(runs * 2 // 3, 1)
    for vid in VERIFIER_IDS:
        p50, p99 = _time(lambda vid=vid: verify(vid, PARAMS, RESPONSE), n, new_text)  # type: ignore[misc]
        total += p50
        print(f"{vid:52} p50 {p50:9.1f} µs   p99 {p99:9.1f} µs")
    print(f"{'all verifiers, sum of p50 (new response each)':52}     {total:9.1f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
