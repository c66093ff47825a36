"""What a run reads of its conversations, kept in columns: interaction columns and per-interaction tool components."""
