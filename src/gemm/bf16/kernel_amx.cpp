// The AMX micro-kernel of the BF16 GEMM (bf16_gemm.hpp): a 32 x 32 block of C as 2 x 2 tiles of 16 x 16 fp32
// sums, tiles 0-3; per chunk of 32 k two B tiles (4, 5: 16 columns x 32 k) and two A tiles (6, 7: 16 k pairs x
// 16 rows x 2) and four TDPBF16PS (fewer for a block of at most 16 rows or columns). Column-major C makes a tile row one column of C: tile (B, A) is C^T's block.
// The sums go through a 4 KiB buffer so that alpha, beta and the edges are applied with masked AVX-512 stores
// (loading C's tiles to add to measured slower: 0.8-0.95x); a full block with alpha 1 and beta 0 is stored in place.
//
// Linux hands out AMX state only to a process that asks (arch_prctl ARCH_REQ_XCOMP_PERM), once; each thread
// loads the tile configuration before its first call and releases the tiles after its last.
#include "gemm/bf16/bf16_gemm.hpp"

#if defined(__x86_64__) && defined(__linux__)
// GCC names the AMX macros __AMX_TILE__ / __AMX_BF16__, clang __AMXTILE__ / __AMXBF16__.
#if !(defined(__AMX_TILE__) || defined(__AMXTILE__)) || !(defined(__AMX_BF16__) || defined(__AMXBF16__)) || \
    !defined(__AVX512F__)
#error "kernel_amx.cpp needs its own target flags (-mamx-tile -mamx-bf16, cmake/cpu_simd.cmake)"
#endif

#include <cpuid.h>
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>

namespace portkern::gemm_impl::bf16 {
namespace {

constexpr int arch_req_xcomp_perm = 0x1023, xfeature_xtiledata = 18;

struct TileConfig {
  std::uint8_t palette, start_row, reserved[14];
  std::uint16_t bytes_per_row[16];
  std::uint8_t rows[16];
};

bool cpu_has_amx_bf16() {
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  return (edx >> 22 & 1) && (edx >> 24 & 1);   // AMX-BF16, AMX-TILE
}

void load_tile_config() {
  // Eight tiles of 16 rows x 64 bytes. A static, zero-filled object: GCC 12 at -O2 left the reserved bytes
  // of a local one unset, and LDTILECFG faults on any non-zero reserved byte.
  alignas(64) static TileConfig config = [] {
    TileConfig c;
    std::memset(&c, 0, sizeof c);
    c.palette = 1;
    for (int t = 0; t < 8; ++t) c.rows[t] = 16, c.bytes_per_row[t] = 64;
    return c;
  }();
  _tile_loadconfig(&config);
}

void release_tiles() { _tile_release(); }

// A's chunk this many ahead is fetched into L1 while the tiles multiply (measured with KC 512): 1.04-1.1x
// on 512^3, one thread. Past the panel's end the prefetches touch the next panel or nothing (they do not fault).
constexpr int prefetch_chunks = 4;

// The sums of one block over `chunks` chunks into tiles 0-3 (zeros in the tiles a half block does not use: a
// block of at most 16 rows needs no A tile 7, one of at most 16 columns no B tile 5, half the products each).
template <bool rows_high, bool cols_high>
void multiply(std::int64_t chunks, const Bits* a, const BPanel& b) {
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  const Bits* b0 = b.at;
  const Bits* b1 = b.at + b.half_step;
  const std::int64_t b_stride = b.column_step * std::int64_t(sizeof(Bits));
  for (std::int64_t t = 0; t < chunks; ++t) {
    const std::int64_t at = t * chunk_size, bt = t * b.chunk_step;
    const auto ahead = reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(a + at) +   // no pointer
                                                     prefetch_chunks * chunk_size * sizeof(Bits));     // past the end
    for (int line = 0; line < chunk_size * int(sizeof(Bits)) / 64; ++line) _mm_prefetch(ahead + line * 64, _MM_HINT_T0);
    _tile_loadd(4, b0 + bt, b_stride);
    _tile_loadd(6, a + at, 64);
    _tile_dpbf16ps(0, 4, 6);
    if constexpr (rows_high) {
      _tile_loadd(7, a + at + tile_size, 64);
      _tile_dpbf16ps(1, 4, 7);
    }
    if constexpr (cols_high) {
      _tile_loadd(5, b1 + bt, b_stride);
      _tile_dpbf16ps(2, 5, 6);
      if constexpr (rows_high) _tile_dpbf16ps(3, 5, 7);
    }
  }
}

void kernel(std::int64_t chunks, const Bits* a, const BPanel& b, float* c, std::int64_t ldc, int rows, int cols,
            float alpha, float beta) {
  if (rows > 16 && cols > 16) multiply<true, true>(chunks, a, b);
  else if (rows > 16) multiply<true, false>(chunks, a, b);
  else if (cols > 16) multiply<false, true>(chunks, a, b);
  else multiply<false, false>(chunks, a, b);
  if (rows == block_rows && cols == block_cols && alpha == 1.f && beta == 0.f) {   // the sums are C: store them
    const std::int64_t stride = ldc * std::int64_t(sizeof(float));
    _tile_stored(0, c, stride);
    _tile_stored(1, c + 16, stride);
    _tile_stored(2, c + 16 * ldc, stride);
    _tile_stored(3, c + 16 * ldc + 16, stride);
    return;
  }
  alignas(64) float sums[block_cols][block_rows];   // sums[j][i]: column j of the block
  _tile_stored(0, &sums[0][0], sizeof sums[0]);
  _tile_stored(1, &sums[0][16], sizeof sums[0]);
  _tile_stored(2, &sums[16][0], sizeof sums[0]);
  _tile_stored(3, &sums[16][16], sizeof sums[0]);
  const __mmask16 low = rows >= 16 ? 0xffff : __mmask16((1u << rows) - 1);
  const __mmask16 high = rows >= 32 ? 0xffff : rows <= 16 ? 0 : __mmask16((1u << (rows - 16)) - 1);
  const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
  for (int j = 0; j < cols; ++j) {
    float* cj = c + j * ldc;
    __m512 lo = _mm512_mul_ps(va, _mm512_load_ps(&sums[j][0]));
    __m512 hi = _mm512_mul_ps(va, _mm512_load_ps(&sums[j][16]));
    if (beta != 0.f) {
      lo = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(low, cj), lo);
      hi = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(high, cj + 16), hi);
    }
    _mm512_mask_storeu_ps(cj, low, lo);
    _mm512_mask_storeu_ps(cj + 16, high, hi);
  }
}

}  // namespace

const KernelSet* amx_kernels() {
  static const bool usable = cpu_has_amx_bf16() && syscall(SYS_arch_prctl, arch_req_xcomp_perm, xfeature_xtiledata) == 0;
  static const KernelSet set{"amx", kernel, avx512_pack_a_chunk, avx512_direct, load_tile_config, release_tiles};
  return usable ? &set : nullptr;
}

}  // namespace portkern::gemm_impl::bf16

#else
namespace portkern::gemm_impl::bf16 {
const KernelSet* amx_kernels() { return nullptr; }
}  // namespace portkern::gemm_impl::bf16
#endif
