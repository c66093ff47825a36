"""tau-bench results files (``results/*.json`` of ``run.py``) mapped to the seed format.

The file is a JSON list of trials, ``{"task_id": 3, "trial": 0, "reward": 1.0, "info": {...},
"traj": [...]}``: ``traj`` is the OpenAI-style message list the agent saw and wrote (system
policy, user, assistant with ``tool_calls``, ``tool`` results), ``info.task`` the task with its
ground-truth ``actions`` (``[{"name", "kwargs"}]``) and ``outputs``, ``info.reward_info`` how the
reward was found.

tau-bench grades a whole trajectory (the final database state and the required outputs), so each
trial becomes ONE interaction: the query is the first user message, the answer the agent's last
text message, ``tools_used`` every tool call of the trajectory in order, and ``score`` the
reward. With the ``dataset`` judge (at its default threshold) a trial is therefore correct exactly
when its reward is 1, and the default settings reproduce tau-bench's pass^k. The ground-truth
actions are the expected calls (their order not counted: tau-bench compares end states); the
ground-truth answer is the task's ``outputs`` (often none: tau-bench checks them inside the
reward). Trials are grouped by ``task_id`` (the conversation's ``task_id``); a trial's
``session_id`` is ``task-<id>-trial-<n>`` and its ``assistant_id`` the file's stem (tau-bench
names result files after the agent, model and settings).
"""

from __future__ import annotations

import math
from typing import Any

from agentic_core.common.wording import plural
from agentic_core.io.importers.build import interaction, missing_reply
from agentic_core.io.importers.common import KeyTally, RecordMap, file_stem, import_records
from agentic_core.io.importers.messages import Call, Turn, read_call, walk_messages, whole_trace
from agentic_core.io.load_report import Issue
from agentic_core.io.parsed import Parsed
from agentic_core.io.render import json_type

_KNOWN = frozenset({"task_id", "trial", "reward", "info", "traj"})


def collapse(turns: list[Turn], first: Turn | None) -> Turn | None:
    """One turn standing for a whole trajectory: its first query, its last answer, all its calls."""
    if not turns:
        return first
    whole = Turn(turns[0].query, turns[0].query_path, [c for t in turns for c in t.calls])
    for turn in turns:
        if turn.answer is not None:
            whole.answer, whole.answer_path = turn.answer, turn.answer_path
        whole.last_reply_path = turn.last_reply_path or whole.last_reply_path
    return whole


