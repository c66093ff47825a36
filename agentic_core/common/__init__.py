"""Leaves every layer may use: the pass rule, wording, whole-file writes, secret masking, GC pauses, lazy sequences."""
