"""Streamlit's internals are read in one module, for the release it was written for, and degrade safely.

With the installed (pinned) Streamlit every feature is on and works against the real objects; with
another release, missing metadata or a missing attribute, the feature switches off with one warning
and nothing raises.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ui import housekeeping
from ui import streamlit_internals as internals

ROOT = Path(__file__).resolve().parents[2]
MAJOR, MINOR = internals.WRITTEN_FOR


@pytest.fixture(autouse=True)
def fresh_features(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no feature checked or switched off (the module remembers per process)."""
    monkeypatch.setattr(internals, "_OFF", {})
    monkeypatch.setattr(internals, "_ON", set())


def _pinned() -> str:
    match = re.search(r"^streamlit==(\S+)", (ROOT / "requirements.txt").read_text(encoding="utf-8"), re.M)
    assert match, "requirements.txt pins streamlit"
    return match[1]


def test_the_release_it_was_written_for_is_the_pinned_one() -> None:
    # Moving the pin without re-reading the adapter fails here, not in a user's dashboard.
    assert internals.version_supported(_pinned()), f"WRITTEN_FOR {internals.WRITTEN_FOR} vs pin {_pinned()}"
    assert internals.installed_version() == _pinned()


@pytest.mark.parametrize(
    ("version", "supported"),
    [
        (f"{MAJOR}.{MINOR}.0", True),
        (f"{MAJOR}.{MINOR}.7", True),
        (f"{MAJOR}.{MINOR}.1rc1", True),
        (f"{MAJOR}.{MINOR + 1}.0", False),
        (f"{MAJOR}.{MINOR - 1}.9", False),
        (f"{MAJOR + 1}.{MINOR}.0", False),
        (f"{MAJOR}.{MINOR}0.0", False),
        ("not a version", False),
        (None, False),
    ],
)
def test_only_the_written_for_minor_release_is_supported(version: str | None, supported: bool) -> None:
    assert internals.version_supported(version) is supported


def test_with_the_real_streamlit_every_feature_is_on(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger=internals.__name__):
        assert all(internals.feature_enabled(feature) for feature in internals.FEATURES)
    assert caplog.records == []


def test_another_release_switches_each_feature_off_with_one_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from streamlit.runtime.pages_manager import PagesManager

    monkeypatch.setattr(internals, "installed_version", lambda: f"{MAJOR}.{MINOR + 32}.0")
    monkeypatch.setattr(PagesManager, "uses_pages_directory", True)
    with caplog.at_level(logging.WARNING, logger=internals.__name__):
        for _ in range(3):
            assert not internals.feature_enabled(internals.SESSION_SWEEP)
            assert internals.leave_legacy_pages_mode() is False
    assert PagesManager.uses_pages_directory is True, "an unsupported release's internals are not touched"
    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == 2, messages  # one per feature, however often it is asked
    for feature, message in zip((internals.SESSION_SWEEP, internals.LEGACY_PAGES), messages, strict=True):
        assert feature in message and f"found {MAJOR}.{MINOR + 32}.0" in message and "Fix:" in message
        assert internals.FEATURES[feature] in message


def test_missing_version_metadata_is_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(internals, "installed_version", lambda: None)
    assert not internals.feature_enabled(internals.LEGACY_PAGES)
    assert "no version metadata" in internals._OFF[internals.LEGACY_PAGES]


