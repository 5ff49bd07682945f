// float16: IEEE 754 binary16 ("half": sign, 5 exponent bits, 10 mantissa bits), the input type of the FP16 GEMM
// (portkern/blas.hpp). Largest finite 65504, 2^-11 relative precision, subnormals down to 2^-24: what PyTorch's
// torch.float16, oneDNN's f16 and CUDA's __half hold, bit for bit.
//
// Conversion from float rounds to nearest, ties to even (as vcvtps2ph and __float2half do), subnormals
// included; NaN stays a (quiet) NaN, infinities stay infinite, values from 65520 up round to infinity.
// Conversion to float is exact.
#pragma once

#include <bit>
#include <cstdint>

namespace portkern {

struct float16 {
  std::uint16_t bits = 0;

  float16() = default;
  constexpr explicit float16(float value) : bits(round(value)) {}
  constexpr explicit operator float() const {
    const std::uint32_t sign = std::uint32_t(bits & 0x8000u) << 16, exponent = (bits >> 10) & 0x1fu, mantissa = bits & 0x3ffu;
    if (exponent == 0) {   // zero or subnormal: mantissa * 2^-24
      const float magnitude = float(mantissa) * 0x1p-24f;
      return std::bit_cast<float>(std::bit_cast<std::uint32_t>(magnitude) | sign);
    }
    if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | mantissa << 13);   // Inf, NaN
    return std::bit_cast<float>(sign | (exponent + 112) << 23 | mantissa << 13);
  }

  static constexpr float16 from_bits(std::uint16_t bits) {
    float16 h;
    h.bits = bits;
    return h;
  }
  friend constexpr bool operator==(float16, float16) = default;   // bitwise: NaN == the same NaN

 private:
  static constexpr std::uint16_t round(float value) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(value);
    const std::uint16_t sign = std::uint16_t((u >> 16) & 0x8000u);
    const std::uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return sign | 0x7e00u | std::uint16_t((a >> 13) & 0x3ffu);   // NaN: keep it, quiet
    if (a >= 0x477ff000u) return sign | 0x7c00u;                                      // 65520 and up: Inf
    if (a >= 0x38800000u)                                                               // normal: rebias, round bit 13
      return sign | std::uint16_t((a + 0xfffu + ((a >> 13) & 1u) - 0x38000000u) >> 13);
    // Subnormal or zero: adding 0.5 (whose ulp is 2^-24, the smallest half) rounds to nearest even in fp32's
    // own arithmetic; what lies above 0.5 is the half's bits (0x400 when it rounds up to the smallest normal).
    const float shifted = std::bit_cast<float>(a) + 0.5f;
    return sign | std::uint16_t(std::bit_cast<std::uint32_t>(shifted) - std::bit_cast<std::uint32_t>(0.5f));
  }
};

static_assert(sizeof(float16) == 2);

}  // namespace portkern
