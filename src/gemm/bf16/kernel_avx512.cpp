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

#include <algorithm>
#include <cstring>
#include <vector>

namespace portkern::gemm_impl::bf16 {
namespace {

constexpr int pass_cols = 8;

void kernel(std::int64_t chunks, const Bits* a, const BPanel& b, float* c, std::int64_t ldc, int rows, int cols,
            float alpha, float beta) {
  const __mmask16 low = rows >= 16 ? 0xffff : __mmask16((1u << rows) - 1);
  const __mmask16 high = rows >= 32 ? 0xffff : rows <= 16 ? 0 : __mmask16((1u << (rows - 16)) - 1);
  const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
  for (int j0 = 0; j0 < cols; j0 += pass_cols) {
    // Column j0 + j of the block: row (j0 + j) % 16 of each chunk's tile (j0 + j) / 16.
    const Bits* bj = b.at + (j0 / 16) * b.half_step + (j0 % 16) * b.column_step;
    // The sums stay in 16 zmm registers: every loop over j is unrolled (GCC kept the arrays on the stack
    // otherwise, at half the speed).
    __m512 lo[pass_cols], hi[pass_cols];
    const Bits* column[pass_cols];
#pragma GCC unroll 8
    for (int j = 0; j < pass_cols; ++j) lo[j] = hi[j] = _mm512_setzero_ps(), column[j] = bj + j * b.column_step;
    for (std::int64_t t = 0; t < chunks; ++t) {
      const Bits* at0 = a + t * chunk_size;
      const Bits* at1 = at0 + tile_size;
      const std::int64_t bt = t * b.chunk_step;
      for (int pair = 0; pair < chunk_k / 2; ++pair) {
        const __m512bh x0 = (__m512bh)_mm512_loadu_si512(at0 + pair * 32);
        const __m512bh x1 = (__m512bh)_mm512_loadu_si512(at1 + pair * 32);
#pragma GCC unroll 8
        for (int j = 0; j < pass_cols; ++j) {
          std::int32_t both;
          std::memcpy(&both, column[j] + bt + 2 * pair, sizeof both);
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

namespace {

constexpr int direct_cols = 4;

// C[i0 : i0 + R, j0 : j0 + cols] from R packed rows of A and 4 columns of B (columns past `cols` read column j0
// again and are not stored): R x 4 zmm sums, kept in registers by the compile-time R.
template <int R>
void dot_group(const GemmArgs<float, bfloat16>& p, const Bits* rows, std::int64_t row_length, std::int64_t i0,
               std::int64_t j0, int cols, std::int64_t chunks, __mmask32 tail_mask) {
  __m512 sums[R][direct_cols];
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int c = 0; c < direct_cols; ++c) sums[r][c] = _mm512_setzero_ps();
  const bfloat16* columns[direct_cols];
  for (int c = 0; c < direct_cols; ++c) columns[c] = p.b + (j0 + (c < cols ? c : 0)) * p.ldb;
  for (std::int64_t t = 0; t < chunks; ++t) {
    const __mmask32 mask = t + 1 == chunks ? tail_mask : ~__mmask32(0);
    __m512bh y[direct_cols];
#pragma GCC unroll 4
    for (int c = 0; c < direct_cols; ++c) y[c] = (__m512bh)_mm512_maskz_loadu_epi16(mask, columns[c] + t * chunk_k);
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      const __m512bh x = (__m512bh)_mm512_loadu_si512(rows + (i0 + r) * row_length + t * chunk_k);
#pragma GCC unroll 4
      for (int c = 0; c < direct_cols; ++c) sums[r][c] = _mm512_dpbf16_ps(sums[r][c], x, y[c]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < cols; ++c) {
      float& out = p.c[(i0 + r) + (j0 + c) * p.ldc];
      const float product = p.alpha * _mm512_reduce_add_ps(sums[r][c]);
      out = p.beta == 0.f ? product : product + p.beta * out;
    }
}

}  // namespace

// Dot products of up to 4 rows of A (packed: k contiguous, zeros to a whole chunk) with 4 columns of B at a
// time; B's last partial chunk is read through a mask. B is read once per 4 rows (from L2 after the first).
void avx512_direct(const GemmArgs<float, bfloat16>& p, bool trans_a, std::int64_t n0, std::int64_t n1) {
  const std::int64_t chunks = (p.k + chunk_k - 1) / chunk_k, tail = p.k - (chunks - 1) * chunk_k;
  const std::int64_t row_length = chunks * chunk_k;
  const __mmask32 tail_mask = tail >= 32 ? ~__mmask32(0) : __mmask32((1u << tail) - 1);
  thread_local std::vector<Bits> rows;   // A's rows, zeros past k
  rows.assign(std::size_t(p.m * row_length), 0);
  for (std::int64_t i = 0; i < p.m; ++i)
    for (std::int64_t l = 0; l < p.k; ++l)
      rows[std::size_t(i * row_length + l)] = p.a[trans_a ? l + i * p.lda : i + l * p.lda].bits;
  for (std::int64_t j0 = n0; j0 < n1; j0 += direct_cols) {
    const int cols = int(std::min<std::int64_t>(direct_cols, n1 - j0));
    std::int64_t i0 = 0;
    for (; i0 + 4 <= p.m; i0 += 4) dot_group<4>(p, rows.data(), row_length, i0, j0, cols, chunks, tail_mask);
    switch (p.m - i0) {
      case 3: dot_group<3>(p, rows.data(), row_length, i0, j0, cols, chunks, tail_mask); break;
      case 2: dot_group<2>(p, rows.data(), row_length, i0, j0, cols, chunks, tail_mask); break;
      case 1: dot_group<1>(p, rows.data(), row_length, i0, j0, cols, chunks, tail_mask); break;
      default: break;
    }
  }
}

// Pairs of columns interleaved: each 32-bit lane of a tile row holds one row's values at k = 2p and 2p + 1. Each
// column's 32 rows (one cache line) are loaded once and two permutes write both tiles' rows.
void avx512_pack_a_chunk(const Bits* a, std::int64_t lda, int rows, int depth, Bits* out) {
  alignas(64) static constexpr std::uint16_t low_index[32] = {0,  32, 1,  33, 2,  34, 3,  35, 4,  36, 5,
                                                              37, 6,  38, 7,  39, 8,  40, 9,  41, 10, 42,
                                                              11, 43, 12, 44, 13, 45, 14, 46, 15, 47};
  const __m512i low = _mm512_load_si512(low_index);
  const __m512i high = _mm512_add_epi16(low, _mm512_set1_epi16(16));   // rows 16-31
  const __mmask32 mask = rows >= 32 ? ~__mmask32(0) : __mmask32((1u << rows) - 1);
  auto column = [&](int q) {
    return q < depth ? _mm512_maskz_loadu_epi16(mask, a + q * lda) : _mm512_setzero_si512();
  };
  for (int pair = 0; pair < chunk_k / 2; ++pair) {
    const __m512i even = column(2 * pair), odd = column(2 * pair + 1);
    _mm512_storeu_si512(out + pair * 32, _mm512_permutex2var_epi16(even, low, odd));
    _mm512_storeu_si512(out + tile_size + pair * 32, _mm512_permutex2var_epi16(even, high, odd));
  }
}

namespace {

}  // namespace

const KernelSet* avx512_kernels() {
  static const bool usable = __builtin_cpu_supports("avx512bf16");
  static const KernelSet set{"avx512", kernel, avx512_pack_a_chunk, avx512_direct, nothing, nothing};
  return usable ? &set : nullptr;
}

}  // namespace portkern::gemm_impl::bf16

#else
namespace portkern::gemm_impl::bf16 {
const KernelSet* avx512_kernels() { return nullptr; }
}  // namespace portkern::gemm_impl::bf16
#endif
