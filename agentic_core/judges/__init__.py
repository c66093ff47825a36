"""Judges: the protocol, the registry and the implementations."""
