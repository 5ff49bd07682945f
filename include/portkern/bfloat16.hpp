// bfloat16: the upper half of an IEEE fp32 (sign, 8 exponent bits, 7 mantissa bits), the input type of the
// BF16 GEMM (portkern/blas.hpp). fp32's range with 2^-8 relative precision: what PyTorch's torch.bfloat16,
// oneDNN's bf16 and CUDA's __nv_bfloat16 hold, bit for bit.
//
// Conversion from float rounds to nearest, ties to even (as vcvtneps2bf16 and __float2bfloat16 do); NaN stays a
// (quiet) NaN, infinities stay infinite, values beyond the largest bfloat16 round to infinity. Conversion to
// float is exact.
#pragma once

#include <bit>
#include <cstdint>

namespace portkern {

struct bfloat16 {
  std::uint16_t bits = 0;

  bfloat16() = default;
  constexpr explicit bfloat16(float value) : bits(round(value)) {}
  constexpr explicit operator float() const { return std::bit_cast<float>(std::uint32_t(bits) << 16); }

  static constexpr bfloat16 from_bits(std::uint16_t bits) {
    bfloat16 b;
    b.bits = bits;
    return b;
  }
  friend constexpr bool operator==(bfloat16, bfloat16) = default;   // bitwise: NaN == the same NaN

 private:
  static constexpr std::uint16_t round(float value) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(value);
    if ((u & 0x7fffffffu) > 0x7f800000u) return std::uint16_t((u >> 16) | 0x40);   // NaN: keep it, quiet
    return std::uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);                 // nearest, ties to even
  }
};

static_assert(sizeof(bfloat16) == 2);

}  // namespace portkern
