// Family `tf32x3`: fp32-accurate GEMM on the tensor cores (float only; double stays on the simt family).
//
// Each fp32 operand is split in registers as x = big + small, big = tf32(x) (cvt.rna), small = tf32(x - big),
// and a*b is formed as a_small*b_big + a_big*b_small + a_big*b_big (small terms first into the fp32
// accumulator) with mma.sync.m16n8k8.row.col.f32.tf32.tf32.f32. The dropped a_small*b_small term and the
// rounding of the small parts are ~2^-22 relative per product, so the result stays at fp32 level. The tensor
// core's accumulation truncates, so each BK = 32 stage goes into a zeroed partial set that is then added into
// the accumulators with round-to-nearest FADDs (whole-k accumulation in the MMA: 12x cuBLAS's error at k = 8192;
// per stage: 4-6x below cuBLAS fp32 on large squares, H100 measurements in scratch/cuda_gemm/NOTES.md).
//
// Structure: one block per BM x BN tile of C (per batch entry, per K split, blockIdx.z), warps of WM x WN
// (MT = WM/16 by NT = WN/8 MMA tiles each), BK = 32, a STAGES-deep cp.async pipeline (one barrier per BK).
// Shared tiles mirror the global layout so that cp.async can copy 16-byte chunks unchanged:
//   k-contiguous operand (A when TA, B when !TB): "K-major" rows of 32 floats, chunk (k/4) XOR (row & 7);
//   otherwise ("X-major", rows of BM or BN floats along m / n, one row per k): chunk (x/4) XOR 2*(k & 3).
// Both swizzles make the 32-bit fragment loads of a warp hit 32 distinct banks and keep the 16-byte
// cp.async stores conflict-free. Fragment addresses are a per-lane table entry plus compile-time offsets.
// VA / VB: 16-byte cp.async (pointer, ld and batch stride allow it) or 4-byte cp.async otherwise. Edge tiles
// (m, n, k) are zero-filled through cp.async's src-size operand, so every load is predicated, never skipped.
// Split-K (args.splits > 1): like the simt kernel, block z covers one k slice and atomically adds alpha*partial
// into C, which the launcher pre-scaled by beta.
// When it wins: large m*n*k (tensor cores: ~3x the FFMA rate per MMA, three MMAs per product).
#pragma once

#include "cuda_common.cuh"
#include "portkern/kernel/cuda/atoms.cuh"

#include <atomic>

