"""Benchmarks (not tests): run with `python -m bench.<name>`; figures go to the README table."""
