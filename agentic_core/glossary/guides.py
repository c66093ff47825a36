"""Which glossary entry explains each setting, and each results page's "How to read this page" text.

Markdown; links point at glossary anchors (checked by ``tests/test_glossary.py``).
"""

from __future__ import annotations

from agentic_core.glossary.entries import P_B_GREATER_A

SETTING_ANCHORS: dict[str, str] = {
    "threshold": "threshold",
    "abstain_band": "abstention-band",
    "tool_threshold": "tool-threshold",
    "tool_weights": "tool-weights",
    "ignore_extra_tools": "tool-selection",
    "require_tool_correctness": "tool-threshold",
    "k": "k-auto",
    "unit": "unit-of-trial",
    "estimator": "estimator",
    "mode": "mode",
    "target": "target",
    "prior": "prior",
    "prior_a": "prior",
    "prior_b": "prior",
    "ci_level": "interval-level",
    "unscored_as_incorrect": "unscored",
    "seed": "monte-carlo",
    "n_samples": "bca-bootstrap",
}
"""Setting name (:data:`agentic_core.settings.SETTINGS`) -> the anchor of the entry that explains it."""

PAGE_GUIDES: dict[str, str] = {
    "overview": (
        "- The cards give the **[success rate](/glossary#success-rate)** (one attempt), "
        "**[pass@K](/glossary#pass-k)** (at least one of K attempts succeeds) and "
        "**[pass^K](/glossary#pass-hat-k)** (all K succeed), each with its interval.\n"
        "- The badge reads pass@K and pass^K together: [reliable, inconsistent, functional or needs "
        "improvement](/glossary#interpretation).\n"
        "- The curve shows k = 1..K: a wide gap between the two lines means the agent *can* do the tasks but "
        "not *every time*. Shaded bands are the [intervals](/glossary#interval-level).\n"
        "- The sidebar decides what counts as an [attempt](/glossary#unit-of-trial), the "
        "[threshold](/glossary#threshold), the [mode](/glossary#mode) and the [target](/glossary#target).\n"
        "- When the run holds several `assistant_id`s, *By assistant* gives each one's numbers with their "
        "intervals (its conversations alone, the same settings and K); overlapping bars are not a difference."
    ),
    "uncertainty": (
        "- Each histogram is the distribution of plausible values of one number; the shaded part is its "
        "[interval](/glossary#interval-level). Narrow means the data pin it down.\n"
        "- The [target](/glossary#target) decides what the spread is about: other tasks like these, or only "
        "the finite attempts at these tasks.\n"
        "- The shrinkage chart shows each task's observed rate (hollow) and its rate under the "
        "[population model](/glossary#hierarchical-beta-binomial) (filled): tasks with few attempts move most.\n"
        "- The [prior](/glossary#prior) matters only in [Bayesian](/glossary#mode) mode."
    ),
    "tools": (
        "- Tool use is scored per interaction on four dimensions: [selection](/glossary#tool-selection), "
        "[parameters](/glossary#tool-parameters), [sequence](/glossary#tool-sequence) and "
        "[utilization](/glossary#tool-utilization), each from 0 to 1.\n"
        "- The overall score weighs them ([weights](/glossary#tool-weights)); tool use is correct when it "
        "reaches the [tool threshold](/glossary#tool-threshold).\n"
        "- Error bars are [Student-t intervals](/glossary#t-interval). The tables list the failing calls, "
        "expected against used."
    ),
    "compare": (
        "- Each row is B minus A on one metric, with its interval: right of 0 is better in B. Coloured rows "
        "have an interval that excludes 0.\n"
        "- Tasks are paired, so each task's own difficulty cancels out ([paired t](/glossary#paired-t), "
        "[MOVER](/glossary#mover), [copula](/glossary#copula)).\n"
        f"- **[P(B > A)](/glossary#p-b-greater-a)**: {P_B_GREATER_A}\n"
        "- In the scatter, tasks above the diagonal did better in B."
    ),
    "calibration": (
        "- People's labels are compared with the judge at the [answer threshold](/glossary#threshold).\n"
        "- **[Cohen's kappa](/glossary#cohens-kappa)**: agreement beyond chance (0 = chance, 1 = perfect). "
        "**[ROC AUC](/glossary#roc-auc)**: how well the scores separate correct from incorrect, over all "
        "thresholds.\n"
        "- The sweep suggests the threshold with the highest kappa; the reliability diagram shows whether a "
        "score of 0.8 really means 80% correct."
    ),
    "agentic_metrics": (
        "- **[Tool call accuracy](/glossary#tool-call-accuracy)**: Ragas' score of the calls, position by "
        "position.\n"
        "- **[Topic adherence](/glossary#topic-adherence)**: answering on-topic queries and refusing "
        "off-topic ones (precision, recall, F1).\n"
        "- **[Goal accuracy](/glossary#goal-accuracy)**: whether each conversation reached its goal.\n"
        "- One value per conversation; the page shows their mean with an interval. Conversations without the "
        "reference a metric needs are [unscored](/glossary#unscored)."
    ),
    "history": (
        "- Every run made on the Run page (or with the command line) is kept here with its data, judge and "
        "verdicts. Opening one makes it the active run of every results page, without calling a judge again.\n"
        "- The numbers are recomputed from its verdicts with the sidebar's settings: the "
        "[threshold](/glossary#threshold), [unit of trial](/glossary#unit-of-trial), [mode](/glossary#mode).\n"
        "- *Trend* shows the success rate, pass@K and pass^K of every stored run of the selected run's dataset "
        "(the same data fingerprint) over time, each recomputed with the same settings, with its "
        "[interval](/glossary#interval-level).\n"
        "- Two runs of the same tasks can be compared on the Compare page "
        "([P(B > A)](/glossary#p-b-greater-a))."
    ),
}
"""Results page (file stem in ``pages/``) -> its "How to read this page" text, in markdown."""
