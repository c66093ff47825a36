"""How a Ray worker gets the run's judge: rebuilt from its typed spec, or unpickled.

A judge given by spec (``evaluate(data, "llm", provider=..., model=...)`` makes one) travels as the spec's
:meth:`~agentic_core.judges.spec.JudgeSpecBase.worker_dump` and is rebuilt on each worker process, once per
run, with the spec's own validation (:func:`~agentic_core.judges.spec.spec_from_dump`), so an LLM judge's
concurrency and rate limit apply per worker. That dump holds the LLM judge's key in clear (resolved on the
driver, so workers need no variable of their own): it is kept out of this object's ``repr``. A judge object
(a custom judge) is shipped pickled with Ray's ``cloudpickle`` (classes and functions of a script or notebook
travel by value); one that cannot be pickled is an error naming the fix.
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
from agentic_core.judges.spec import JudgeSpecBase, spec_from_dump

__all__ = ["WorkerJudge", "worker_judge"]

_BUILT: OrderedDict[str, Judge] = OrderedDict()
_KEEP = 2  # judges kept per worker process (this run's and the previous one's)


@dataclass(frozen=True)
class WorkerJudge:
    """What a worker needs to build the run's judge.

    Attributes:
        dump: The spec's worker dump (``None`` for a pickled judge); never in the ``repr``.
        pickled: The pickled judge object (no ``dump``).
        key: Tells one run's judge from another's (a worker builds each once).
    """

    dump: dict[str, Any] | None = field(default=None, repr=False)
    pickled: bytes | None = field(default=None, repr=False)
    key: str = field(default_factory=lambda: uuid.uuid4().hex)

    @classmethod
    def of(cls, judge: Judge | JudgeSpecBase) -> WorkerJudge:
        """The hand-over of a spec or of a judge object.

        Raises:
            JudgeConfigError: the judge object cannot be pickled.
        """
        if isinstance(judge, JudgeSpecBase):
            return cls(dump=judge.worker_dump())
        cloudpickle = import_ray().cloudpickle  # by value where pickle goes by name: a script's own judge class
        try:
            return cls(pickled=cloudpickle.dumps(judge))
        except Exception as exc:  # pickling can fail with almost anything (locks, clients, lambdas)
            raise JudgeConfigError(
                "judge",
                "must be a registry name, a spec or a picklable judge to run on Ray (workers rebuild or unpickle it)",
                f"{type(judge).__name__} ({type(exc).__name__}: {exc})",
                "pass the judge by name (evaluate(data, 'llm', engine='ray', provider=..., model=...)) or as a "
                "spec, or make the object picklable",
            ) from None

    def build(self) -> Judge:
        """A fresh judge (on a worker)."""
        if self.pickled is not None:
            judge: Judge = pickle.loads(self.pickled)
            return judge
        return spec_from_dump(self.dump or {}).build()


def worker_judge(handover: WorkerJudge) -> Judge:
    """The judge of ``handover`` in this worker process, built at its first batch and reused after."""
    judge = _BUILT.get(handover.key)
    if judge is None:
        judge = handover.build()
        _BUILT[handover.key] = judge
        while len(_BUILT) > _KEEP:
            _BUILT.popitem(last=False)
    return judge