def test_the_legacy_pages_flag_is_left_once_with_the_real_streamlit(monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.runtime.pages_manager import PagesManager

    monkeypatch.setattr(PagesManager, "uses_pages_directory", True)
    assert internals.leave_legacy_pages_mode() is True
    assert PagesManager.uses_pages_directory is False
    assert internals.leave_legacy_pages_mode() is False  # already left: no second rerun


def test_a_missing_flag_switches_the_redirect_off_without_raising(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from streamlit.runtime.pages_manager import PagesManager

    monkeypatch.delattr(PagesManager, "uses_pages_directory")
    with caplog.at_level(logging.WARNING, logger=internals.__name__):
        assert internals.leave_legacy_pages_mode() is False
        assert internals.leave_legacy_pages_mode() is False
    assert len(caplog.records) == 1 and "uses_pages_directory" in caplog.records[0].getMessage()
    assert not internals.feature_enabled(internals.LEGACY_PAGES)


def test_a_session_manager_of_another_shape_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(internals.InternalsUnavailable, match="_session_storage"):
        internals.closed_session_cache(object())


def test_a_sweep_that_breaks_switches_off_and_memory_is_still_released(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    calls = {"sweeps": 0, "releases": 0}

    def broken(fn: object) -> int:
        calls["sweeps"] += 1
        raise internals.InternalsUnavailable("WebsocketSessionManager has no attribute '_session_storage'")

    monkeypatch.setattr(internals, "on_event_loop", broken)
    monkeypatch.setattr(housekeeping, "release_memory", lambda: calls.__setitem__("releases", calls["releases"] + 1))
    sweeper = housekeeping.SessionSweeper()
    with caplog.at_level(logging.WARNING, logger=internals.__name__):
        releases = 0
        for _ in range(3):
            releases = housekeeping.tick(sweeper, releases)  # never raises
    assert calls == {"sweeps": 1, "releases": 3}, "tried once, then memory released every round"
    assert len(caplog.records) == 1 and "_session_storage" in caplog.records[0].getMessage()


def test_with_the_real_runtime_an_expired_session_is_shut_down_and_emptied() -> None:
    # A child process: Streamlit's runtime is a process-wide singleton (AppTest runs in this one).
    done = subprocess.run(
        [sys.executable, "-m", "tests.ui.streamlit_runtime_probe"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["runtime_before_start"] is None  # no server: nothing to sweep, nothing raised
    assert len(seen["active"]) == 1
    assert seen["closed_while_connected"] == 0 and seen["closed_while_kept"] == 0 and seen["kept"]
    assert seen["state_before"] == ["run"]
    assert seen["closed_after_expiry"] == 1
    assert seen["state_after"] == []
    assert seen["session_state_after"] == "AppSessionState.SHUTDOWN_REQUESTED"


def test_the_upload_type_and_the_context_logger_are_streamlits() -> None:
    import importlib.util

    assert internals.UploadedFile.__module__ == "streamlit.runtime.uploaded_file_manager"
    assert importlib.util.find_spec(internals.RUN_CONTEXT_LOGGER) is not None, "the logger silenced at preload"
    logger = logging.getLogger(internals.RUN_CONTEXT_LOGGER)
    before = logger.level
    with internals.quiet_missing_run_context():
        assert logger.level == logging.ERROR
    assert logger.level == before


def test_the_command_line_is_streamlits_public_entry() -> None:
    code = "from ui.streamlit_internals import run_streamlit; run_streamlit(['version'])"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"Streamlit, version {internals.installed_version()}" in done.stdout


# Private Streamlit API, as it is spelled in product code: only the adapter may hold it.
PRIVATE = re.compile(
    r"streamlit\.(runtime|web)\b|get_instance\(|SessionManager|PagesManager|_session_mgr|_session_storage"
    r"|_session_state\b|_fragment_storage|_browser_queue|_get_async_objs|_new_widget_state"
)


def test_only_the_adapter_uses_streamlit_internals() -> None:
    product = [*sorted((ROOT / "ui").rglob("*.py")), *sorted((ROOT / "pages").rglob("*.py"))]
    product += [ROOT / "app.py", ROOT / "dashboard.py"]
    adapter = ROOT / "ui" / "streamlit_internals.py"
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in product
        if path != adapter and path.exists()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PRIVATE.search(line)
    ]
    assert found == [], "move these behind ui/streamlit_internals.py:\n" + "\n".join(found)
    assert PRIVATE.search(adapter.read_text(encoding="utf-8")), "the pattern still finds what the adapter holds"


def test_a_passing_sweep_failure_is_tried_again_and_only_a_run_of_them_switches_off(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A busy event loop timing out, or one session whose shutdown raised, is not Streamlit's internals moving:
    # the sweep goes on next round, and a sweep that works again resets the count.
    outcomes = [TimeoutError("event loop busy"), 0, *[RuntimeError("shutdown raised")] * 10]
    calls = {"sweeps": 0}

    def flaky(fn: object) -> int:
        calls["sweeps"] += 1
        outcome = outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    monkeypatch.setattr(internals, "on_event_loop", flaky)
    monkeypatch.setattr(housekeeping, "release_memory", lambda: None)
    sweeper = housekeeping.SessionSweeper()
    with caplog.at_level(logging.WARNING):
        for _ in range(12):
            housekeeping.tick(sweeper, 0)
    assert internals.feature_enabled(internals.SESSION_SWEEP) is False
    # 1 failure, 1 success (count reset), then FAILURES_BEFORE_OFF failures in a row: off, never tried again.
    assert calls["sweeps"] == 2 + housekeeping.FAILURES_BEFORE_OFF
    retried = [r for r in caplog.records if "tried again next round" in r.getMessage()]
    assert len(retried) == housekeeping.FAILURES_BEFORE_OFF  # the first one, then 4 of the run of 5
    assert sum("switched off" in r.getMessage() for r in caplog.records) == 1