namespace portkern::gemm_impl::cuda_native::detail {

template <int BM_, int BN_, int WM_, int WN_, int STAGES_, int MINB_, int KS_UNROLL_ = 4>
struct Tf32Cfg {
  static constexpr int BM = BM_, BN = BN_, BK = 32, WM = WM_, WN = WN_, STAGES = STAGES_, MINB = MINB_;
  static constexpr int KS_UNROLL = KS_UNROLL_;  // unroll of the four k8 steps of a stage (1: less register pressure)
  static constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN;
  static constexpr int THREADS = WARPS_M * WARPS_N * 32;
  static constexpr int MT = WM / 16, NT = WN / 8;
  static constexpr int A_ELEMS = BM * BK, B_ELEMS = BN * BK, STAGE_ELEMS = A_ELEMS + B_ELEMS;
  static constexpr int SMEM_BYTES = STAGES * STAGE_ELEMS * 4;
  static_assert(BM % WM == 0 && BN % WN == 0, "warp tile must divide block tile");
  static_assert(WM % 32 == 0 && WN % 32 == 0, "warp tile of multiples of 32 (swizzle)");
  static_assert(STAGES >= 2, "at least two stages");
};

// ---- PTX wrappers ------------------------------------------------------------------------------------------
__device__ __forceinline__ unsigned smem_u32(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void cp_async16(unsigned dst, const void* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
}
__device__ __forceinline__ void cp_async4(unsigned dst, const void* src, int src_bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
// split_tf32 and mma_tf32: the tensor-core atom, shared with the kernel model's fragments
// (portkern/kernel/cuda/atoms.cuh).
using kernel::cuda::atoms::mma_tf32;
using kernel::cuda::atoms::split_tf32;

// ---- shared layouts ------------------------------------------------------------------------------------
// K-major (row x holds k = 0..31): word offset of (x, k).
__device__ __forceinline__ int kmajor_off(int x, int k) { return x * 32 + ((((k >> 2) ^ (x & 7))) << 2) + (k & 3); }
// X-major (row k holds x = 0..X-1): word offset of (k, x).
template <int X>
__device__ __forceinline__ int xmajor_off(int k, int x) {
  return k * X + ((((x >> 2) ^ ((k & 3) << 1))) << 2) + (x & 3);
}

// Global -> shared copy of one BX x 32 tile of op(X) (BX along m or n, 32 along k) for one stage.
// KCONTIG: element (x, kk) at base[kk + x*ld], else at base[x + kk*ld]. xlim / klim: valid extents.
template <int BX, int THREADS, bool KCONTIG, bool VEC>
struct Tf32Loader {
  static constexpr int BK = 32;
  static constexpr int CPL = KCONTIG ? BK / 4 : BX / 4;  // 16-byte chunks per shared row
  static constexpr int CHUNKS = BX * BK / 4;
  static_assert(CHUNKS % THREADS == 0, "tile must split evenly over threads");
  static constexpr int PER = CHUNKS / THREADS;

  __device__ __forceinline__ static void load(float* s, const float* __restrict__ g, std::int64_t ld, int tid,
                                              int xlim, int klim, const float* safe) {
    const unsigned sbase = smem_u32(s);
#pragma unroll
    for (int q = 0; q < PER; ++q) {
      const int e = tid + q * THREADS;
      const int o = e / CPL, c = (e % CPL) * 4;  // other coordinate (row), contiguous coordinate
      const int clim = KCONTIG ? klim : xlim;
      const int olim = KCONTIG ? xlim : klim;
      int valid = o < olim ? clim - c : 0;
      valid = valid < 0 ? 0 : (valid > 4 ? 4 : valid);
      const int soff = KCONTIG ? kmajor_off(o, c) : xmajor_off<BX>(o, c);
      const float* src = g + c + (std::int64_t)o * ld;
      if constexpr (VEC) {
        cp_async16(sbase + 4u * (unsigned)soff, valid > 0 ? src : safe, valid * 4);
      } else {
#pragma unroll
        for (int u = 0; u < 4; ++u)
          cp_async4(sbase + 4u * (unsigned)(soff + u), u < valid ? src + u : safe, u < valid ? 4 : 0);
      }
    }
  }
};

template <class Cfg, bool TA, bool TB, bool VA, bool VB>
__global__ void __launch_bounds__(Cfg::THREADS, Cfg::MINB) tf32x3_gemm_kernel(const GemmArgs<float> p) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, MT = Cfg::MT, NT = Cfg::NT, STAGES = Cfg::STAGES;
  constexpr int THREADS = Cfg::THREADS;
  constexpr bool AK = TA;   // A stored k-contiguous -> K-major shared tile
  constexpr bool BKM = !TB;  // B stored k-contiguous -> K-major shared tile
  using LA = Tf32Loader<BM, THREADS, AK, VA>;
  using LB = Tf32Loader<BN, THREADS, BKM, VB>;
  extern __shared__ __align__(16) float smem[];

  const int tid = threadIdx.x;
  const int lane = tid & 31, warp = tid >> 5;
  const int wm = warp % Cfg::WARPS_M, wn = warp / Cfg::WARPS_M;
  const int g = lane >> 2, t = lane & 3;

  const std::int64_t ntm = (p.m + BM - 1) / BM, ntn = (p.n + BN - 1) / BN;
  constexpr std::int64_t GROUP = 8;  // grouped rasterization (as in the simt kernel)
  const std::int64_t id = blockIdx.x;
  const std::int64_t per_group = GROUP * ntn;
  const std::int64_t grp = id / per_group;
  const std::int64_t first_m = grp * GROUP;
  const std::int64_t gsize = (ntm - first_m) < GROUP ? (ntm - first_m) : GROUP;
  const std::int64_t in_g = id - grp * per_group;
  const std::int64_t tile_m = first_m + in_g % gsize, tile_n = in_g / gsize;
  const std::int64_t m0 = tile_m * BM, n0 = tile_n * BN;
  const int mlim = (int)((p.m - m0) < BM ? (p.m - m0) : BM);
  const int nlim = (int)((p.n - n0) < BN ? (p.n - n0) : BN);

  const std::int64_t z = blockIdx.z;
  const std::int64_t bi = z / p.splits;
  const std::int64_t split = z - bi * p.splits;
  const std::int64_t kb = split * p.k_per_split;
  const std::int64_t ke = (kb + p.k_per_split) < p.k ? (kb + p.k_per_split) : p.k;
  if (kb >= ke) return;  // uniform over the block
  const std::int64_t klen = ke - kb;
  const int ntiles = (int)((klen + BK - 1) / BK);

  const float* pa = p.a + bi * p.sa + (TA ? (kb + m0 * p.lda) : (m0 + kb * p.lda));
  const float* pb = p.b + bi * p.sb + (TB ? (n0 + kb * p.ldb) : (kb + n0 * p.ldb));
  const std::int64_t step_a = TA ? BK : BK * p.lda;
  const std::int64_t step_b = TB ? BK * p.ldb : BK;

  auto load_stage = [&](int tile, int stage) {
    const std::int64_t krem = klen - (std::int64_t)tile * BK;
    const int klim = krem < BK ? (int)krem : BK;
    float* sa = smem + stage * Cfg::STAGE_ELEMS;
    LA::load(sa, pa, p.lda, tid, mlim, klim, p.a);
    LB::load(sa + Cfg::A_ELEMS, pb, p.ldb, tid, nlim, klim, p.b);
  };

  // Per-lane fragment address tables (word offsets inside one stage's tile):
  //   K-major rows r = wbase + R + g (R compile-time, multiple of 8): off = (wbase + R)*32 + kc,
  //     kc = g*32 + t + ((c ^ g) << 2)   (k = 8*ks + 4*h + t, c = 2*ks + h)
  //   X-major column x = wbase + 4*Q + 4*(g>>2)... with Q = 2*j (B) or 4*i + 2*h8 (A):
  //     off = (8*ks + 4*h)*X + 4*(wbase/4 + 8*(Q>>3)) + xt[(Q&7)>>1],
  //     xt[u] = t*X + (g&3) + 4*(((2*u) + (g>>2)) ^ (2*t))
  int xta[4], xtb[4];
#pragma unroll
  for (int u = 0; u < 4; ++u) {
    xta[u] = t * BM + (g & 3) + 4 * (((2 * u) + (g >> 2)) ^ (2 * t));
    xtb[u] = t * BN + (g & 3) + 4 * (((2 * u) + (g >> 2)) ^ (2 * t));
  }
  const int abase = wm * Cfg::WM, bbase = wn * Cfg::WN;

  float acc[MT][NT][4];
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.f;

#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < ntiles) {
      load_stage(s, s);
      pa += step_a;
      pb += step_b;
    }
    cp_async_commit();
  }

