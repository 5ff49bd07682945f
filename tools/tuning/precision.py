"""Precisions and the arithmetic of configurations, as the library defines them (include/portkern/precision.hpp).

A deployment is made per precision: it may only pick configurations whose arithmetic the precision allows
(ieee: IEEE FMA only; accurate: IEEE or 3xTF32; tf32: any). A configuration's arithmetic is in its name: a
`tiled`/`implicit` name ending "_x3" computes with 3xTF32, "_tf32" with TF32, others with IEEE FMA;
cuda_native/tf32x3 with 3xTF32. cuda_native/auto and implicit_wgmma adapt to the call's precision (ADAPTIVE), so
their rows measured at one precision say nothing of them at a precision where they compute otherwise. `portkern
tune` measures every configuration at the tf32 precision (which allows all; auto computes there as at the
default one).
"""
from __future__ import annotations

PRECISIONS = ("accurate", "ieee", "tf32")
DEFAULT = "accurate"
# Configurations whose arithmetic follows the call's precision: IEEE FMA at ieee, tensor cores at the others.
# cuda_native/auto takes 3xTF32 at accurate and tf32; implicit_wgmma takes 3xTF32 at accurate and TF32 at tf32 (named
# tf32x3 here too: what matters is that no row of it measured at accurate or tf32 serves an ieee deployment, where it
# runs as im2col, src/conv2d/implicit_wgmma/).
ADAPTIVE = frozenset({"cuda_native/auto", "implicit_wgmma/default"})


def arithmetic(config: str, precision: str = DEFAULT) -> str:
    """The arithmetic `config` computes float products with when called at `precision`."""
    if config in ADAPTIVE:
        return "ieee" if precision == "ieee" else "tf32x3"
    if config.endswith("_x3") or config == "cuda_native/tf32x3":
        return "tf32x3"
    if config.endswith("_tf32"):
        return "tf32"
    return "ieee"


def allows(precision: str, arith: str) -> bool:
    """Whether a call at `precision` may run a kernel computing with `arith`."""
    if precision not in PRECISIONS:
        raise ValueError(f"unknown precision {precision!r}; one of {', '.join(PRECISIONS)}")
    return {"ieee": arith == "ieee", "accurate": arith != "tf32", "tf32": True}[precision]


def usable(config: str, precision: str, measured_at: str = DEFAULT) -> bool:
    """Whether rows of `config` measured at `measured_at` can serve a deployment for `precision`: it computes
    the same way at both, with an arithmetic `precision` allows."""
    arith = arithmetic(config, precision)
    return arith == arithmetic(config, measured_at) and allows(precision, arith)
