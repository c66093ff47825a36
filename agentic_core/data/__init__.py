"""The seed data models: conversations, interactions, tool calls, imported traces and human overrides."""
