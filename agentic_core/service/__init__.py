"""Seed 001's HTTP endpoint over the workbench's core, and the same as an AWS Lambda function.

- :mod:`~agentic_core.service.run`: the pure request -> response function (:class:`Service`,
  :func:`run_request`); everything else wraps it.
- :mod:`~agentic_core.service.models`: the request and response models (pydantic, OpenAPI).
- :mod:`~agentic_core.service.connector`: ``connector`` -> judge, by an allow-list (nothing imported
  from the request), parameters filtered, keys kept out of every message.
- :mod:`~agentic_core.service.response`: the response document from an evaluation and an aggregate.
- :mod:`~agentic_core.service.config`: limits, cache and key policy.
- :mod:`~agentic_core.service.app`: the FastAPI app (``create_app``), imported only when serving.
- :mod:`~agentic_core.service.aws_lambda`: ``lambda_handler(event, context)``.
"""

from agentic_core.service.aws_lambda import lambda_handler
from agentic_core.service.config import ServiceConfig
from agentic_core.service.run import Service, ServiceReply, run_request

__all__ = ["Service", "ServiceConfig", "ServiceReply", "lambda_handler", "run_request"]
