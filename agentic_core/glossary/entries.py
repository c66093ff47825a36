"""The glossary's entries: term, anchor, plain words, formula. The words follow the settings' help texts
(:mod:`agentic_core.settings.specs`) and :mod:`agentic_core.analysis.statistics_words`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class GlossaryEntry(BaseModel):
    """One word of the dashboard.

    Attributes:
        term: The word as pages show it ("pass^k").
        anchor: Its place on the Glossary page (``/glossary#pass-hat-k``): lowercase, digits and hyphens.
        plain: What it means, in plain words.
        formula: How it is computed (plain text, may be empty).
        see_also: Anchors of related entries.
    """

    model_config = ConfigDict(frozen=True)

    term: str
    anchor: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    plain: str
    formula: str = ""
    see_also: tuple[str, ...] = ()

    @property
    def haystack(self) -> str:
        """Everything searchable, case-folded."""
        return f"{self.term} {self.anchor} {self.plain} {self.formula}".casefold()


P_B_GREATER_A = (
    "How sure we can be that B is better than A on this metric over the population of tasks, not only these: "
    "near 100% B is better, near 0% A is better, and near 50% the tasks cannot tell them apart (which does not "
    "show that they are equal). Frequentist mode reads it from the Student-t distribution of the mean per-task "
    "difference (a confidence probability), Bayesian mode from the share of joint posterior draws with B ahead. "
    "It is not given when A and B have the same verdicts on every task: neither is ahead. 1 - P(B > A) is the "
    "probability that B is worse, which the CI gate checks."
)
"""What P(B > A) means: the one text the Glossary and the Compare page (guide, card) show."""


def _e(term: str, anchor: str, plain: str, formula: str = "", see_also: tuple[str, ...] = ()) -> GlossaryEntry:
    return GlossaryEntry(term=term, anchor=anchor, plain=plain, formula=formula, see_also=see_also)


ENTRIES: tuple[GlossaryEntry, ...] = (
    # --- The headline numbers
    _e(
        "pass@k",
        "pass-k",
        "The chance that at least one of k attempts at a task succeeds, averaged over the tasks. It answers "
        "\"can the agent do it if I let it try k times?\" and never falls as k grows.",
        "per task with n attempts of which c are correct: unbiased 1 - C(n-c, k) / C(n, k); "
        "plug-in 1 - (1 - c/n)^k; the dataset's value is the mean over tasks.",
        ("pass-hat-k", "estimator", "k-auto"),
    ),
    _e(
        "pass^k",
        "pass-hat-k",
        "The chance that all k attempts at a task succeed, averaged over the tasks. It answers \"does the agent "
        "do it every time?\" (consistency) and never rises as k grows.",
        "per task: unbiased C(c, k) / C(n, k); plug-in (c/n)^k; the dataset's value is the mean over tasks.",
        ("pass-k", "estimator"),
    ),
    _e(
        "Success rate",
        "success-rate",
        "pass@1 by the same method, on the same tasks and with the same interval as the curve: the chance that "
        "one attempt succeeds. The plain share of fully correct conversations is shown beside it, labelled "
        "observed.",
        "success rate = pass@1 = mean over tasks of c/n; observed = correct conversations / scored conversations.",
        ("pass-k",),
    ),
    _e(
        "Correct interaction / conversation",
        "correct",
        "An interaction is correct when its judge score reaches the answer threshold (and, when asked, its tool "
        "use reaches the tool threshold). A conversation is correct when all its interactions are.",
        "correct = judge score >= threshold (tolerance 1e-9) [and tool score >= tool threshold].",
        ("threshold", "tool-threshold", "unscored"),
    ),
    _e(
        "Unit of trial",
        "unit-of-trial",
        "What counts as one attempt. task: conversations with the same task_id (or the same questions) are "
        "attempts at one task, the default when tasks repeat. conversation: every conversation is an attempt at "
        "one single task. interaction: each conversation is scored over its turns (the reference's semantics). "
        "auto: task if tasks repeat, else conversation.",
        "n = attempts of a task, c = the correct ones; under interaction, n and c count a conversation's turns.",
        ("pass-k", "k-auto"),
    ),
    _e(
        "K (attempts), auto",
        "k-auto",
        "pass@k and pass^k are reported for k = 1..K. 'auto' takes the largest k that at least 90% of the "
        "tasks have attempts for (1 to 20), and says so. The whole curve uses one set of tasks (those with "
        "n >= K under the unbiased estimator; the others are named).",
        "K auto = the largest k in 1..20 with (tasks having n >= k) >= 90% of the tasks.",
        ("pass-k", "estimator"),
    ),
    _e(
        "Estimator: unbiased vs plug-in",
        "estimator",
        "The frequentist point estimate. unbiased (the default, what papers report) is exactly right on average "
        "but needs k <= attempts. plug-in puts the observed rate c/n into the formula: defined for any k, but "
        "biased: with few attempts it overstates pass^k and understates pass@k.",
        "unbiased: pass@k = 1 - C(n-c,k)/C(n,k), pass^k = C(c,k)/C(n,k); plug-in: 1-(1-c/n)^k and (c/n)^k.",
        ("pass-k", "pass-hat-k", "mode"),
    ),
    _e(
        "Mode: frequentist vs Bayesian",
        "mode",
        "Frequentist (the default): point estimates with confidence intervals (an interval built this way "
        "contains the truth in 95% of experiments). Bayesian: posterior means with credible intervals (given "
        "the data and the prior, the value lies in the interval with 95% probability).",
        "Bayesian, one task: p ~ Beta(a + c, b + n - c); pass^k = E[p^k], pass@k = 1 - E[(1-p)^k].",
        ("target", "prior", "interval-level"),
    ),
    _e(
        "Target: task population vs these tasks",
        "target",
        "What an interval is for. Task population (the default): how the agent will do on tasks like these; "
        "the interval covers the finite attempts and which tasks happened to be chosen. These tasks: exactly "
        "this benchmark; only the finite attempts are uncertain, so the interval is narrower and says nothing "
        "about other tasks. With one task the two coincide.",
        "",
        ("mode", "bca-bootstrap", "hierarchical-beta-binomial"),
    ),
    _e(
        "Interval level",
        "interval-level",
        "The level of every interval, e.g. 95%: a confidence interval (frequentist) or a credible interval "
        "(Bayesian). Every point lies inside its interval; where an exact one would leave it out, the interval "
        "is widened and a note says so.",
        "",
        ("mode", "target"),
    ),
    # --- Interval methods
    _e(
        "Wilson score interval",
        "wilson",
        "The interval for one success probability from c successes in n attempts, well behaved near 0 and 1. "
        "Used for one task or one pool, pushed through the pass@k / pass^k formula, for per-task rows and for "
        "goal accuracy.",
        "(p̂ + z²/2n ± z·sqrt(p̂(1-p̂)/n + z²/4n²)) / (1 + z²/n), p̂ = c/n, z the normal quantile of the level.",
        ("pass-k",),
    ),
    _e(
        "BCa bootstrap",
        "bca-bootstrap",
        "Frequentist interval for the task population: the tasks are resampled with replacement many times "
        "(seeded) and the spread of the result gives the interval, corrected for bias and skew (BCa) with "
        "Hesterberg's small-sample expansion. For these tasks, each task's attempts are resampled instead.",
        "interval = the bias- and acceleration-adjusted quantiles of the statistic over resampled task sets.",
        ("target", "paired-t"),
    ),
    _e(
        "Hierarchical Beta-Binomial",
        "hierarchical-beta-binomial",
        "Bayesian model of the task population: each task's success rate is drawn from a Beta(alpha, beta) "
        "population, so tasks with few attempts are pulled (shrunk) towards the population mean. Computed "
        "exactly on a grid (BDA3 section 5.3); the Uncertainty page shows the shrinkage. One Beta cannot fit "
        "a mix of always-solved and rarely-solved tasks, so the population interval is widened to hold the "
        "Bayesian bootstrap's (the tasks reweighted at random, plus one never-solved and one always-solved "
        "prior task), which assumes no shape.",
        "p_task ~ Beta(alpha, beta), c_task ~ Binomial(n_task, p_task), hyperprior (alpha + beta)^(-5/2).",
        ("target", "prior", "copula"),
    ),
    _e(
        "Monte Carlo",
        "monte-carlo",
        "Bayesian interval for these tasks: each task's Beta posterior is drawn many times (seeded; same seed, "
        "same numbers) and the mean over tasks of each draw gives the interval.",
        "draw p_task ~ Beta(a + c, b + n - c) for every task, average p^k (or 1-(1-p)^k), take the quantiles.",
        ("prior", "target"),
    ),
    _e(
        "Student-t interval",
        "t-interval",
        "The interval for a mean of bounded scores (tool dimensions, tool call accuracy, topic adherence, "
        "graded goal score), clipped to [0, 1].",
        "mean ± t(level, n-1) · s / sqrt(n).",
        ("tool-selection", "tool-call-accuracy"),
    ),
    _e(
        "MOVER",
        "mover",
        "Method of variance estimates recovery (Zou & Donner 2008): the two sides' own intervals combined into "
        "an interval for their difference; used when every task has the same non-zero difference and "
        "resampling tasks has no spread (with no difference at all, the same verdicts, the interval is [0, 0]).",
        "B - A: lower = d - sqrt((b - l_B)² + (u_A - a)²), upper = d + sqrt((u_B - b)² + (a - l_A)²).",
        ("paired-t", "p-b-greater-a"),
    ),
    _e(
        "Paired t",
        "paired-t",
        "Frequentist comparison of two runs or assistants on the same tasks: the per-task differences B - A and "
        "a Student-t interval of their mean. Pairing removes the tasks' own difficulty from the comparison.",
        "d_task = rate_B - rate_A; mean(d) ± t · sd(d) / sqrt(tasks).",
        ("p-b-greater-a", "mover"),
    ),
    _e(
        "Gaussian copula (joint draws)",
        "copula",
        "Bayesian comparison: each side's hierarchical posterior is drawn jointly with the correlation of the "
        "paired per-task results, so two agents that fail on the same tasks are compared fairly.",
        "joint draws of (A, B) with normal-copula correlation of the paired results; P(B > A) = share of draws.",
        ("hierarchical-beta-binomial", "p-b-greater-a"),
    ),
    _e(
        "Prior: uniform, Jeffreys, custom",
        "prior",
        "Bayesian mode's starting belief about each task's success probability, a Beta(a, b). Uniform Beta(1,1) "
        "(the default) treats every rate as equally likely and pulls tasks towards 0.5; Jeffreys Beta(½,½) "
        "pulls less, better when tasks are nearly always or nearly never solved.",
        "posterior = Beta(a + c, b + n - c); uniform a = b = 1; Jeffreys a = b = 0.5.",
        ("mode", "monte-carlo"),
    ),
    _e(
        "Unscored",
        "unscored",
        "A judge failure (timeout, unreadable reply, out-of-range score) is unscored, never 0; so is an abstention "
        "(the judge said 'uncertain', never 0 or 1). By default its conversation is excluded and counted on "
        "screen; 'Count unscored as incorrect' counts it as incorrect. "
        "When any is unscored the headline also shows the values with all counted incorrect and all correct.",
        "",
        ("correct",),
    ),
    # --- Interpretation labels (seed 001)
    _e(
        "Interpretation labels",
        "interpretation",
        "A one-word reading of the dataset-level pass@K and pass^K: reliable, inconsistent, functional or "
        "needs improvement.",
        "reliable: pass@K > 0.95 and pass^K > 0.70; inconsistent: pass@K > 0.95 and pass^K < 0.50; "
        "needs improvement: pass@K < 0.70; functional: otherwise.",
        ("reliable", "inconsistent", "functional", "needs-improvement"),
    ),
    _e("Reliable", "reliable", "It succeeds and does so consistently.", "pass@K > 0.95 and pass^K > 0.70.",
       ("interpretation",)),
    _e("Inconsistent", "inconsistent", "It can succeed but is unreliable: given K tries it gets there, yet rarely "
       "every time.", "pass@K > 0.95 and pass^K < 0.50.", ("interpretation",)),
    _e("Functional", "functional", "It works but could improve.",
       "pass@K between 0.70 and 0.95, or pass@K > 0.95 with pass^K between 0.50 and 0.70.", ("interpretation",)),
    _e("Needs improvement", "needs-improvement", "Even with K attempts it often fails.", "pass@K < 0.70.",
       ("interpretation",)),
    # --- Thresholds and tools
    _e(
        "Answer threshold",
        "threshold",
        "An interaction is correct when its judge score is at least this. Each judge recommends one; the "
        "Calibration page suggests the threshold that agrees best with human labels.",
        "correct = judge score >= threshold.",
        ("correct", "cohens-kappa"),
    ),
    _e(
        "Abstention band",
        "abstention-band",
        "For a judge that gives a probability P(correct) (the learned judge): how sure it must be before it "
        "decides. Inside the band it abstains: the answer is uncertain, unscored (never 0 or 1). The default is "
        "the judge's fitted band; a wider band abstains on more and is right more often on what it decides, a "
        "narrower one decides more; a band of width 0 never abstains. Moving it re-decides the judged answers "
        "(no judge is called); answers without a probability (an LLM's verdicts) keep theirs. The Settings panel "
        "says what a band costs and buys on the judge's holdout pairs, and the Calibration page suggests one from "
        "labelled answers.",
        "decided when P(correct) <= low or P(correct) >= high (then correct = P(correct) >= threshold); "
        "uncertain when low < P(correct) < high.",
        ("threshold", "unscored"),
    ),
    _e(
        "Tool threshold",
        "tool-threshold",
        "Tool use is correct when the weighted overall tool score reaches this (1.0 = perfect). 'Require "
        "correct tool use' makes an interaction correct only if its tool use is correct too.",
        "overall = sum of weight_d · score_d over the four dimensions / sum of weights; correct = overall >= "
        "tool threshold.",
        ("tool-selection", "tool-weights"),
    ),
    _e(
        "Tool weights",
        "tool-weights",
        "How much selection, parameters, sequence and utilization count in the overall tool score (normalised "
        "before use; all 0 is not allowed).",
        "w_d / sum(w).",
        ("tool-threshold",),
    ),
    _e(
        "Tool selection",
        "tool-selection",
        "Did the agent call the right tools? Expected and used calls are matched one to one; extra calls are "
        "penalised unless 'Ignore extra calls' is on.",
        "precision = matched calls / used calls (1 when extra calls are ignored), recall = matched required "
        "calls / required calls; selection = 2 · precision · recall / (precision + recall).",
        ("tool-parameters", "tool-weights"),
    ),
    _e(
        "Tool parameters",
        "tool-parameters",
        "Did the matched calls get the right arguments? Compared by structure: key order does not matter, "
        "5 == 5.0, True != 1, text compared after folding case and punctuation.",
        "sum over the required calls of their match's argument agreement (0 for a missing call) / required "
        "calls.",
        ("tool-selection",),
    ),
    _e(
        "Tool sequence",
        "tool-sequence",
        "Were the calls made in the right order (only when order matters)?",
        "longest common subsequence of the required and the used call names / required calls.",
        ("tool-selection",),
    ),
    _e(
        "Tool utilization",
        "tool-utilization",
        "Did the answer use what the tools returned? From the trace's flag, or inferred from evidence (said so).",
        "",
        ("tool-selection",),
    ),
    # --- Calibration and comparison
    _e(
        "Cohen's kappa",
        "cohens-kappa",
        "Agreement between the judge and human labels beyond what chance would give: 1 is perfect, 0 is chance. "
        "A judge that passes everything scores 90% accuracy on data that is 90% correct, and kappa 0.",
        "kappa = (p_o - p_e) / (1 - p_e), p_o = observed agreement, p_e = agreement expected by chance.",
        ("roc-auc", "threshold"),
    ),
    _e(
        "ROC AUC",
        "roc-auc",
        "How well the judge's scores separate answers people call correct from incorrect, over all thresholds: "
        "the chance that a random correct answer scores higher than a random incorrect one (0.5 = chance, 1 = "
        "perfect).",
        "AUC = P(score of a correct answer > score of an incorrect one), ties counted half.",
        ("cohens-kappa",),
    ),
    _e(
        "P(B > A)",
        "p-b-greater-a",
        P_B_GREATER_A,
        "frequentist: P = F_t(mean(d) / (sd(d) / sqrt(T)), T - 1 degrees of freedom), d = B - A per task over T "
        "paired tasks (every task the same non-zero d: a normal matched to the MOVER interval); Bayesian: share of "
        "joint draws with B - A > 0 (+ half the ties).",
        ("paired-t", "copula", "mover"),
    ),
    # --- Agentic metrics (seed 004)
    _e(
        "Tool call accuracy",
        "tool-call-accuracy",
        "Ragas' definition, value for value: the made calls against the reference calls, position by position; "
        "any difference in the order of names (strict) scores 0.",
        "aligned × (sum of pair scores) / n_ref × (n_compared / n_ref when fewer calls were made); a pair "
        "scores the share of reference arguments equal as text.",
        ("tool-selection",),
    ),
    _e(
        "Topic adherence",
        "topic-adherence",
        "Does the agent answer on-topic queries and refuse off-topic ones? Each query is answered or refused, "
        "on topic or not: TP answered on topic, FP answered off topic, FN refused on topic, TN refused off topic.",
        "workbench: precision = (TP+TN)/(TP+TN+FP), recall = (TP+TN)/(TP+TN+FN); Ragas: TP/(TP+FP), "
        "TP/(TP+FN); F1 = 2PR/(P+R).",
        ("goal-accuracy",),
    ),
    _e(
        "Goal accuracy",
        "goal-accuracy",
        "Did the conversation reach its goal? Binary (achieved or not, as in Ragas) plus a graded score in "
        "[0, 1] and evidence quotes. Without a reference only an LLM judge can infer the goal.",
        "share of scored conversations achieved (Wilson score interval); graded mean (Student-t interval).",
        ("wilson", "t-interval"),
    ),
)
