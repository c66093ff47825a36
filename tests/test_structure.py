"""The shape of the code: one rule in one place, dependencies one way, no circles, small modules.

Each test here fails if a copy of a rule comes back (a threshold comparison, a list of setting
choices, secret masking, a pluralising helper, a garbage-collector pause) or if the layering breaks.
They read the source with ``ast``; nothing is executed.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentic_core.judges.registry import JUDGES
from agentic_core.judges.runner import CACHE_MODES
from agentic_core.settings import SETTINGS

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "agentic_core"
DASHBOARD = [*sorted((ROOT / "ui").rglob("*.py")), *sorted((ROOT / "pages").rglob("*.py"))]
DASHBOARD += [ROOT / "app.py", ROOT / "dashboard.py"]
PRODUCT = [*sorted(CORE.rglob("*.py")), *DASHBOARD]
MAX_LINES = 500


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@functools.cache
def _tree(path: Path) -> ast.Module:
    # Each file parsed once for the whole module (the tests only read the trees): parsing the ~360 files of the
    # product takes about 1.3 s of CPU, and the tests here read them about fourteen times.
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _names_in(node: ast.AST) -> Iterator[str]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            yield sub.id
        elif isinstance(sub, ast.Attribute):
            yield sub.attr


def test_no_product_module_is_over_500_lines() -> None:
    long = {_rel(p): n for p in PRODUCT if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"split these along their seams: {long}"


def test_only_passing_py_compares_a_score_with_a_threshold() -> None:
    # "score >= threshold" was written five times with three tolerances; now passing.reaches owns it.
    allowed = {"agentic_core/common/passing.py"}
    found = []
    for path in PRODUCT:
        if _rel(path) in allowed:
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Compare) and any(
                isinstance(op, (ast.GtE, ast.Gt, ast.Lt, ast.LtE)) for op in node.ops
            ) and any("threshold" in name.lower() for name in _names_in(node)):
                found.append(f"{_rel(path)}:{node.lineno}")
    assert not found, f"compare with agentic_core.common.passing.reaches instead: {found}"


@functools.cache
def _string_sets(path: Path) -> tuple[tuple[int, frozenset[str]], ...]:
    found = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            values = {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            if values:
                found.append((node.lineno, frozenset(values)))
        elif isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            if keys:
                found.append((node.lineno, frozenset(keys)))
    return tuple(found)


LISTS = {
    **{f"setting {name}": set(spec.choices) for name, spec in SETTINGS.items() if len(spec.choices) > 1},
    "judges": set(JUDGES),
    "cache modes": set(CACHE_MODES),
}
HOMES = {
    "setting unit": {"agentic_core/settings/choices.py", "agentic_core/settings/specs.py"},
    "setting target": {"agentic_core/settings/choices.py", "agentic_core/settings/specs.py"},
    "setting estimator": {"agentic_core/settings/choices.py"},
    "setting mode": {"agentic_core/settings/choices.py"},
    "judges": {"agentic_core/judges/spec.py"},  # none now: each spec class holds its own name
    "cache modes": {"agentic_core/judges/runner.py"},  # the modes and their words, side by side
}


@pytest.mark.parametrize("what", sorted(LISTS))
def test_each_list_of_choices_is_written_once(what: str) -> None:
    choices = LISTS[what]
    copies = [
        f"{_rel(path)}:{line}"
        for path in PRODUCT
        if _rel(path) not in HOMES[what]
        for line, values in _string_sets(path)
        if values >= choices
    ]
    assert not copies, f"derive the {what} from their one home ({HOMES[what]}) instead of listing them: {copies}"


@functools.cache
def _string_constants(path: Path) -> tuple[tuple[int, str], ...]:
    """String constants that reach a reader (docstrings, which only document, left out)."""
    tree = _tree(path)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return tuple(
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    )


@pytest.fixture(scope="module", autouse=True)
def _read_once_per_module() -> Iterator[None]:
    yield
    for cached in (_tree, _string_sets, _string_constants):
        cached.cache_clear()  # about 60 MB of trees, not kept for the rest of the session


@pytest.mark.parametrize(
    ("needle", "home", "why"),
    [
        ("***", "agentic_core/common/secrets.py", "mask secrets with common.secrets.mask_secrets / redact"),
        ("bootstrap over groups", "agentic_core/stats/methods.py", "word interval methods with describe_method"),
        ("Wilson interval", "agentic_core/stats/methods.py", "word interval methods with describe_method"),
    ],
)
def test_wording_and_masking_live_in_one_module(needle: str, home: str, why: str) -> None:
    copies = [
        f"{_rel(path)}:{line}"
        for path in PRODUCT
        if _rel(path) != home
        for line, text in _string_constants(path)
        if needle.lower() in text.lower()
    ]
    assert not copies, f"{why}: {copies}"


@pytest.mark.parametrize(
    ("call", "home"),
    [
        ("gc.disable", "agentic_core/common/gc_control.py"),
        ("gc.freeze", "agentic_core/common/gc_control.py"),
    ],
)
def test_helpers_are_not_copied(call: str, home: str) -> None:
    obj, attr = call.split(".")
    copies = [
        f"{_rel(path)}:{node.lineno}"
        for path in PRODUCT
        if _rel(path) != home
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name)
        and node.value.id == obj
    ]
    assert not copies, f"use {home} instead: {copies}"


def test_each_helper_function_name_is_defined_once_in_the_core() -> None:
    # Two functions named explain (interpretation vs validation) and three _plural once lived here.
    seen: dict[str, set[str]] = {}
    for path in sorted(CORE.rglob("*.py")):
        for node in _tree(path).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("__"):
                seen.setdefault(node.name.lstrip("_"), set()).add(_rel(path))
    # Entry points of ``python -m`` modules are all called main, as the convention wants.
    twins = {name: sorted(where) for name, where in seen.items() if len(where) > 1 and name != "main"}
    assert not twins, f"one function per name, named for what it does: {twins}"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The agentic_core modules ``path`` imports (anywhere in the file, TYPE_CHECKING blocks excepted)."""
    tree = _tree(path)
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in set(_names_in(node.test)):
            skip.update(id(n) for n in ast.walk(node))
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                if child in modules:
                    out.add(child)
                elif node.module in modules:
                    out.add(node.module)
    return out


