// The AVX512-BF16 micro-kernel of the BF16 GEMM (bf16_gemm.hpp), for CPUs with VDPBF16PS and no AMX (Cooper
// Lake, Zen 4, Zen 5): the 32 x 32 block of C in four passes of 8 columns, each 2 x 8 zmm sums (32 rows x 8
// columns); per k pair two loads of A (16 rows x 2 k each, the packed VNNI layout) and eight broadcasts of a
// column's k pair from B.
#include "gemm/bf16/bf16_gemm.hpp"

#if defined(__x86_64__)
#if !defined(__AVX512BF16__) || !defined(__AVX512F__)
#error "kernel_avx512.cpp needs its own target flags (-mavx512bf16, cmake/cpu_simd.cmake)"
#endif

#include <immintrin.h>

#include <cstring>

namespace portkern::gemm_impl::bf16 {
namespace {

constexpr int pass_cols = 8;

void kernel(std::int64_t chunks, const Bits* a, const Bits* b, float* c, std::int64_t ldc, int rows, int cols,
            float alpha, float beta) {
  const __mmask16 low = rows >= 16 ? 0xffff : __mmask16((1u << rows) - 1);
  const __mmask16 high = rows >= 32 ? 0xffff : rows <= 16 ? 0 : __mmask16((1u << (rows - 16)) - 1);
  const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
  for (int j0 = 0; j0 < cols; j0 += pass_cols) {
    // Column j0 + j of the block: row (j0 + j) % 16 of each chunk's tile (j0 + j) / 16.
    const Bits* bj = b + (j0 / 16) * tile_size + (j0 % 16) * chunk_k;
    __m512 lo[pass_cols], hi[pass_cols];
    for (int j = 0; j < pass_cols; ++j) lo[j] = hi[j] = _mm512_setzero_ps();
    for (std::int64_t t = 0; t < chunks; ++t) {
      const Bits* at0 = a + t * chunk_size;
      const Bits* at1 = at0 + tile_size;
      const Bits* bt = bj + t * chunk_size;
      for (int pair = 0; pair < chunk_k / 2; ++pair) {
        const __m512bh x0 = (__m512bh)_mm512_loadu_si512(at0 + pair * 32);
        const __m512bh x1 = (__m512bh)_mm512_loadu_si512(at1 + pair * 32);
        for (int j = 0; j < pass_cols; ++j) {
          std::int32_t both;
          std::memcpy(&both, bt + j * chunk_k + 2 * pair, sizeof both);
          const __m512bh y = (__m512bh)_mm512_set1_epi32(both);
          lo[j] = _mm512_dpbf16_ps(lo[j], x0, y);
          hi[j] = _mm512_dpbf16_ps(hi[j], x1, y);
        }
      }
    }
    for (int j = 0; j < pass_cols && j0 + j < cols; ++j) {
      float* cj = c + (j0 + j) * ldc;
      __m512 l = _mm512_mul_ps(va, lo[j]), h = _mm512_mul_ps(va, hi[j]);
      if (beta != 0.f) {
        l = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(low, cj), l);
        h = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(high, cj + 16), h);
      }
      _mm512_mask_storeu_ps(cj, low, l);
      _mm512_mask_storeu_ps(cj + 16, high, h);
    }
  }
}

void nothing() {}

}  // namespace

// Pairs of columns interleaved: each 32-bit lane of the result holds row i's values at k = 2p and 2p + 1.
void avx512_pack_a_tile(const Bits* a, std::int64_t lda, Bits* out) {
  for (int pair = 0; pair < chunk_k / 2; ++pair) {
    const __m512i even = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i*)(a + 2 * pair * lda)));
    const __m512i odd = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i*)(a + (2 * pair + 1) * lda)));
    _mm512_storeu_si512(out + pair * 32, _mm512_or_si512(even, _mm512_slli_epi32(odd, 16)));
  }
}

namespace {

}  // namespace

const KernelSet* avx512_kernels() {
  static const bool usable = __builtin_cpu_supports("avx512bf16");
  static const KernelSet set{"avx512", kernel, avx512_pack_a_tile, nothing, nothing};
  return usable ? &set : nullptr;
}

}  // namespace portkern::gemm_impl::bf16

#else
namespace portkern::gemm_impl::bf16 {
const KernelSet* avx512_kernels() { return nullptr; }
}  // namespace portkern::gemm_impl::bf16
#endif
