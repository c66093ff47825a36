"""How a Ray worker gets the run's judge: rebuilt from its registry name and options, or unpickled.

A judge named by the registry (``"lexical"``, ``"llm"`` with its options) is rebuilt on each worker
process, once per run, so an LLM judge's concurrency and rate limit apply per worker. A judge
object (a custom judge) is shipped pickled with Ray's ``cloudpickle`` (classes and functions of a
script or notebook travel by value); one that cannot be pickled is an error naming the fix.
"""

from __future__ import annotations

import pickle
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from agentic_core.engines.ray_session import import_ray
from agentic_core.errors import JudgeConfigError
from agentic_core.judges.base import Judge

__all__ = ["JudgeSpec", "worker_judge"]

_BUILT: OrderedDict[str, Judge] = OrderedDict()
_KEEP = 2  # judges kept per worker process (this run's and the previous one's)


@dataclass(frozen=True)
class JudgeSpec:
    """What a worker needs to build the run's judge.

    Attributes:
        name: The registry name, or ``None`` for a pickled judge.
        options: The registry options (``name`` only).
        pickled: The pickled judge object (no ``name``).
        key: Tells one run's judge from another's (a worker builds each once).
    """

    name: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    pickled: bytes | None = None
    key: str = field(default_factory=lambda: uuid.uuid4().hex)

    @classmethod
    def of(cls, judge: Judge | str, options: dict[str, Any]) -> JudgeSpec:
        """The spec of a registry name (with options) or of a judge object.

        Raises:
            JudgeConfigError: the judge object cannot be pickled.
        """
        if isinstance(judge, str):
            return cls(name=judge, options=dict(options))
        cloudpickle = import_ray().cloudpickle  # by value where pickle goes by name: a script's own judge class
        try:
            return cls(pickled=cloudpickle.dumps(judge))
        except Exception as exc:  # pickling can fail with almost anything (locks, clients, lambdas)
            raise JudgeConfigError(
                "judge",
                "must be a registry name or a picklable judge to run on Ray (workers rebuild or unpickle it)",
                f"{type(judge).__name__} ({type(exc).__name__}: {exc})",
                "pass the judge by name (evaluate(data, 'llm', engine='ray', provider=..., model=...)) "
                "or make the object picklable",
            ) from None

    def build(self) -> Judge:
        """A fresh judge (on a worker)."""
        if self.pickled is not None:
            judge: Judge = pickle.loads(self.pickled)
            return judge
        from agentic_core.judges.registry import build_judge

        return build_judge(self.name or "", **self.options)


def worker_judge(spec: JudgeSpec) -> Judge:
    """The judge of ``spec`` in this worker process, built at its first batch and reused after."""
    judge = _BUILT.get(spec.key)
    if judge is None:
        judge = spec.build()
        _BUILT[spec.key] = judge
        while len(_BUILT) > _KEEP:
            _BUILT.popitem(last=False)
    return judge
