"""Which library should multiply the spaCy model's matrices: blis (thinc's default) or numpy's BLAS?

Loads the faithguard model twice, one copy left on blis and one switched by ``faithguard.nlp.use_numpy_blas``,
parses every request and every answer of the dev traffic (``benchmarks/traffic.py``, both split parts) with
both, and prints how many texts differ in any annotation (tag, part of speech, arc, lemma, entity, sentence
start) and the CPU time per text of each (every pipe, NER included). No dev text is printed.

Run it single-threaded as the guard runs (``OMP_NUM_THREADS=1``: a threaded OpenBLAS spins helper threads and
costs far more CPU, see ``faithguard.nlp.blas_choice``); the process pins itself to one core like
``bench_check.py``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _machine import load_line, machine, pin_to_one_core
from traffic import default_data, load_traffic


def _annotations(doc: Any) -> list[tuple[object, ...]]:
    return [(t.tag_, t.pos_, t.dep_, t.head.i, t.lemma_, t.ent_iob_, t.ent_type_, t.is_sent_start) for t in doc]


def _pipeline(numpy_blas: bool) -> Any:
    from faithguard import nlp
    from faithguard.nlp_rules import index_attribute_ruler

    for name in nlp.MODEL_CANDIDATES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        loaded = module.load()
        index_attribute_ruler(loaded)
        if numpy_blas:
            nlp.use_numpy_blas(loaded)
        return loaded
    raise SystemExit("no spaCy English model installed")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data(), help="the shared dev sets (default ../shared/data)")
    args = ap.parse_args()
    print(f"machine: {machine()}")
    print(f"CPU pinning: {pin_to_one_core()}")
    print(f"load at start: {load_line()}")
    print(", ".join(f"{v}={os.environ.get(v, '(unset)')}" for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")))
    calls, missing = load_traffic(args.data)
    if not calls:
        print(f"no traffic under {args.data}: pass --data (the shared dev sets)")
        return 1
    if missing:
        print(f"dev sets missing under {args.data}: {', '.join(missing)}")
    texts = [c.query for c in calls] + [c.response for c in calls]
    parts = [c.part for c in calls] * 2
    blis, numpy_blas = _pipeline(False), _pipeline(True)
    reference: list[list[tuple[object, ...]]] = []
    for label, pipe in (("blis", blis), ("numpy", numpy_blas)):
        for text in texts[:10]:  # warm both the same way
            pipe(text)
        c0 = time.process_time()
        docs = [pipe(text) for text in texts]
        cpu = (time.process_time() - c0) * 1000 / len(texts)
        print(f"{label:<6} {len(texts)} texts (every query and answer), CPU {cpu:.2f} ms/text")
        if not reference:
            reference = [_annotations(d) for d in docs]
            continue
        for part in ("study", "holdout"):
            chosen = [i for i, p in enumerate(parts) if p == part]
            differ = sum(_annotations(docs[i]) != reference[i] for i in chosen)
            print(f"  part={part:<8} texts with any annotation unlike blis: {differ} of {len(chosen)}")
    print(f"load at end: {load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
