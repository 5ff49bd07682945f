// divider: a divisor known when a kernel is launched, not when it is compiled, dividing by a multiply-high and a
// shift on both back ends. A kernel that maps its group's index to coordinates (n, y, x) divides by run-time
// sizes; CUDA has no 64-bit divide instruction (a division is a subroutine, with a shorter 32-bit path where the
// operands fit). Measured on the depthwise kernel, a pixel a thread (9 FMAs), on an H200: 1.05-1.10x on most
// layers. The magic number is computed on the host, where the kernel object is built:
//
//   struct MyKernel {
//     std::int64_t width;
//     kernel::divider by_width{width};        // a default member initializer: computed when the kernel is built
//     template <class Group> PORTKERN_KERNEL void operator()(Group& g) const {
//       const auto [row, column] = by_width.divmod(g.x());
//
// Exact for every numerator in [0, 2^63) and divisor in [1, 2^62] (Granlund and Montgomery, "Division by
// invariant integers using multiplication", 1994: with l = ceil(log2 d) and m = ceil(2^(63 + l) / d), which fits
// 64 bits, n / d = floor(m * n / 2^(63 + l))). A divisor below 1 is taken as 1 (a kernel built for an empty
// launch never divides).
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"

// The constructor runs on the host only (its 128-bit division is not device code).
#if defined(__CUDACC__)
#define PORTKERN_HOST_INLINE __host__ inline
#else
#define PORTKERN_HOST_INLINE inline
#endif

namespace portkern::kernel {

class divider {
  std::int64_t divisor_ = 1;
  std::uint64_t magic_ = 0;   // 0: the divisor is 1
  int shift_ = 0;             // l - 1: the product's high 64 bits are m * n / 2^64

  PORTKERN_INLINE static std::uint64_t multiply_high(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
    return __umul64hi(a, b);
#else
    return std::uint64_t((unsigned __int128)a * b >> 64);
#endif
  }

 public:
  divider() = default;
  PORTKERN_HOST_INLINE divider(std::int64_t divisor) : divisor_(divisor > 1 ? divisor : 1) {   // NOLINT: implicit
    if (divisor_ == 1) return;
    int l = 0;
    while ((std::int64_t(1) << l) < divisor_) ++l;   // ceil(log2 d), 1 <= l <= 62
    const unsigned __int128 power = (unsigned __int128)1 << (63 + l);
    magic_ = std::uint64_t((power + std::uint64_t(divisor_) - 1) / std::uint64_t(divisor_));
    shift_ = l - 1;
  }

  PORTKERN_INLINE std::int64_t divisor() const { return divisor_; }

  // n / d for 0 <= n < 2^63.
  PORTKERN_INLINE std::int64_t divide(std::int64_t n) const {
    if (magic_ == 0) return n;
    return std::int64_t(multiply_high(magic_, std::uint64_t(n)) >> shift_);
  }

  struct quotient_remainder {
    std::int64_t quotient, remainder;
  };
  // {n / d, n % d} for 0 <= n < 2^63.
  PORTKERN_INLINE quotient_remainder divmod(std::int64_t n) const {
    const std::int64_t q = divide(n);
    return {q, n - q * divisor_};
  }
};

}  // namespace portkern::kernel
