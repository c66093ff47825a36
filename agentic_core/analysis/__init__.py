"""Everything computed from a judged run without calling a judge: aggregates, comparisons, calibration, gate, words."""
