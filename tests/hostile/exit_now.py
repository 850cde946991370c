"""Exits at once."""
import sys

sys.exit(0)
