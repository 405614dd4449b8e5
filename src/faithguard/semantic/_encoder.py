"""A numpy-only sentence encoder for BERT-style MiniLM checkpoints (safetensors + tokenizer.json).

The forward pass is the standard BERT encoder (post-LayerNorm, GELU, absolute positions)
followed by attention-masked mean pooling and L2 normalisation, which is how
all-MiniLM-L6-v2 was trained to be used (its ``1_Pooling/config.json``: mean tokens).
No torch, no onnxruntime: numpy for the maths and ``tokenizers`` for WordPiece.
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Encoder", "load_safetensors"]

F32 = npt.NDArray[np.float32]

_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64, "I32": np.int32}


def load_safetensors(path: Path) -> dict[str, npt.NDArray[Any]]:
    """Map a .safetensors file (8-byte header length, JSON header, raw little-endian data) into read-only
    arrays. The file is memory-mapped, not read: loading is fast and untouched rows (most of the
    30k-word embedding table) never enter memory; the pages are shared between processes."""
    with path.open("rb") as fh:
        (n,) = struct.unpack("<Q", fh.read(8))
        header = json.loads(fh.read(n))
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    base = 8 + n
    out: dict[str, npt.NDArray[Any]] = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES.get(spec["dtype"])
        if dtype is None:
            continue
        start, end = spec["data_offsets"]
        arr = np.frombuffer(raw, dtype=dtype, count=(end - start) // np.dtype(dtype).itemsize, offset=base + start)
        out[name] = arr.reshape(spec["shape"])
    return out


def _layer_norm(x: F32, w: F32, b: F32, eps: float) -> F32:
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return ((x - mu) / np.sqrt(var + eps)) * w + b  # type: ignore[no-any-return]


def _gelu(x: F32) -> F32:
    # GELU in its tanh form (Hendrycks & Gimpel 2016, eq. for the fast approximation): within 5e-4 of
    # x * Phi(x), five times cheaper in numpy than an erf series (it was 40% of the forward pass).
    y = x * x
    y *= np.float32(0.044715)
    y += np.float32(1.0)
    y *= x
    y *= np.float32(math.sqrt(2.0 / math.pi))
    np.tanh(y, out=y)
    y += np.float32(1.0)
    y *= x
    y *= np.float32(0.5)
    return y


class Encoder:
    """Sentence embeddings from a BERT checkpoint directory (``config.json``, ``model.safetensors``,
    ``tokenizer.json``)."""

    def __init__(self, model_dir: Path, *, max_tokens: int = 128) -> None:
        from tokenizers import Tokenizer

        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        self.hidden = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.max_tokens = min(max_tokens, int(config.get("max_position_embeddings", 512)))
        w = load_safetensors(model_dir / "model.safetensors")
        # float32 checkpoints stay memory-mapped (astype copies only other float types).
        self._w = {k: v.astype(np.float32, copy=False) for k, v in w.items() if v.dtype != np.int64}
        # torch stores dense kernels out x in: ``x @ w.T`` hands BLAS the transposed view, no copy.
        # Q, K and V are fused into one kernel (one copy of 3 x 384 x 384 floats per layer).
        self._qkv: list[tuple[F32, F32]] = []
        self._dense: list[dict[str, F32]] = []
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            att = p + "attention.self."
            kernel = np.concatenate([self._w[att + n + ".weight"].T for n in ("query", "key", "value")], axis=1)
            bias = np.concatenate([self._w[att + n + ".bias"] for n in ("query", "key", "value")])
            self._qkv.append((kernel, bias))
            self._dense.append(
                {
                    "ao_w": self._w[p + "attention.output.dense.weight"].T,
                    "ao_b": self._w[p + "attention.output.dense.bias"],
                    "ln1_w": self._w[p + "attention.output.LayerNorm.weight"],
                    "ln1_b": self._w[p + "attention.output.LayerNorm.bias"],
                    "in_w": self._w[p + "intermediate.dense.weight"].T,
                    "in_b": self._w[p + "intermediate.dense.bias"],
                    "out_w": self._w[p + "output.dense.weight"].T,
                    "out_b": self._w[p + "output.dense.bias"],
                    "ln2_w": self._w[p + "output.LayerNorm.weight"],
                    "ln2_b": self._w[p + "output.LayerNorm.bias"],
                }
            )
        self._tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._tok.no_padding()
        self._tok.enable_truncation(self.max_tokens)

    #: Characters of a text handed to the tokenizer per token of budget (WordPiece averages ~4-5
    #: characters per token in English; 8 leaves room), so a long answer is not tokenised in full.
    _CHARS_PER_TOKEN = 8

    @property
    def dim(self) -> int:
        """Embedding width."""
        return self.hidden

    def ids(self, texts: Sequence[str], max_tokens: int | None = None) -> list[list[int]]:
        """WordPiece ids with [CLS]/[SEP], cut to ``max_tokens`` (default: the encoder's) keeping [SEP]."""
        limit = max(3, min(max_tokens or self.max_tokens, self.max_tokens))
        head = [t[: limit * self._CHARS_PER_TOKEN] for t in texts]
        out = []
        for enc in self._tok.encode_batch(head):
            ids = list(enc.ids)
            out.append(ids if len(ids) <= limit else ids[: limit - 1] + ids[-1:])
        return out

    def encode(self, texts: Sequence[str], max_tokens: int | None = None) -> F32:
        """Unit-length embeddings, one row per text, each text cut to ``max_tokens`` WordPiece tokens.

        Texts are run in batches of similar length (padding is masked out of attention and pooling).
        """
        if not texts:
            return np.zeros((0, self.hidden), dtype=np.float32)
        ids = self.ids(texts, max_tokens)
        out = np.zeros((len(texts), self.hidden), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for start in range(0, len(order), 16):
            chunk = order[start : start + 16]
            out[chunk] = self._forward([ids[i] for i in chunk])
        return out

    def _forward(self, batch: list[list[int]]) -> F32:
        n = max(len(x) for x in batch)
        ids = np.zeros((len(batch), n), dtype=np.int64)
        mask = np.zeros((len(batch), n), dtype=np.float32)
        for row, seq in enumerate(batch):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1.0
        w = self._w
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n]
        x = x + w["embeddings.token_type_embeddings.weight"][0]
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        b, h, d = len(batch), self.heads, self.hidden // self.heads
        neg = ((1.0 - mask) * -1e9)[:, None, None, :]
        scale = 1.0 / math.sqrt(d)
        for (kernel, bias), p in zip(self._qkv, self._dense, strict=True):
            qkv = x @ kernel + bias
            q, k, v = (qkv[..., i * self.hidden : (i + 1) * self.hidden] for i in range(3))
            q = q.reshape(b, n, h, d).transpose(0, 2, 1, 3)
            k = k.reshape(b, n, h, d).transpose(0, 2, 3, 1)
            v = v.reshape(b, n, h, d).transpose(0, 2, 1, 3)
            scores = (q @ k) * scale + neg
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores /= scores.sum(axis=-1, keepdims=True)
            ctx = (scores @ v).transpose(0, 2, 1, 3).reshape(b, n, self.hidden)
            x = _layer_norm(ctx @ p["ao_w"] + p["ao_b"] + x, p["ln1_w"], p["ln1_b"], self.eps)
            inner = _gelu(x @ p["in_w"] + p["in_b"])
            x = _layer_norm(inner @ p["out_w"] + p["out_b"] + x, p["ln2_w"], p["ln2_b"], self.eps)
        pooled = (x * mask[..., None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1.0)
        norm = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norm, 1e-12)).astype(np.float32)  # type: ignore[no-any-return]
