"""``agentic-eval dashboard``: which app it serves, with which options, and its errors (no server started)."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import tomllib

from agentic_core.cli import EXIT_USER_ERROR, main
from agentic_core.cli.dashboard_command import config_options, dashboard_app, streamlit_command

ROOT = Path(__file__).resolve().parents[2]


def test_a_checkout_serves_its_own_app() -> None:
    assert dashboard_app() == ROOT / "app.py"


def test_the_shipped_config_becomes_options_so_any_folder_gets_it() -> None:
    options = config_options(ROOT / "app.py")
    pairs = dict(zip(options[::2], options[1::2], strict=True))
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    expected = {
        f"--{section}.{key}": str(value).lower() if isinstance(value, bool) else str(value)
        for section, table in config.items()
        for key, value in table.items()
    }
    assert pairs == expected and pairs  # every setting, nothing invented


def test_a_folder_without_config_gives_no_options(tmp_path: Path) -> None:
    assert config_options(tmp_path / "app.py") == []


def test_command_keeps_the_working_directory_off_the_import_path() -> None:
    args = argparse.Namespace(port=8600, address="0.0.0.0", headless=True)
    command = streamlit_command(args, ROOT / "app.py")
    assert command[1:6] == ["-P", "-m", "streamlit", "run", str(ROOT / "app.py")]
    tail = command[-8:]
    assert tail[:6] == ["--server.port", "8600", "--server.address", "0.0.0.0", "--server.headless", "true"]


def test_data_that_is_not_a_file_exits_2_naming_the_option(tmp_path: Path) -> None:
    err = io.StringIO()
    code = main(["dashboard", "--data", str(tmp_path / "missing.jsonl")], stdout=io.StringIO(), stderr=err)
    assert code == EXIT_USER_ERROR
    assert "--data" in err.getvalue() and "missing.jsonl" in err.getvalue()
