"""Inspect AI eval logs (the JSON log format: ``inspect eval ... --log-format json``) mapped to the seed format.

A log is one document, ``{"version": 2, "status": "success", "eval": {"task", "model", ...},
"results": ..., "samples": [...]}``; each sample ``{"id", "epoch", "input", "target", "messages",
"output", "scores", ...}`` is one attempt (epoch) at one task (the sample id). Each sample becomes
a conversation: ``task_id`` the sample id, ``session_id`` ``<id>-epoch-<epoch>``, ``assistant_id``
the model. Inspect scores a sample as a whole, so a sample is ONE interaction: the query is the
input (its last user message when the input is a chat), the answer the output's completion (else
the last assistant text), ``tools_used`` every tool call in ``messages`` with its result, the
ground truth the target (several targets joined by "; "), and ``score`` the first scorer's value:
``C`` (correct) 1, ``I`` (incorrect) 0, ``P`` (partial) 0.5, ``N`` (no answer) 0, yes/no and
true/false, or a number in [0, 1], as Inspect's ``value_to_float`` reads them. Other scorers are
named in a note. ``attachment://`` references are resolved from the sample's ``attachments``. The
sample's ``events`` (its timed transcript) become its ``spans``, the Explorer's span tree
(:mod:`agentic_core.io.importers.inspect_events`).

Inspect's default ``.eval`` log is a zip archive: convert it first with
``inspect log convert --to json LOG.eval``.
"""

from __future__ import annotations

from typing import Any

from agentic_core.io.importers.build import interaction, missing_reply
from agentic_core.io.importers.common import KeyTally, RecordMap, content_text, file_stem, map_records
from agentic_core.io.importers.inspect_events import inspect_span_records
from agentic_core.io.importers.messages import Turn, walk_messages, whole_trace
from agentic_core.io.importers.tau_bench import collapse
from agentic_core.io.line_numbers import LazyLines
from agentic_core.io.load_report import Issue
from agentic_core.io.parsed import Parsed
from agentic_core.io.render import json_type

_LETTERS = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}
_WORDS = {"yes": 1.0, "true": 1.0, "correct": 1.0, "no": 0.0, "false": 0.0, "incorrect": 0.0}
_ATTACHMENT = "attachment://"

_READ = frozenset({"id", "epoch", "input", "target", "messages", "output", "scores", "attachments", "error",
                   "events"})
_UNUSED = {
    "choices": "multiple-choice options are not shown to the judges (the target is the ground truth)",
    "metadata": "sample metadata is not evaluated",
    "store": "the sample's store is not evaluated",
    "model_usage": "token usage is not evaluated",
    "total_time": "timing is not evaluated",
    "working_time": "timing is not evaluated",
    "sandbox": "the sandbox set-up is not evaluated",
    "files": "the sandbox set-up is not evaluated",
    "setup": "the sandbox set-up is not evaluated",
    "uuid": "the sample is named by its id and epoch",
    "error_retries": "only the final attempt of a sample is read",
    "limit": "the limit a sample hit is not evaluated (its messages are read as they stand)",
}


def inspect_score_value(value: Any) -> float | None:
    """An Inspect score value as a number in [0, 1], or ``None`` when it has no such reading."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value) if 0 <= value <= 1 else None
    if isinstance(value, str):
        text = value.strip()
        if text in _LETTERS:
            return _LETTERS[text]
        if text.lower() in _WORDS:
            return _WORDS[text.lower()]
        try:
            number = float(text)
        except ValueError:
            return None
        return number if 0 <= number <= 1 else None
    return None


def resolve_attachments(value: Any, attachments: dict[str, Any]) -> Any:
    """``value`` with every ``attachment://<id>`` string replaced by the attachment's text."""
    if isinstance(value, str):
        if value.startswith(_ATTACHMENT):
            found = attachments.get(value[len(_ATTACHMENT) :])
            return found if isinstance(found, str) else value
        return value
    if isinstance(value, list):
        return [resolve_attachments(v, attachments) for v in value]
    if isinstance(value, dict):
        return {k: resolve_attachments(v, attachments) for k, v in value.items()}
    return value