  int rstage = 0, wstage = STAGES - 1;
  for (int tt = 0; tt < ntiles; ++tt) {
    cp_async_wait<STAGES - 2>();
    __syncthreads();
    if (tt + STAGES - 1 < ntiles) {
      load_stage(tt + STAGES - 1, wstage);
      pa += step_a;
      pb += step_b;
    }
    cp_async_commit();
    wstage = wstage + 1 == STAGES ? 0 : wstage + 1;

    const float* sA = smem + rstage * Cfg::STAGE_ELEMS;
    const float* sB = sA + Cfg::A_ELEMS;
    rstage = rstage + 1 == STAGES ? 0 : rstage + 1;
    // The tensor core's fp32 accumulation truncates; accumulating a whole long k in it leaves a bias that grows
    // linearly with k (measured: 12x cuBLAS's error at k = 8192). So each stage's 32-deep partial product starts
    // from zero in `part`, and is added into `acc` with ordinary round-to-nearest FADDs.
    float part[MT][NT][4];
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int r = 0; r < 4; ++r) part[i][j][r] = 0.f;
#pragma unroll(Cfg::KS_UNROLL)
    for (int ks = 0; ks < BK / 8; ++ks) {
      // K-major column offset of k = 8*ks + 4*h + t: g*32 + t + ((2*ks + h) ^ g) * 4
      const int kc0 = g * 32 + t + (((2 * ks) ^ g) << 2), kc1 = g * 32 + t + (((2 * ks + 1) ^ g) << 2);
      unsigned bb[NT][2], bsm[NT][2];
#pragma unroll
      for (int j = 0; j < NT; ++j) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          float v;
          if constexpr (BKM) {
            v = sB[(bbase + 8 * j) * 32 + (h ? kc1 : kc0)];
          } else {
            const int Q = 2 * j;
            v = sB[(8 * ks + 4 * h) * BN + 4 * (bbase / 4 + 8 * (Q >> 3)) + xtb[(Q & 7) >> 1]];
          }
          split_tf32(v, bb[j][h], bsm[j][h]);
        }
      }
