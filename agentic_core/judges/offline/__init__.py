"""The offline judges' wing: the learned model (with and without the embedding), its features, the facts the
texts state, the MiniLM embedding. No key, no network; the embedding model loads on first use.

The detectors the features read live one floor down, in :mod:`agentic_core.judges.offline.findings`.
"""
