"""``python -m faithguard``."""

from faithguard.cli import main

raise SystemExit(main())
