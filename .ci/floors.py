"""Print pip requirements pinning every core dependency of pyproject.toml to its declared floor.

``a>=1.2,<2`` becomes ``a==1.2``; ``a==1`` stays. Used by ``.ci/run`` to test the declared minimums.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

project = tomllib.loads(Path(sys.argv[1] if len(sys.argv) > 1 else "pyproject.toml").read_text())["project"]
for dep in project["dependencies"]:
    name = re.split(r"[<>=!~\[ ;]", dep, maxsplit=1)[0]
    floor = re.search(r"(?:>=|==|~=)\s*([^,;\s]+)", dep)
    print(f"{name}=={floor.group(1)}" if floor else name)
