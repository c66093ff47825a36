"""agentic_core: the engine of the agent-evaluation workbench (never imports streamlit).

The curated public API (the README's Python API), importable from here::

    from agentic_core import evaluate, aggregate, make_settings, pass_at_k
    result = evaluate("data.jsonl", "hybrid")      # judge once
    agg = aggregate(result, make_settings(k=5))    # any number of times

``evaluate`` and ``aggregate`` are also the names of submodules; importing the functions here
(eagerly, not lazily) keeps ``agentic_core.evaluate`` the function however the submodules are
imported later.

Each package has a face of its own (``agentic_core.judges``, ``agentic_core.io``, ``agentic_core.analysis``
...): its ``__init__`` lists in ``__all__`` what callers outside the package use. The dashboard imports
only faces (tests/test_structure.py); inside a package, modules import their siblings directly.
"""

from agentic_core.agentic_metrics.compute import compute_agentic_metrics
from agentic_core.agentic_metrics.results import AgenticView
from agentic_core.analysis.agentic_summary import agentic_table, summarise_agentic
from agentic_core.analysis.aggregate import Aggregate, aggregate
from agentic_core.analysis.calibration import calibrate_run
from agentic_core.analysis.compare_runs import Side, compare_sides
from agentic_core.data.labels import HumanLabel
from agentic_core.errors import AgenticError, DataError, JudgeConfigError, SettingsError, UndefinedEstimateError
from agentic_core.evaluate import add_agentic_metrics, evaluate, judge_items
from agentic_core.evaluation_job import EvaluationJob
from agentic_core.io.labels_file import read_labels_file
from agentic_core.io.loader import load_paths, load_records
from agentic_core.judges.monitor import RunCancelled, RunMonitor
from agentic_core.judges.registry import build_judge
from agentic_core.judges.spec import CascadeSpec, LLMSpec, judge_spec
from agentic_core.report import summary, write_exports
from agentic_core.result import EvaluationResult
from agentic_core.runs import RunStore
from agentic_core.service.aws_lambda import lambda_handler
from agentic_core.settings import AggregateSettings, ToolWeights, make_settings
from agentic_core.stats import CurvePoint, pass_at_k, pass_pow_k
from agentic_core.stats.planner import Plan, plan_evaluation
from agentic_core.stats.planner_variance import beta_population, rates_population
from agentic_core.version import __version__

__all__ = [
    "AgenticError",
    "AgenticView",
    "Aggregate",
    "AggregateSettings",
    "CascadeSpec",
    "CurvePoint",
    "DataError",
    "EvaluationJob",
    "EvaluationResult",
    "HumanLabel",
    "JudgeConfigError",
    "LLMSpec",
    "Plan",
    "RunCancelled",
    "RunMonitor",
    "RunStore",
    "SettingsError",
    "Side",
    "ToolWeights",
    "UndefinedEstimateError",
    "__version__",
    "add_agentic_metrics",
    "agentic_table",
    "aggregate",
    "beta_population",
    "build_judge",
    "calibrate_run",
    "compare_sides",
    "compute_agentic_metrics",
    "evaluate",
    "judge_items",
    "judge_spec",
    "lambda_handler",
    "load_paths",
    "load_records",
    "make_settings",
    "pass_at_k",
    "pass_pow_k",
    "plan_evaluation",
    "rates_population",
    "read_labels_file",
    "summarise_agentic",
    "summary",
    "write_exports",
]
