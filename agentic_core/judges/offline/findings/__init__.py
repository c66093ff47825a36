"""Detectors over an answer and its reference: what the texts say (typed tokens, negation, swapped roles, lists,
hedges), found and counted. No caps and no verdicts: the learned model weighs what they find.
"""
