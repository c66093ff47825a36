"""The version of the workbench (recorded in every export)."""

__version__ = "0.1.0"
