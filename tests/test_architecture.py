"""The layering of docs/architecture.md, checked on the source: what may import what, no import
cycle between modules, no module past 600 lines. Imports inside functions count for the layer
rules (a lazy import is still a dependency) but not for cycles (they run after both modules loaded)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "awrscope"

# layer -> layers it must never import (first component under awrscope)
FORBIDDEN = {
    "numfmt": {"oracle", "parsers", "metrics", "rules", "analysis", "change", "whatif", "render", "store", "web", "cli",
               "loader", "serialize", "model", "ledger", "trace", "mcp", "redact"},
    "oracle": {"parsers", "metrics", "rules", "analysis", "change", "whatif", "render", "store", "web", "cli",
               "loader", "serialize", "model"},
    "model": {"parsers", "metrics", "rules", "render", "store", "web", "cli"},
    "parsers": {"metrics", "rules", "analysis", "change", "render", "store", "web", "cli"},
    "metrics": {"parsers", "rules", "render", "store", "web", "cli"},
    "rules": {"parsers", "render", "store", "web", "cli"},
    "whatif": {"parsers", "render", "store", "web", "cli"},
    "analysis": {"render", "store", "web", "cli"},
    "change": {"render", "store", "web", "cli"},  # compare, trend, decompose, sql, whatif_check
    "ledger": {"parsers", "rules", "render", "store", "web", "cli"},
    # the one reading of the window sits below the rules: they read it, it never reads them
    "assessment": {"parsers", "rules", "analysis", "change", "render", "store", "web", "cli"},
    "render": {"store", "web", "cli", "parsers"},
    "store": {"web", "cli"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def _imports(name: str, path: Path, top_level_only: bool) -> set[str]:
    """The awrscope modules ``name`` imports (resolved to a module, not to the name inside it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("awrscope"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                mod = ".".join(base[:len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if not mod.startswith("awrscope"):
                continue
            for a in node.names:
                out.add(f"{mod}.{a.name}" if f"{mod}.{a.name}" in MODULES else mod)
    return {m for m in out if m in MODULES and m != name}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_modules_are_found():
    assert "awrscope.parsers.report.html" in MODULES and "awrscope.oracle.events" in MODULES


@pytest.mark.parametrize("name", sorted(MODULES))
def test_layer_rules(name):
    bad = {m for m in _imports(name, MODULES[name], top_level_only=False)
           if _layer(m) in FORBIDDEN.get(_layer(name), set())}
    assert not bad, f"{name} imports {sorted(bad)} (docs/architecture.md: what may import what)"


def test_no_import_cycle():
    graph = {n: _imports(n, p, top_level_only=True) for n, p in MODULES.items()}
    # a package's __init__ importing its own submodules is how packages work, not a cycle
    graph = {n: {m for m in deps if not m.startswith(n + ".")} for n, deps in graph.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> None:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1:
                raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(m):] + [m]))
            if m not in state:
                visit(m)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)


def test_no_module_past_600_lines():
    long = {n: len(p.read_text(encoding="utf-8").splitlines()) for n, p in MODULES.items()}
    assert {n: k for n, k in long.items() if k > 600} == {}


def test_the_cycle_detector_sees_a_cycle(tmp_path, monkeypatch):
    """The checker itself: two modules importing each other are reported."""
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from awrscope import b_mod\n")
    b.write_text("from awrscope import a_mod\n")
    monkeypatch.setitem(MODULES, "awrscope.a_mod", a)
    monkeypatch.setitem(MODULES, "awrscope.b_mod", b)
    monkeypatch.setattr("test_architecture._module_name", lambda p: p)
    with pytest.raises(AssertionError, match="import cycle"):
        test_no_import_cycle()


def test_benchmark_imports_what_exists():
    """bench/run.py reaches into the parser's stages: a move of a module must not break it silently."""
    import subprocess
    import sys

    bench = Path(__file__).resolve().parents[1] / "bench" / "run.py"
    res = subprocess.run([sys.executable, str(bench), "--help"], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-2000:]


def test_forkserver_preload_names_real_modules():
    """The web worker preloads modules by name; multiprocessing skips a missing one silently."""
    import importlib

    from awrscope.web.worker import _PRELOAD

    for name in _PRELOAD:
        importlib.import_module(name)
