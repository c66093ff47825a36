"""agentic_core: the engine of the agent-evaluation workbench (never imports streamlit)."""

__version__ = "0.1.0"
