"""Loaders: the only code that reads data files."""
