"""Re-run an entry point under the project venv (.venv at the repository root) when the current interpreter
lacks the pipeline's dependencies, so `python3 tools/tuning/analyze.py ...` works after `make` created it."""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def ensure(modules: tuple[str, ...] = ("numpy", "pandas", "sklearn")) -> None:
    """Exec the venv's python on the same argv if one of `modules` cannot be imported here."""
    if all(importlib.util.find_spec(m) is not None for m in modules):
        return
    venv_python = ROOT / ".venv" / "bin" / "python"
    in_venv = Path(sys.prefix).resolve() == (ROOT / ".venv").resolve()
    if venv_python.exists() and not in_venv and not os.environ.get("PORTKERN_TUNING_REEXEC"):
        os.environ["PORTKERN_TUNING_REEXEC"] = "1"
        os.execv(str(venv_python), [str(venv_python), *sys.argv])
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    sys.exit(f"missing Python packages {missing}: python3 -m venv .venv && "
             f".venv/bin/pip install -r tools/tuning/requirements.txt")
