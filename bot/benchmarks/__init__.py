"""Benchmarks behind ``python -m bot bench``: speed figures, never timed tests."""
