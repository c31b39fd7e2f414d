"""Vampire Queen screens."""