#pragma unroll
      for (int i = 0; i < MT; ++i) {
        unsigned ab[4], as[4];
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          const int h8 = r & 1, h = r >> 1;  // a0: (g, t), a1: (g+8, t), a2: (g, t+4), a3: (g+8, t+4)
          float v;
          if constexpr (AK) {
            v = sA[(abase + 16 * i + 8 * h8) * 32 + (h ? kc1 : kc0)];
          } else {
            const int Q = 4 * i + 2 * h8;
            v = sA[(8 * ks + 4 * h) * BM + 4 * (abase / 4 + 8 * (Q >> 3)) + xta[(Q & 7) >> 1]];
          }
          split_tf32(v, ab[r], as[r]);
        }
#pragma unroll
        for (int j = 0; j < NT; ++j) {
          mma_tf32(part[i][j], as, bb[j][0], bb[j][1]);
          mma_tf32(part[i][j], ab, bsm[j][0], bsm[j][1]);
        }
#pragma unroll
        for (int j = 0; j < NT; ++j) mma_tf32(part[i][j], ab, bb[j][0], bb[j][1]);
      }
    }
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int r = 0; r < 4; ++r) acc[i][j][r] += part[i][j][r];
  }
  cp_async_wait<0>();

  // Epilogue: c0 (g, 2t), c1 (g, 2t+1), c2 (g+8, 2t), c3 (g+8, 2t+1) of each 16 x 8 MMA tile.
  float* pc = p.c + bi * p.sc;
  const float alpha = p.alpha, beta = p.beta;
  const bool split_mode = p.splits > 1;
#pragma unroll
  for (int j = 0; j < NT; ++j) {
#pragma unroll
    for (int cc = 0; cc < 2; ++cc) {
      const int jl = bbase + 8 * j + 2 * t + cc;
      if (jl >= nlim) continue;
      float* col = pc + (n0 + jl) * p.ldc + m0;
#pragma unroll
      for (int i = 0; i < MT; ++i) {
#pragma unroll
        for (int rr = 0; rr < 2; ++rr) {
          const int il = abase + 16 * i + 8 * rr + g;
          if (il >= mlim) continue;
          const float v = alpha * acc[i][j][2 * rr + cc];
          float* q = col + il;
          if (split_mode) atomicAdd(q, v);
          else *q = beta != 0.f ? fmaf(beta, *q, v) : v;
        }
      }
    }
  }
}

