"""The package installs like any Python tool (issue 26).

Fast checks: pyproject.toml lists every package of ``agentic_core`` (a missing one would silently be left out
of the wheel), declares every pin of requirements.txt with a range that holds the pin, and the console script
points at a function that exists.

The smoke test builds the wheel from a copy of the sources (no network: this venv's setuptools, no build
isolation), installs it into a fresh venv in a temporary folder and, from another folder, runs
``agentic-eval --help``, ``agentic-eval evaluate`` on a built-in sample, the Python API and ``agentic-eval
dashboard`` (headless, until Streamlit answers). The fresh venv gets the wheel alone; the dependencies come
from this project's .venv through a ``.pth`` line placed after the venv's own site-packages, so the installed
``agentic_core`` is the one imported (checked) and nothing is downloaded: the pinned lock is what CI installs,
and the range check above ties it to the declared dependencies.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest
import tomllib
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# What the wheel is built from: the sources and the files they read at run time.
SOURCES = ("pyproject.toml", "README.md", "app.py", "dashboard.py", ".streamlit", "agentic_core", "ui", "pages",
           "sample_data")


def _pins(name: str) -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-r"):
            req = Requirement(line)
            (spec,) = req.specifier
            pins[req.name.lower()] = spec.version
    return pins


def test_every_agentic_core_package_is_in_the_wheel() -> None:
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "agentic_core").rglob("__init__.py")
    }
    assert found - listed == set(), "add these packages to [tool.setuptools] packages in pyproject.toml"
    mapped = PYPROJECT["tool"]["setuptools"]["package-dir"]
    for package in listed - found:
        assert package in mapped, f"{package} is listed but neither found nor mapped to a folder"
        assert (ROOT / mapped[package]).is_dir()
    # The dashboard lands under one directory; no top-level ui / pages package reaches site-packages.
    assert not {p for p in listed if p.split(".")[0] in {"ui", "pages"}}


def test_requirements_pins_are_declared_with_ranges_that_hold_them() -> None:
    declared = {Requirement(d).name.lower(): Requirement(d) for d in PYPROJECT["project"]["dependencies"]}
    pins = _pins("requirements.txt")
    assert set(pins) == set(declared), "requirements.txt and pyproject dependencies name different packages"
    for name, version in pins.items():
        assert declared[name].specifier.contains(version), f"{name}=={version} is outside {declared[name]}"
    extras = PYPROJECT["project"]["optional-dependencies"]
    ray = Requirement(extras["ray"][0])
    assert ray.specifier.contains(_pins("requirements-ray.txt")["ray"])
    dev = {Requirement(d).name.lower(): Requirement(d) for d in extras["dev"]}
    for name, version in _pins("requirements-dev.txt").items():
        if name in dev:
            assert dev[name].specifier.contains(version), f"{name}=={version} is outside {dev[name]}"


def test_provider_extras_name_the_versions_the_app_suggests() -> None:
    from agentic_core.judges.llm.providers import PROVIDERS

    extras = PYPROJECT["project"]["optional-dependencies"]
    for name in ("anthropic", "google", "ollama"):
        spec = PROVIDERS[name]
        (req,) = (Requirement(r) for r in extras[name])
        assert req.name == spec.package and req.specifier.contains(spec.version), (name, req)


def test_console_script_is_the_cli_with_its_own_name(capsys: pytest.CaptureFixture[str]) -> None:
    module, _, attr = PYPROJECT["project"]["scripts"]["agentic-eval"].partition(":")
    entry = getattr(importlib.import_module(module), attr)
    argv = sys.argv
    sys.argv = ["agentic-eval", "--help"]
    try:
        with pytest.raises(SystemExit) as stop:
            entry()
    finally:
        sys.argv = argv
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: agentic-eval ")
    for command in ("evaluate", "serve", "runs", "calibrate", "compare", "dashboard"):
        assert command in out


def _ruff(folder: Path) -> subprocess.CompletedProcess[str]:
    """``ruff check .`` in ``folder``, with the pyproject.toml found there."""
    return subprocess.run([sys.executable, "-m", "ruff", "check", ".", "--no-cache", "--output-format", "concise"],
                          cwd=folder, capture_output=True, text=True, timeout=120, check=False)


def test_what_building_leaves_in_a_clone_is_ignored_by_ruff_and_git(tmp_path: Path) -> None:
    # `pip install .` and `pip wheel .` leave build/ (copies of the sources, outside ruff's per-file rules: the
    # dashboard's copies failed the lint with 200 banned imports), `python -m build` leaves dist/.
    shutil.copy2(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    page = (ROOT / "pages" / "run.py").read_text(encoding="utf-8")  # imports streamlit and ui: banned elsewhere
    for where in ("build/lib/agentic_dashboard/pages", "dist/unpacked"):
        (tmp_path / where).mkdir(parents=True)
        (tmp_path / where / "run.py").write_text(page, encoding="utf-8")
    done = _ruff(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    # The same file anywhere else fails the lint: the exclusion is what lets the copies pass.
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "run.py").write_text(page, encoding="utf-8")
    done = _ruff(tmp_path)
    assert done.returncode == 1 and "elsewhere/run.py" in done.stdout and "build/" not in done.stdout, done.stdout
    if (ROOT / ".git").exists() and shutil.which("git"):  # a clone (not an unpacked source archive)
        for path in ("build/lib/agentic_core/evaluate.py", "dist/agentic_workbench-1.0-py3-none-any.whl"):
            ignored = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, check=False)
            assert ignored.returncode == 0, f"{path} is not ignored by git"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, f"{cmd} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """(venv bin folder, a folder outside the checkout, environment) with the wheel installed."""
    base = tmp_path_factory.mktemp("package")
    src = base / "src"
    src.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=skip)
        else:
            shutil.copy2(path, src / name)
    dist = base / "dist"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(dist),
          str(src)], base, env)
    (wheel,) = dist.glob("agentic_workbench-*.whl")
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], base, env)
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", "--no-index",
          str(wheel)], base, env)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # The dependencies: this project's venv, after the fresh venv's own site-packages (see the module docstring).
    Path(site, "zz_project_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    env.update(AGENTIC_CACHE_PATH=str(base / "cache.sqlite3"), AGENTIC_RUNS_PATH=str(base / "runs.sqlite3"),
               HOME=str(base / "home"))
    return venv / "bin", elsewhere, env


@pytest.mark.slow
def test_installed_command_evaluates_a_built_in_sample_from_another_folder(
    installed: tuple[Path, Path, dict[str, str]],
) -> None:
    bin_dir, elsewhere, env = installed
    help_text = _run([str(bin_dir / "agentic-eval"), "--help"], elsewhere, env).stdout
    assert "dashboard" in help_text and "evaluate" in help_text
    where = _run([str(bin_dir / "python"), "-c", "import agentic_core.io.samples as s, agentic_core as a; "
                  "print(a.__file__); print(s.SAMPLES['support'].path)"], elsewhere, env).stdout.split()
    assert where[0].startswith(str(bin_dir.parent)), f"agentic_core imported from {where[0]}, not the venv"
    sample = Path(where[1])
    assert sample.is_file() and sample.is_relative_to(bin_dir.parent), sample
    out = _run([str(bin_dir / "agentic-eval"), "evaluate", str(sample), "--json", "--no-progress", "--no-save"],
               elsewhere, env).stdout
    document = json.loads(out)
    assert document["curve"] and document["conversations"]


@pytest.mark.slow
def test_installed_python_api_evaluates_from_another_folder(installed: tuple[Path, Path, dict[str, str]]) -> None:
    bin_dir, elsewhere, env = installed
    code = (
        "from agentic_core import evaluate, aggregate, make_settings\n"
        "from agentic_core.io.samples import SAMPLES\n"
        "from agentic_core.judges.packs import pack_path\n"
        "assert pack_path().is_file(), pack_path()\n"
        "result = evaluate(SAMPLES['travel'].path, 'hybrid')\n"
        "agg = aggregate(result, make_settings(k=2))\n"
        "print(result.n_conversations, agg.success_rate.value, agg.headline.pass_at_k)\n"
    )
    n, value, at_k = _run([str(bin_dir / "python"), "-c", code], elsewhere, env).stdout.split()
    # Travel has one attempt per task: the success rate is measured, pass@2 is not (issue 36).
    assert int(n) > 0 and 0.0 <= float(value) <= 1.0 and at_k == "None"


@pytest.mark.slow
def test_installed_dashboard_starts_from_another_folder(installed: tuple[Path, Path, dict[str, str]]) -> None:
    bin_dir, elsewhere, env = installed
    # A folder named ui where the command is typed must not stand in for the dashboard's own.
    (elsewhere / "ui").mkdir(exist_ok=True)
    (elsewhere / "ui" / "__init__.py").write_text("raise ImportError('the working directory ui was imported')\n")
    port = _free_port()
    log = elsewhere.parent / "dashboard.log"
    with log.open("w") as sink:
        child = subprocess.Popen([str(bin_dir / "agentic-eval"), "dashboard", "--headless", "--port", str(port)],
                                 cwd=elsewhere, env=env, stdout=sink, stderr=subprocess.STDOUT,
                                 start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            assert child.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail(f"no answer on port {port} within 90 s:\n{log.read_text()}")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
            assert page.status == 200
        text = log.read_text()
        # The lifespan's preload ran in the installed app: it imported ui and evaluated the built-in sample.
        assert re.search(r"launch: .* conversations evaluated by", text), text
        assert "Traceback" not in text, text
        # Stopping the command (SIGTERM to it alone, as a service manager does) stops the Streamlit server too.
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=30)
        deadline = time.monotonic() + 20
        while _group_alive(child.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _group_alive(child.pid), "the Streamlit server outlived agentic-eval dashboard"
    finally:
        if _group_alive(child.pid):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait(timeout=20)


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.slow
def test_building_then_linting_in_one_clone_passes(installed: tuple[Path, Path, dict[str, str]]) -> None:
    # The wheel was built in place from src/ (the sources and this pyproject.toml), so src/ now holds what
    # building leaves in a clone.
    src = installed[1].parent / "src"
    assert (src / "build" / "lib" / "agentic_dashboard").is_dir()
    done = _ruff(src)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr


@pytest.mark.slow
def test_the_wheel_holds_every_file_the_code_reads_at_run_time(installed: tuple[Path, Path, dict[str, str]]) -> None:
    # The page icon, the judges' data (tokenizer, learned weights) and the built-in samples: a file left out
    # only shows in an installed copy (a broken icon, a judge that cannot load).
    bin_dir, _, env = installed
    site = Path(
        subprocess.run(
            [str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True, text=True, check=True, env=env,
        ).stdout.strip()
    )
    wanted = {
        "agentic_dashboard/ui/static": ROOT / "ui" / "static",
        "agentic_core/judges/offline/data": ROOT / "agentic_core" / "judges" / "offline" / "data",
    }
    for where, source in wanted.items():
        names = {p.name for p in source.iterdir() if p.is_file()}
        assert names and names <= {p.name for p in (site / where).iterdir()}, where
    samples = {p.name for p in (ROOT / "sample_data").iterdir() if p.suffix in (".json", ".jsonl")}
    assert samples <= {p.name for p in (site / "agentic_core" / "sample_data").iterdir()}