class _InspectImporter:
    """The state of one log's import: its model, and the scorers seen (for the note about the others)."""

    def __init__(self, file: str, log: dict[str, Any]) -> None:
        spec: dict[str, Any] = log["eval"] if isinstance(log.get("eval"), dict) else {}
        model = spec.get("model")
        self.model = model if isinstance(model, str) and model.strip() else file_stem(file)
        self.scorers: dict[str, int] = {}
        self.first_scorer: str | None = None
        self.keys = KeyTally("an Inspect AI sample", _READ, _UNUSED)

    def one(self, rec: RecordMap, raw: dict[str, Any]) -> dict[str, Any] | None:
        """One sample as a seed conversation (``None``, with an error recorded, when it cannot be mapped)."""
        sample_id = rec.required_id(raw, "id", "the sample's id (a string or an integer)",
                                    "keep the samples as Inspect wrote them")
        if sample_id is None:
            return None
        epoch = raw.get("epoch", 1)
        if isinstance(epoch, bool) or not isinstance(epoch, int):
            rec.warn("epoch", "must be the epoch's number (an integer); 1 was assumed", epoch,
                     "keep the samples as Inspect wrote them")
            epoch = 1
        rec.session_id = f"{sample_id}-epoch-{epoch}"
        rec.origin("session_id", "epoch")
        rec.origin("task_id", "id")
        attachments = raw.get("attachments") if isinstance(raw.get("attachments"), dict) else {}
        if attachments:
            raw = resolve_attachments(raw, attachments)
        turn, trace = self.sample_turn(rec, raw)
        if turn is None:
            return None
        error = raw.get("error")
        if error:
            why = error.get("message") if isinstance(error, dict) else error
            rec.warn("error", "the sample ended with an error; it is evaluated as it stands", why,
                     "re-run the sample (inspect eval-retry LOG) if the error was not the agent's")
        target = raw.get("target")
        if isinstance(target, list):
            target, target_path = "; ".join(t for t in target if isinstance(t, str)), "target"
        elif isinstance(target, str):
            target_path = "target"
        else:
            if target is not None:
                rec.warn("target", f"must be a string or a list of strings; it is {json_type(target)}, left out",
                         target, "keep the samples as Inspect wrote them")
            target, target_path = None, None
        mapped = interaction(rec, "conversation[0]", sample_id, turn, ground_truth=(target or None, target_path),
                             score=self.score(rec, raw))
        rec.origin("conversation", "messages")
        out = {"session_id": rec.session_id, "assistant_id": self.model, "task_id": sample_id,
               "conversation": [mapped]}
        if trace:
            out["trace"] = trace
            rec.origin("trace", "messages")
        spans = inspect_span_records(rec, raw.get("events"))
        if spans:
            out["spans"] = spans  # the Explorer's span tree
            rec.origin("spans", "events")
        return out

    @staticmethod
    def sample_turn(rec: RecordMap, raw: dict[str, Any]) -> tuple[Turn | None, list[dict[str, Any]]]:
        """The sample as one turn (the input, the output's completion, every tool call in its messages)
        and its whole trace (``Conversation.trace``)."""
        messages = raw.get("messages")
        messages = messages if isinstance(messages, list) else []
        walk = walk_messages(messages, rec, "messages")
        trace = whole_trace(walk, one_interaction=True)
        turn = collapse(walk.turns, walk.ended_unanswered)
        given = raw.get("input")
        if isinstance(given, str):
            query, query_path = given, "input"
        elif isinstance(given, list):
            users = [(i, m) for i, m in enumerate(given) if isinstance(m, dict) and m.get("role") == "user"]
            query, query_path = None, None
            if users:
                i, last = users[-1]
                query, query_path = content_text(last.get("content"), f"input[{i}].content", rec), f"input[{i}].content"
        else:
            query, query_path = None, None
        if turn is None:
            if query is None:
                rec.error("input", "holds no user message and the sample has no messages: nothing to evaluate",
                          given, "keep the samples as Inspect wrote them")
                return None, trace
            turn = Turn(query, query_path or "input")
        elif query is not None and query_path is not None:
            turn.query, turn.query_path = query, query_path
        output = raw.get("output")
        completion = output.get("completion") if isinstance(output, dict) else None
        if isinstance(completion, str) and completion.strip():
            turn.answer, turn.answer_path = completion, "output.completion"
        if turn.answer is None:
            missing_reply(rec, turn)
        return turn, trace

    def score(self, rec: RecordMap, raw: dict[str, Any]) -> tuple[float | None, str | None]:
        """The first scorer's value as a number in [0, 1] and its place, or ``(None, None)`` with a warning."""
        scores = raw.get("scores")
        if not isinstance(scores, dict) or not scores:
            rec.warn("scores", "the sample has no score; the dataset judge leaves it unscored", scores,
                     "score the log (inspect score LOG) or choose a judge that grades the answer")
            return None, None
        for name in scores:
            self.scorers[name] = self.scorers.get(name, 0) + 1
        name = self.first_scorer if self.first_scorer in scores else next(iter(scores))
        self.first_scorer = self.first_scorer or name
        entry = scores[name]
        value = entry.get("value") if isinstance(entry, dict) else None
        number = inspect_score_value(value)
        if number is None:
            rec.warn(f"scores.{name}.value", "has no reading as a number in [0, 1] (C / I / P / N, yes / no, "
                     "true / false or a number); the sample is left unscored", value,
                     "use a scorer whose value is one of these")
            return None, None
        return number, f"scores.{name}.value"

    def scorer_note(self, file: str) -> list[Issue]:
        """A note naming the scorers that were not read, if any."""
        others = [name for name in self.scorers if name != self.first_scorer]
        if not others or self.first_scorer is None:
            return []
        return [Issue("info", file, None, "samples[*].scores", f"the score is read from the scorer "
                      f"{self.first_scorer!r}; the log also has {', '.join(repr(o) for o in others)}, not used", None,
                      "keep the scorer to evaluate first in each sample's scores")]


