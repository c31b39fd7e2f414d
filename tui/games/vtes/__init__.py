"""VTES screens."""
