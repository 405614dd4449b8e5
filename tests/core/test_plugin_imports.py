"""Layering: no built-in plugin imports another built-in plugin, and core imports none.

The walk reads every module under ``src/faithguard`` with :mod:`ast` (nothing is imported) and collects
each ``import``/``from`` statement, wherever it stands (module level, inside a function, under
``TYPE_CHECKING``), and each ``importlib.import_module("...")`` call with a literal name. A built-in plugin
package is the package of a module in :data:`faithguard.plugins.DEFAULT_PLUGINS`; core is every module
outside them. Resources several plugins read live in core (``faithguard.lexical``).

An edge that must exist on purpose is listed in ``ALLOWED`` with the reason (none today); an edge listed there that
no longer exists fails too, so the list cannot outlive the code.
"""

from __future__ import annotations

import ast
from pathlib import Path

import faithguard
from faithguard.plugins import DEFAULT_PLUGINS

SRC = Path(faithguard.__file__).resolve().parent
PLUGIN_PACKAGES = frozenset(name.rsplit(".", 1)[0] for name in DEFAULT_PLUGINS)

#: (importing module, imported package) -> why the edge is there. Empty: the judge reaches the guard
#: through ``register_judge_resolvers`` and ``faithguard.judging``, the verifiers reach the engine through
#: ``register_verifier_runtime`` and ``faithguard.verification``.
ALLOWED: dict[tuple[str, str], str] = {}


def module_name(path: Path, root: Path = SRC) -> str:
    """``faithguard.a.b`` for ``root/a/b.py`` (a package's ``__init__`` is the package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([root.name, *parts])


def imported_names(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every module name ``source`` imports, relative imports resolved against ``module``."""
    names: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)  # "from faithguard import judge"
        elif isinstance(node, ast.Call) and _is_import_module(node.func) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                names.add(first.value)
    return names


def _is_import_module(func: ast.expr) -> bool:
    if isinstance(func, ast.Attribute):
        return func.attr == "import_module"
    return isinstance(func, ast.Name) and func.id == "import_module"


def owner(module: str) -> str | None:
    """The built-in plugin package ``module`` belongs to (None for core and for other packages)."""
    for package in PLUGIN_PACKAGES:
        if module == package or module.startswith(package + "."):
            return package
    return None


def layering_edges(root: Path = SRC) -> set[tuple[str, str]]:
    """(importing module, imported plugin package) for every import that crosses into another plugin."""
    edges: set[tuple[str, str]] = set()
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        mine = owner(module)
        for name in imported_names(path.read_text(encoding="utf-8"), module, path.name == "__init__.py"):
            target = owner(name)
            if target is not None and target != mine:
                edges.add((module, target))
    return edges


def test_no_plugin_imports_another_plugin_and_core_imports_none() -> None:
    found = layering_edges()
    assert found - set(ALLOWED) == set()


def test_every_allowed_edge_still_exists() -> None:
    assert set(ALLOWED) - layering_edges() == set()


def test_the_plugin_packages_are_the_built_ins() -> None:
    assert {"faithguard.inputs", "faithguard.terms", "faithguard.verifiers", "faithguard.engine"} <= PLUGIN_PACKAGES
    assert owner("faithguard.lexical.wordnet") is None
    assert owner("faithguard.terms.sources") == "faithguard.terms"
    assert owner("faithguard.termsx") is None


def test_the_walk_sees_every_form_of_import() -> None:
    source = (
        "import faithguard.verifiers.text\n"
        "from faithguard.terms import sources\n"
        "from faithguard import judge\n"
        "from ..inputs.vocab import kind_of\n"
        "def f():\n"
        "    from faithguard.engine.lexicon import words\n"
        "    return importlib.import_module('faithguard.semantic')\n"
    )
    names = imported_names(source, "faithguard.terms.extract")
    assert {owner(n) for n in names} - {None} == {
        "faithguard.verifiers",
        "faithguard.terms",
        "faithguard.judge",
        "faithguard.inputs",
        "faithguard.engine",
        "faithguard.semantic",
    }


def test_a_core_module_and_a_plugin_module_are_told_apart(tmp_path: Path) -> None:
    root = tmp_path / "faithguard"
    (root / "terms").mkdir(parents=True)
    (root / "lexical").mkdir()
    (root / "terms" / "extract.py").write_text("from faithguard.lexical.frequency import zipf\n")
    (root / "lexical" / "frequency.py").write_text("from faithguard.terms import sources\n")
    assert layering_edges(root) == {("faithguard.lexical.frequency", "faithguard.terms")}
