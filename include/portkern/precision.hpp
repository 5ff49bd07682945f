// What a float GEMM or convolution may compute with, named for what it guarantees (cuBLAS's compute types,
// oneDNN's fpmath mode, PyTorch's allow_tf32), and how a kernel configuration multiplies.
//
//   Precision::accurate  the default: fp32 accuracy, an error of the order of IEEE SGEMM's (about k * 2^-24
//                        relative to the sum of |a * b|). May run on tensor cores through 3xTF32 (each operand
//                        split into two TF32 parts, three products): there an input within half a TF32 ulp of
//                        FLT_MAX, or an Inf or NaN input, gives NaN in the outputs it reaches (docs/gemm-cuda.md).
//   Precision::ieee      IEEE fp32 fused multiply-adds only, what a reference BLAS computes: Inf and NaN propagate
//                        as IEEE arithmetic says. No tensor cores.
//   Precision::tf32      the operands may be rounded to TF32 (10 mantissa bits, relative error 2^-11 each) and
//                        the products summed in fp32: PyTorch's allow_tf32, cuBLAS's CUBLAS_COMPUTE_32F_FAST_TF32.
//                        Where a device has no TF32 tensor cores this is the accurate precision.
//
// fp64 problems are computed in IEEE fp64 whatever the precision (as cuBLAS's math modes leave DGEMM alone).
#pragma once

#include <optional>
#include <string_view>

namespace portkern {

enum class Precision { accurate, ieee, tf32 };

// The arithmetic of a kernel configuration (fp32 data): fused multiply-adds, 3xTF32 or TF32 tensor-core atoms.
enum class Arithmetic { ieee, tf32x3, tf32 };

// Whether a call at `precision` may run a kernel computing with `arithmetic`.
constexpr bool allows(Precision precision, Arithmetic arithmetic) {
  switch (precision) {
    case Precision::ieee: return arithmetic == Arithmetic::ieee;
    case Precision::accurate: return arithmetic != Arithmetic::tf32;
    case Precision::tf32: return true;
  }
  return false;
}

inline constexpr Precision precisions[] = {Precision::accurate, Precision::ieee, Precision::tf32};

constexpr std::string_view name(Precision p) {
  switch (p) {
    case Precision::accurate: return "accurate";
    case Precision::ieee: return "ieee";
    case Precision::tf32: return "tf32";
  }
  return "?";
}

constexpr std::string_view name(Arithmetic a) {
  switch (a) {
    case Arithmetic::ieee: return "ieee";
    case Arithmetic::tf32x3: return "tf32x3";
    case Arithmetic::tf32: return "tf32";
  }
  return "?";
}

// The precision called `text` ("accurate", "ieee", "tf32"), or nothing.
constexpr std::optional<Precision> parse_precision(std::string_view text) {
  for (Precision p : precisions)
    if (name(p) == text) return p;
  return std::nullopt;
}

}  // namespace portkern