def test_the_core_has_no_import_circles() -> None:
    files = {_module_name(p): p for p in CORE.rglob("*.py")}
    modules = set(files)
    graph = {name: _imports(path, modules) - {name} for name, path in files.items()}
    # The package's face re-exports the public API; submodules import each other, not the face.
    face = "agentic_core"
    importers_of_face = sorted(m for m, deps in graph.items() if face in deps and m != face)
    assert not importers_of_face, f"import from the defining module, not agentic_core itself: {importers_of_face}"
    graph.pop(face)
    # Depth-first search for a back edge.
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                return [*stack[stack.index(dep) :], dep]
            if dep not in state and (cycle := visit(dep)) is not None:
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for name in sorted(graph):
        if name not in state:
            cycle = visit(name)
            assert cycle is None, f"import circle: {' -> '.join(cycle)}"


def test_the_public_api_is_curated() -> None:
    import agentic_core

    readme_api = {"evaluate", "aggregate", "make_settings", "pass_at_k", "pass_pow_k", "write_exports"}
    assert readme_api <= set(agentic_core.__all__)
    for name in agentic_core.__all__:
        assert getattr(agentic_core, name) is not None
    # The functions, not the submodules of the same name.
    assert callable(agentic_core.evaluate) and callable(agentic_core.aggregate)


def _is_face(module: str) -> bool:
    return ROOT.joinpath(*module.split("."), "__init__.py").is_file()


def _is_module(module: str) -> bool:
    return _is_face(module) or ROOT.joinpath(*module.split(".")).with_suffix(".py").is_file()


