"""The shared pipeline's matrix products on numpy's BLAS give the annotations the blis default gives."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from faithguard import nlp

TEXTS = (
    "Write a 300-word essay about the decline of the Roman Empire and do not use any commas.",
    "Marie Curie moved to Paris in 1891. She studied physics at the Sorbonne with Pierre Curie.",
    "## Step 1: Prepare the dough\n- Mix 500 g of flour with water.\n- Rest it for 2 hours, then bake at 220 C.",
    "Is the Quantoplexic Resonance Drive used by NASA in the Artemis program? Explain briefly.",
)


def _annotations(doc: Any) -> list[tuple[object, ...]]:
    return [(t.tag_, t.pos_, t.dep_, t.head.i, t.lemma_, t.ent_iob_, t.ent_type_, t.is_sent_start) for t in doc]


def _blis_pipeline() -> Any:
    name = nlp.loaded_model_name() or nlp.MODEL_CANDIDATES[-1]
    fresh = importlib.import_module(name).load()
    from faithguard.nlp_rules import index_attribute_ruler

    index_attribute_ruler(fresh)
    return fresh


def _uses_blis(pipeline: Any) -> set[bool]:
    return {
        bool(getattr(node.ops, "use_blis", False))
        for name in pipeline.component_names
        if getattr(pipeline.get_pipe(name), "model", None) is not None
        for node in pipeline.get_pipe(name).model.walk()
    }


@pytest.mark.parametrize("asked", ["numpy", "blis"])
def test_the_shared_pipeline_loads_on_the_chosen_library(monkeypatch: pytest.MonkeyPatch, asked: str) -> None:
    monkeypatch.setenv("FAITHGUARD_SPACY_BLAS", asked)
    monkeypatch.setattr(nlp, "_nlp", None)  # load a fresh one; the process's pipeline comes back afterwards
    loaded = nlp.get_nlp()
    if asked == "numpy":
        assert _uses_blis(loaded) == {False}
        blis = _blis_pipeline()
        for text in TEXTS:
            assert _annotations(loaded(text)) == _annotations(blis(text))
    else:
        assert True in _uses_blis(loaded)


def test_switching_a_pipeline_changes_every_layer() -> None:
    fresh = _blis_pipeline()
    before = [_annotations(fresh(t)) for t in TEXTS]
    nlp.use_numpy_blas(fresh)
    assert _uses_blis(fresh) == {False}
    assert [_annotations(fresh(t)) for t in TEXTS] == before


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"FAITHGUARD_SPACY_BLAS": "blis", "OMP_NUM_THREADS": "1"}, "blis"),
        ({"FAITHGUARD_SPACY_BLAS": "numpy"}, "numpy"),
        ({"OMP_NUM_THREADS": "1"}, "numpy"),
        ({"OPENBLAS_NUM_THREADS": "1"}, "numpy"),
        ({"OMP_NUM_THREADS": "4"}, "blis"),
        # OpenBLAS reads its own variable first: a threaded OpenBLAS stays on blis whatever OMP says
        ({"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "16"}, "blis"),
        ({}, "blis"),
    ],
)
def test_numpy_blas_only_when_asked_or_single_threaded(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: str
) -> None:
    for name in ("FAITHGUARD_SPACY_BLAS", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert nlp.blas_choice() == expected