def import_inspect(file: str, parsed: Parsed) -> Parsed:
    """Map an Inspect AI eval log to seed-format records, one per sample (see the module's description).

    Args:
        file: The file name.
        parsed: The file as parsed (one object, the log).

    Returns:
        The mapped file: record ``i`` is ``samples[i]``, and every issue is located in the log.
    """
    log = parsed.records[0] if len(parsed.records) == 1 and isinstance(parsed.records[0], dict) else None
    samples = log.get("samples") if log is not None else None
    if log is None or not isinstance(samples, list) or not samples:
        status = log.get("status") if log is not None else None
        why = f" (the log's status is {status!r})" if isinstance(status, str) and status != "success" else ""
        issue = Issue("error", file, None, "samples", f"an Inspect log must hold its samples; this one has none{why}",
                      None, "write the log with its samples (inspect eval --log-samples) and convert .eval logs "
                      "with inspect log convert --to json")
        return Parsed("invalid", issues=[*parsed.issues, issue], stdlib=parsed.stdlib)
    importer = _InspectImporter(file, log)
    lines = LazyLines(parsed.raw, b'"samples"', len(samples))
    out = map_records(file, parsed, importer.one, records=samples, line_of=lines, base=lambda i: f"samples[{i}]",
                      what="a sample object", keys=importer.keys)
    out.kind = "array"
    status = log.get("status")
    if isinstance(status, str) and status != "success":
        out.issues.append(
            Issue("warning", file, None, "status", f"the log's status is {status!r}, not 'success'; the samples it "
                  "holds are evaluated, others of the task may be missing", status,
                  "re-run or retry the evaluation (inspect eval-retry LOG) for a complete log")
        )
    out.issues.extend(importer.keys.issues(file))
    out.issues.extend(importer.scorer_note(file))
    return out
