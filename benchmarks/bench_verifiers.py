"""Time detect() on a 60-word query and verify() for every verifier on a 400-word response.

Usage: PYTHONPATH=src python benchmarks/bench_verifiers.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from faithguard.verifiers import VERIFIER_IDS, detect, verify

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


def _time(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    fn()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e6)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(0.99 * len(samples)))]


def main() -> int:
    """Print p50/p99 timings."""
    print(f"query: {len(QUERY.split())} words, response: {len(RESPONSE.split())} words")
    p50, p99 = _time(lambda: detect(QUERY), 300)
    print(f"{'detect()':44} p50 {p50:9.1f} µs   p99 {p99:9.1f} µs   ({len(detect(QUERY))} specs)")
    total = 0.0
    for vid in VERIFIER_IDS:
        p50, p99 = _time(lambda vid=vid: verify(vid, PARAMS, RESPONSE), 200)  # type: ignore[misc]
        total += p50
        print(f"{vid:44} p50 {p50:9.1f} µs   p99 {p99:9.1f} µs")
    print(f"{'all verifiers, sum of p50':44}     {total:9.1f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
