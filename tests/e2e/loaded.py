"""What a worker process has imported, asked from the worker itself (this module imports
nothing of the project, so asking changes nothing)."""

from __future__ import annotations

import sys


def loaded(module: str) -> bool:
    return module in sys.modules
