"""``python -m faithguard``."""

from faithguard.cli import console

raise SystemExit(console())