template <class Cfg, bool TA, bool TB, bool VA, bool VB>
inline void launch_tf32x3_inst(cudaStream_t s, const GemmArgs<float>& args) {
  auto kern = tf32x3_gemm_kernel<Cfg, TA, TB, VA, VB>;
  {  // raise the dynamic shared-memory limit once per device
    static std::atomic<unsigned long long> done{0};
    int dev = 0;
    check(cudaGetDevice(&dev), "cudaGetDevice");
    const unsigned long long bit = 1ull << (dev & 63);
    if (!(done.load(std::memory_order_relaxed) & bit)) {
      check(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::SMEM_BYTES),
            "cudaFuncSetAttribute(tf32x3 smem)");
      done.fetch_or(bit, std::memory_order_relaxed);
    }
  }
  const std::int64_t ntm = (args.m + Cfg::BM - 1) / Cfg::BM, ntn = (args.n + Cfg::BN - 1) / Cfg::BN;
  const std::int64_t tiles = ntm * ntn;
  if (tiles > 0x7fffffffLL) fail("portkern::gemm (cuda_native)", "problem too large for the grid");
  const std::int64_t chunk = 65535 / args.splits;
  for (std::int64_t b0 = 0; b0 < args.batch; b0 += chunk) {
    GemmArgs<float> a = args;
    a.batch = (args.batch - b0) < chunk ? (args.batch - b0) : chunk;
    a.a += b0 * args.sa;
    a.b += b0 * args.sb;
    a.c += b0 * args.sc;
    dim3 grid((unsigned)tiles, 1, (unsigned)(a.batch * a.splits));
    kern<<<grid, Cfg::THREADS, Cfg::SMEM_BYTES, s>>>(a);
    check_launch("tf32x3_gemm_kernel launch");
  }
}

// Resolves transposes and the 16-byte cp.async flags from the arguments.
template <class Cfg>
inline void launch_tf32x3(cudaStream_t s, bool ta, bool tb, const GemmArgs<float>& args) {
  const bool va = vec_ok(args.a, args.lda, args.sa, args.batch);
  const bool vb = vec_ok(args.b, args.ldb, args.sb, args.batch);
#define PK_TF32_CASE(TA_, TB_)                                                     \
  if (ta == TA_ && tb == TB_) {                                                    \
    if (va && vb) return launch_tf32x3_inst<Cfg, TA_, TB_, true, true>(s, args);   \
    if (va) return launch_tf32x3_inst<Cfg, TA_, TB_, true, false>(s, args);        \
    if (vb) return launch_tf32x3_inst<Cfg, TA_, TB_, false, true>(s, args);        \
    return launch_tf32x3_inst<Cfg, TA_, TB_, false, false>(s, args);               \
  }
  PK_TF32_CASE(false, false)
  PK_TF32_CASE(false, true)
  PK_TF32_CASE(true, false)
  PK_TF32_CASE(true, true)
#undef PK_TF32_CASE
}

// Split-K over the tf32x3 kernel (same scheme as cuda_splitk.cuh: pre-scale C by beta, then atomics).
template <class Cfg>
inline void launch_tf32x3_splitk(cudaStream_t s, bool ta, bool tb, GemmArgs<float> args, int splits) {
  std::int64_t per = (args.k + splits - 1) / splits;
  per = (per + Cfg::BK - 1) / Cfg::BK * Cfg::BK;
  const std::int64_t eff = (args.k + per - 1) / per;
  if (eff <= 1) {
    args.splits = 1;
    args.k_per_split = args.k;
    return launch_tf32x3<Cfg>(s, ta, tb, args);
  }
  launch_scale_c<float>(s, args.c, args.m, args.n, args.ldc, args.sc, args.batch, args.beta);
  args.splits = (int)eff;
  args.k_per_split = per;
  launch_tf32x3<Cfg>(s, ta, tb, args);
}

// The instantiations offered.
// (Run 1 had 4 warps of 64x64 for L, 67.7 TFLOP/s, but no room for the per-stage partial accumulator.)
// Register use (ptxas, sm_90): L 211-230 (k8 loop unrolled: 255 and spills), M 221-249 rolled, S <= 170
// with the k8 loop unrolled by 2 (by 4: 12-byte spills when both tiles are X-major).
using Tf32L = Tf32Cfg<128, 128, 64, 32, 3, 1, 1>;  // 8 warps of 64x32: large shapes
using Tf32M = Tf32Cfg<128, 64, 64, 32, 3, 2, 1>;   // 4 warps of 64x32: medium / tall
using Tf32S = Tf32Cfg<64, 64, 32, 32, 3, 3, 2>;    // 4 warps of 32x32: small / with split-K

}  // namespace portkern::gemm_impl::cuda_native::detail