class _TauImporter:
    """The state of one file's import: trials counted per task, keys not read, partial rewards."""

    def __init__(self, file: str) -> None:
        self.stem = file_stem(file)
        self.keys = KeyTally("a tau-bench trial", _KNOWN)
        self.trials: dict[str, int] = {}
        self.partial: list[RecordMap] = []
        self.trace: list[dict[str, Any]] = []  # the last trajectory's messages (Conversation.trace)

    def one(self, rec: RecordMap, raw: dict[str, Any]) -> dict[str, Any] | None:
        """One trial as a seed conversation (``None``, with an error recorded, when it cannot be mapped)."""
        task_id = rec.required_id(raw, "task_id", "the task's index (an integer or a string)",
                                  "give each trial the task_id tau-bench wrote")
        if task_id is None:
            return None
        trial = raw.get("trial")
        seen = self.trials.get(task_id, 0)
        self.trials[task_id] = seen + 1
        if isinstance(trial, bool) or not isinstance(trial, int):
            rec.warn("trial", f"must be the trial's number (an integer); trial {seen} was assumed (the count of "
                     "this task's trials so far)", trial, "give each trial its number")
            trial = seen
        rec.session_id = f"task-{task_id}-trial-{trial}"
        rec.origin("session_id", "trial")
        rec.origin("task_id", "task_id")
        reward = raw.get("reward")
        if isinstance(reward, bool) or not isinstance(reward, int | float) or not 0 <= reward <= 1 \
                or math.isnan(reward):
            rec.error("reward", "must be a number in [0, 1] (tau-bench rewards are 0 or 1)", reward,
                      "give the reward tau-bench computed for this trial")
            return None
        if 0 < reward < 1:
            self.partial.append(rec)
        found = raw.get("info")
        info: dict[str, Any] = found if isinstance(found, dict) else {}
        task: dict[str, Any] = info["task"] if isinstance(info.get("task"), dict) else {}
        turn = self.trajectory(rec, raw, info)
        if turn is None:
            return None
        outputs = task.get("outputs")
        ground_truth = "; ".join(o for o in outputs if isinstance(o, str)) if isinstance(outputs, list) else None
        at = "conversation[0]"
        mapped = interaction(
            rec, at, f"task-{task_id}", turn, ground_truth=(ground_truth or None, "info.task.outputs"),
            score=(float(reward), "reward"), expected=self.expected(rec, info, task), sequence=False,
        )
        rec.origin("conversation", "traj")
        out: dict[str, Any] = {
            "session_id": rec.session_id,
            "assistant_id": self.stem,
            "task_id": task_id,
            "conversation": [mapped],
        }
        if self.trace:
            out["trace"] = self.trace
            rec.origin("trace", "traj")
        return out

    def trajectory(self, rec: RecordMap, raw: dict[str, Any], info: dict[str, Any]) -> Turn | None:
        """The whole trajectory as one turn, or ``None`` (with an error) when it holds no user message."""
        traj = raw.get("traj")
        self.trace = []
        if traj is None or traj == []:
            # A trial whose run failed (tau-bench then writes the error into info): it still counts
            # as a failed attempt, so it is kept, with its reward, to keep the pass^k curve right.
            why = f" (the run failed: {info['error']})" if isinstance(info.get("error"), str) else ""
            rec.warn("traj", f"is empty{why}; the trial is kept with an empty query and answer, scored by its reward",
                     traj, "re-run the task if the failure was not the agent's")
            return Turn("", "traj")
        if not isinstance(traj, list):
            rec.error("traj", f"must be the list of the trajectory's messages; it is {json_type(traj)}", traj,
                      "give the trajectory as tau-bench wrote it")
            return None
        walk = walk_messages(traj, rec, "traj")
        self.trace = whole_trace(walk, one_interaction=True)
        # The user simulator ends with "###STOP###", which the agent does not answer: not a loss.
        turn = collapse(walk.turns, walk.ended_unanswered)
        if turn is None:
            rec.error("traj", "holds no user message: nothing to evaluate", None,
                      "give the trajectory as tau-bench wrote it")
            return None
        if turn.answer is None:
            missing_reply(rec, turn)
        return turn

    @staticmethod
    def expected(rec: RecordMap, info: dict[str, Any], task: dict[str, Any]) -> list[Call] | None:
        """The task's ground-truth actions as expected calls, or ``None`` (with a warning) when missing."""
        actions, where = task.get("actions"), "info.task.actions"
        if actions is None and isinstance(info.get("reward_info"), dict):
            actions, where = info["reward_info"].get("actions"), "info.reward_info.actions"
        if not isinstance(actions, list):
            rec.warn(where, "must be the task's list of ground-truth actions; tool use is not scored for this trial",
                     actions, "keep info.task as tau-bench wrote it")
            return None
        read = (read_call(a, f"{where}[{i}]", rec) for i, a in enumerate(actions))
        return [c for c in read if c is not None]

    def partial_issue(self, file: str) -> list[Issue]:
        """One warning for the trials whose reward is strictly between 0 and 1."""
        if not self.partial:
            return []
        first = self.partial[0]
        return [
            Issue(
                "warning", file, first.index, "reward",
                f"{plural(len(self.partial), 'trial')} {'has' if len(self.partial) == 1 else 'have'} a reward "
                "strictly between 0 and 1; tau-bench counts a "
                "trial as solved only at reward 1, while here the judge's threshold decides", None,
                "set the threshold to 1 to count them as tau-bench does", first.line, None, first.session_id,
            )
        ]


def import_tau_bench(file: str, parsed: Parsed) -> Parsed:
    """Map a tau-bench results file, one trial per record, to seed-format records (see the module's description).

    As :func:`~agentic_core.io.importers.common.import_records`, plus the note on partial rewards.
    """
    importer = _TauImporter(file)
    out = import_records(file, parsed, importer, what="a trial object with 'task_id', 'reward' and 'traj'")
    out.issues.extend(importer.partial_issue(file))
    return out