def _face_names(face: str) -> set[str]:
    """The names a package's face lists in ``__all__`` (read, not imported)."""
    for node in _tree(ROOT.joinpath(*face.split("."), "__init__.py")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    return set()


def _face_to_use(module: str, name: str) -> str:
    """How to import ``name`` (found in ``module``) through a face: the nearest face above that lists it."""
    parts = module.split(".")
    faces = [f for f in (".".join(parts[:i]) for i in range(len(parts), 0, -1)) if _is_face(f) and f != module]
    for face in faces:
        if name in _face_names(face):
            return f"from {face} import {name}"
    return f"add {name!r} to {faces[0]}'s __all__, then: from {faces[0]} import {name}"


def _deep_imports(tree: ast.Module, where: str) -> Iterator[str]:
    """Each import in ``tree`` (read from ``where``) that reaches past a package face of the core, with the fix."""
    for node in ast.walk(tree):
        at = f"{where}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("agentic_core.") and not _is_face(alias.name):
                    yield f"{at}: import {alias.name} -> {_face_to_use(alias.name, '<name>')}"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("agentic_core"):
            module = node.module or ""
            for alias in node.names:
                if _is_face(f"{module}.{alias.name}"):
                    continue  # a package's face, used as ``face.name``
                if not _is_face(module):
                    yield f"{at}: from {module} import {alias.name} -> {_face_to_use(module, alias.name)}"
                elif alias.name not in _face_names(module):
                    # A submodule, or a name the face holds without listing it: both bypass the curated face.
                    child = f"{module}.{alias.name}"
                    what = "a module behind the face" if _is_module(child) else "not in its __all__"
                    yield f"{at}: from {module} import {alias.name} ({what}) -> {_face_to_use(child, alias.name)}"


def test_the_dashboard_imports_the_core_only_through_package_faces() -> None:
    # The dashboard (ui/, pages/, app.py, dashboard.py) sees the core through each package's __init__ and its
    # __all__: a module can then move or split inside its package without touching a page.
    deep = [line for path in DASHBOARD for line in _deep_imports(_tree(path), _rel(path))]
    assert not deep, "import from the package's face, not the module behind it:\n" + "\n".join(deep)


def test_a_deep_import_is_reported_with_the_face_to_use() -> None:
    source = (
        "from agentic_core.judges.registry import build_judge\n"
        "from agentic_core.judges import registry, JUDGES\n"
        "from agentic_core import judges\n"
        "import agentic_core.io.loader\n"
        "def later():\n"
        "    from agentic_core.errors import AgenticError\n"
        "from agentic_core.io import load_paths\n"
    )
    assert list(_deep_imports(ast.parse(source), "page.py")) == [
        "page.py:1: from agentic_core.judges.registry import build_judge -> "
        "from agentic_core.judges import build_judge",
        "page.py:2: from agentic_core.judges import registry (a module behind the face) -> "
        "add 'registry' to agentic_core.judges's __all__, then: from agentic_core.judges import registry",
        "page.py:4: import agentic_core.io.loader -> "
        "add '<name>' to agentic_core.io's __all__, then: from agentic_core.io import <name>",
        "page.py:6: from agentic_core.errors import AgenticError -> from agentic_core import AgenticError",
    ]


def _own_face_imports(tree: ast.Module, package: str) -> Iterator[str]:
    """Names a module of ``package`` takes from its own package's face (or a face above it in the core)."""
    parts = package.split(".")
    own = {".".join(parts[:i]) for i in range(2, len(parts) + 1)}  # agentic_core itself: the circle test's rule
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in own:
            for alias in node.names:
                if not _is_module(f"{node.module}.{alias.name}"):  # a submodule object is imported directly
                    yield f"{node.lineno}: from {node.module} import {alias.name}"


def test_modules_import_their_siblings_not_their_own_face() -> None:
    # While a package's face runs, its names are only partly there: a module the face loads that reads a
    # name back from that face fails, or not, depending on which module was imported first.
    found = [
        f"{_rel(path)}:{line}"
        for path in sorted(CORE.rglob("*.py"))
        if path.name != "__init__.py"
        for line in _own_face_imports(_tree(path), ".".join(path.relative_to(ROOT).parent.parts))
    ]
    assert not found, "import from the module that defines the name, not the package's face:\n" + "\n".join(found)


def test_an_import_through_the_own_face_is_found() -> None:
    tree = ast.parse("from agentic_core.judges import build_judge, registry\nfrom agentic_core.io import load_paths\n")
    assert list(_own_face_imports(tree, "agentic_core.judges")) == ["1: from agentic_core.judges import build_judge"]
