"""Adapters: run real libraries' stream reassembly over fixtures, offline.

Importing this package imports no third-party library; each adapter imports
its library lazily in ``available()``/``run()``.
"""

from .base import (
    NO_INPUT,
    Adapter,
    AdapterCall,
    AdapterOutputError,
    AdapterResult,
    AdapterUnavailable,
    Rejected,
    UnsupportedProfile,
)
from .registry import ADAPTERS, adapter_names, get_adapter, resolve_adapter

__all__ = [
    "ADAPTERS",
    "NO_INPUT",
    "Adapter",
    "AdapterCall",
    "AdapterOutputError",
    "AdapterResult",
    "AdapterUnavailable",
    "Rejected",
    "UnsupportedProfile",
    "adapter_names",
    "get_adapter",
    "resolve_adapter",
]
