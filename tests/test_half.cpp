// The kernel model's binary16 conversions (portkern/kernel/half.hpp) against the compiler's own: on the CPU
// they are written in vectorisable integer and float arithmetic, so they are checked bit for bit — every half
// widened, and floats chosen where rounding is decided (every exponent and sign, each of the 13 dropped bits'
// halfway patterns) plus an even sweep of all 2^32 bit patterns.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "portkern/kernel/half.hpp"

namespace {

using portkern::half;
namespace kernel = portkern::kernel;

#if defined(__aarch64__) || defined(__arm__)
using host_half = __fp16;   // GCC 12 has no C++ _Float16 on Arm
#else
using host_half = _Float16;
#endif

std::uint32_t float_bits(float f) { return std::bit_cast<std::uint32_t>(f); }

TEST(HalfCpu, EveryHalfWidensExactly) {
  for (std::uint32_t bits = 0; bits < 65536; ++bits) {
    const float want = float(std::bit_cast<host_half>(std::uint16_t(bits)));
    const float got = kernel::to_float(half{std::uint16_t(bits)});
    ASSERT_EQ(float_bits(got), float_bits(want)) << "half bits " << std::hex << bits;
    if (!std::isnan(got)) ASSERT_EQ(kernel::to_half(got).bits, bits) << "round trip of half bits " << std::hex << bits;
  }
}

void expect_rounds_as_hardware(std::uint32_t bits) {
  const float f = std::bit_cast<float>(bits);
  const std::uint16_t want = std::bit_cast<std::uint16_t>(static_cast<host_half>(f));
  ASSERT_EQ(kernel::to_half(f).bits, want) << "float bits " << std::hex << bits << " (" << f << ")";
}

TEST(HalfCpu, FloatsRoundToNearestEvenAsTheHardware) {
  // Halfway cases and their neighbours in the 13 bits a normal half drops (and the low bits subnormal halves
  // drop, which these patterns cross too), under random high mantissas, for every exponent and sign.
  const std::uint32_t low[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x0800, 0x17ff};
  std::mt19937 rng(7);
  for (std::uint32_t sign = 0; sign < 2; ++sign)
    for (std::uint32_t exponent = 0; exponent < 256; ++exponent)
      for (int trial = 0; trial < 16; ++trial) {
        const std::uint32_t high = trial == 0 ? 0 : trial == 1 ? 0x3ff : rng() & 0x3ff;
        for (std::uint32_t l : low) expect_rounds_as_hardware(sign << 31 | exponent << 23 | high << 13 | l);
      }
  // An even sweep over all bit patterns (a prime stride, so that every low-bit pattern is visited).
  for (std::uint64_t bits = 0; bits < (std::uint64_t(1) << 32); bits += 1021) expect_rounds_as_hardware(std::uint32_t(bits));
}

TEST(HalfCpu, ConversionsVectoriseWithTheSameResults) {
  // The same functions inside a loop GCC vectorises (as a kernel's item loop is) give the same bits.
  std::vector<float> in(4096), out(in.size());
  std::vector<half> mid(in.size());
  std::mt19937 rng(11);
  for (auto& v : in) v = std::bit_cast<float>(std::uint32_t(rng()));
#pragma omp simd
  for (std::size_t i = 0; i < in.size(); ++i) mid[i] = kernel::to_half(in[i]);
#pragma omp simd
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = kernel::to_float(mid[i]);
  for (std::size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(mid[i].bits, std::bit_cast<std::uint16_t>(static_cast<host_half>(in[i])));
    ASSERT_EQ(float_bits(out[i]), float_bits(float(std::bit_cast<host_half>(mid[i].bits))));
  }
}

// The vector conversions (load_float, store_half: vcvtph2ps / vcvtps2ph on x86, lane by lane elsewhere) at
// every width a kernel may use, against the scalar ones: every half, and floats of every exponent with the
// halfway patterns (in the 16-bit lanes of the widest vectors, at every position within the vector).
template <int N>
void expect_vectors_convert_as_scalars() {
  for (std::uint32_t base = 0; base < 65536; base += N) {
    half h[N];
    for (int i = 0; i < N; ++i) h[i] = half{std::uint16_t(base + i)};
    const kernel::vec<float, N> f = kernel::load_float<N>(h);
    for (int i = 0; i < N; ++i) ASSERT_EQ(float_bits(f[i]), float_bits(kernel::to_float(h[i]))) << "N " << N << " half bits " << std::hex << base + i;
  }
  std::mt19937 rng(13);
  const std::uint32_t low[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x0800, 0x17ff};
  for (int trial = 0; trial < 20000; ++trial) {
    kernel::vec<float, N> f;
    for (int i = 0; i < N; ++i)
      f[i] = std::bit_cast<float>(std::uint32_t(rng() & 0xffffe000u) | low[rng() % 8] | (trial % 2 ? 0x38000000u : 0u));
    half got[N + 1];
    got[N] = half{0x5555};   // the element after the vector stays untouched
    kernel::store_half(f, got);
    for (int i = 0; i < N; ++i) ASSERT_EQ(got[i].bits, kernel::to_half(f[i]).bits) << "N " << N << " float bits " << std::hex << float_bits(f[i]);
    ASSERT_EQ(got[N].bits, 0x5555) << "N " << N;
  }
}

TEST(HalfCpu, VectorConversionsEqualTheScalarOnes) {
  expect_vectors_convert_as_scalars<1>();
  expect_vectors_convert_as_scalars<2>();
  expect_vectors_convert_as_scalars<8>();
  expect_vectors_convert_as_scalars<16>();
  expect_vectors_convert_as_scalars<32>();
}

}  // namespace
