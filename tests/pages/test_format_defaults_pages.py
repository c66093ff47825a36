"""tau-bench data preselects what its format needs, says why on the Data and Tools pages, and can be overridden."""

from __future__ import annotations

from pathlib import Path

from tests.pages.conftest import OpenApp

TAU = Path(__file__).resolve().parents[2] / "sample_data" / "tau_bench_airline.json"


def test_tau_bench_preselects_and_says_why(open_app: OpenApp) -> None:
    at = open_app("pages/data.py", TAU)
    info = [i.value for i in at.info if "tau-bench results" in i.value]
    assert len(info) == 1 and "Dataset scores judge" in info[0] and "read-only" in info[0]
    at.switch_page("pages/tools.py").run()
    assert not at.exception
    assert at.toggle(key="ignore_extra").value is True
    assert any("preselected for tau-bench data" in c.value for c in at.caption)
    # The user overrides it: the caption goes, the choice stays.
    at.toggle(key="ignore_extra").set_value(False).run()
    assert at.toggle(key="ignore_extra").value is False
    assert not any("preselected for tau-bench data" in c.value for c in at.caption)


def test_other_data_undoes_an_untouched_preselection(open_app: OpenApp) -> None:
    at = open_app("pages/data.py", TAU)
    at.button(key="sample_travel").click().run()
    assert not at.exception
    assert not any("tau-bench results" in i.value for i in at.info)
    at.switch_page("pages/tools.py").run()
    assert at.toggle(key="ignore_extra").value is False


def test_seed_data_keeps_the_workbench_defaults(open_app: OpenApp) -> None:
    at = open_app("pages/tools.py")
    assert at.toggle(key="ignore_extra").value is False
    assert not any("preselected" in c.value for c in at.caption)


def test_the_run_page_preselects_the_formats_judge_says_why_and_can_be_overridden(open_app: OpenApp) -> None:
    at = open_app("pages/data.py", TAU)
    at.switch_page("pages/run.py").run()
    assert not at.exception
    assert at.radio(key="run_judge").value == "dataset"
    assert any("Preselected for this data" in i.value for i in at.info)
    at.radio(key="run_judge").set_value("lexical").run()
    assert at.radio(key="run_judge").value == "lexical"
    assert any("suggests the Dataset" in c.value for c in at.caption)
    at.switch_page("pages/data.py").run()
    at.switch_page("pages/run.py").run()
    assert at.radio(key="run_judge").value == "lexical"  # the same data: the user's choice stays


def test_the_run_page_undoes_an_untouched_preselection_for_other_data(open_app: OpenApp) -> None:
    from agentic_core.judges.registry import DEFAULT_JUDGE

    at = open_app("pages/data.py", TAU)
    at.switch_page("pages/run.py").run()
    assert at.radio(key="run_judge").value == "dataset"
    at.switch_page("pages/data.py").run()
    at.button(key="sample_travel").click().run()
    at.switch_page("pages/run.py").run()
    assert not at.exception
    assert at.radio(key="run_judge").value == DEFAULT_JUDGE
    assert not any("Preselected for this data" in i.value for i in at.info)


def test_tau_bench_preselects_the_task_unit_and_other_data_undoes_it(open_app: OpenApp) -> None:
    at = open_app("pages/tools.py", TAU)
    assert not at.exception
    assert at.selectbox(key="unit").value == "task"
    at.switch_page("pages/data.py").run()
    assert any("*Unit of trial* in the sidebar" in i.value for i in at.info)
    at.button(key="sample_travel").click().run()
    at.switch_page("pages/tools.py").run()
    assert not at.exception
    assert at.selectbox(key="unit").value == "auto"
