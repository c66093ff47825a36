"""Every aggregation setting in one place: its rule, default, choices, label and help.

The command line, the dashboard and the HTTP endpoint derive their options from here: the
choices and defaults from :class:`AggregateSettings` and the :data:`SETTINGS` table, the words
they show from each :class:`SettingSpec`. Each validation rule is one function below, used both
by :class:`AggregateSettings` and by the statistics functions that take the same values, so a
rule and its message exist once.

Errors are :class:`~agentic_core.errors.SettingsError` naming the setting (by its field name),
the rule, the value and the fix. An interface shows the setting in its own words with
:func:`relabel` (``--k`` on the command line, "K (attempts)" on a page).

Modules: :mod:`~agentic_core.settings.choices` (the kinds of values), :mod:`~agentic_core.settings.rules`
(validation, one function per rule), :mod:`~agentic_core.settings.weights` (tool weights, priors as
text), :mod:`~agentic_core.settings.model` (:class:`AggregateSettings`, :func:`make_settings`),
:mod:`~agentic_core.settings.specs` (labels, options and help for the interfaces),
:mod:`~agentic_core.settings.text_values` (settings written as text, as in a shared link).
"""

from agentic_core.settings.choices import (
    CI_LEVELS,
    DIMENSIONS,
    K_AUTO_MAX,
    K_AUTO_SUPPORT,
    K_DASHBOARD_MAX,
    K_MAX,
    N_SAMPLES_RANGE,
    PRIORS,
    TARGET_DESCRIPTIONS,
    UNIT_DESCRIPTIONS,
    Estimator,
    Interface,
    KChoice,
    Mode,
    Target,
    Unit,
    UnitChoice,
)
from agentic_core.settings.model import AggregateSettings, default_of, make_settings
from agentic_core.settings.rules import (
    check_band,
    check_choice,
    check_estimator,
    check_fraction,
    check_k,
    check_level,
    check_mode,
    check_n_samples,
    check_prior,
    check_prior_value,
    check_seed,
    check_target,
    parse_k,
)
from agentic_core.settings.specs import SETTINGS, SettingSpec, relabel
from agentic_core.settings.text_values import FITTED, band_from_text, setting_from_text
from agentic_core.settings.weights import ToolWeights, parse_prior

__all__ = [
    "CI_LEVELS",
    "DIMENSIONS",
    "FITTED",
    "K_AUTO_MAX",
    "K_AUTO_SUPPORT",
    "K_DASHBOARD_MAX",
    "K_MAX",
    "N_SAMPLES_RANGE",
    "PRIORS",
    "SETTINGS",
    "TARGET_DESCRIPTIONS",
    "UNIT_DESCRIPTIONS",
    "AggregateSettings",
    "Estimator",
    "Interface",
    "KChoice",
    "Mode",
    "SettingSpec",
    "Target",
    "ToolWeights",
    "Unit",
    "UnitChoice",
    "band_from_text",
    "check_band",
    "check_choice",
    "check_estimator",
    "check_fraction",
    "check_k",
    "check_level",
    "check_mode",
    "check_n_samples",
    "check_prior",
    "check_prior_value",
    "check_seed",
    "check_target",
    "default_of",
    "make_settings",
    "parse_k",
    "parse_prior",
    "relabel",
    "setting_from_text",
]
