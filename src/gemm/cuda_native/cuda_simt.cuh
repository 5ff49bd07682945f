// Family `simt`: FFMA (DFMA for double) GEMM on the CUDA cores.
//
// Computes C = alpha*op(A)*op(B) + beta*C (column-major, batched, see cuda_common.cuh) with one thread block per
// BM x BN tile of C (per batch entry, per K split). Parameters (SimtCfg):
//   BM, BN, BK  block tile; the K loop steps BK at a time through two shared-memory buffers, the next tile being
//               loaded into registers (16-byte global loads when alignment allows) while the current one is used;
//   WM, WN      warp tile (BM/WM x BN/WN warps);
//   TM, TN      per-thread register tile (4 or 8 each), split into 4-wide groups spaced WM/2 (WN/2) apart so each
//               fragment read is one 128-bit shared load and a warp reads at most 128 distinct bytes.
// Shared tiles are stored k-major (As[k][m], Bs[k][n]) with a 16-byte row pad, so the transposing stores of
// k-contiguous operands hit different banks (BK = 8: conflict-free).
// Template flags TA/TB (transposes) and VA/VB (16-byte loads of A/B allowed) are resolved at launch.
// Split-K (args.splits > 1): block z covers k in [s*k_per_split, ...) and atomically adds alpha*partial into
// C, which the launcher has pre-scaled by beta (see cuda_splitk.cuh).
//
// When it wins: everything with enough output tiles to fill the 132 SMs; 128x128 tiles on big squares,
// 128x64 / 64x64 on medium and tall shapes, 16x128 / 128x32 / 32x32 on skinny shapes (usually with split-K).
#pragma once

#include "cuda_common.cuh"

namespace portkern::gemm_impl::cuda_native::detail {

template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int MINB_ = 1>
struct SimtCfg {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_, MINB = MINB_;
  static constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN;
  static constexpr int THREADS = WARPS_M * WARPS_N * 32;
  static constexpr int GM = TM / 4, GN = TN / 4;  // 4-wide groups per thread
  static constexpr int LM = WM / TM, LN = WN / TN;  // lanes along m, n
  static_assert(BM % WM == 0 && BN % WN == 0, "warp tile must divide block tile");
  static_assert(TM % 4 == 0 && TN % 4 == 0 && TM <= 8 && TN <= 8, "thread tile of 4 or 8");
  static_assert(LM * LN == 32, "a warp is 32 threads");
};

// Loads a BX x BK tile of op(X) (BX along the output dimension, BK along k) from global memory into
// registers, then stores it k-major into shared memory S[BK][BX + PAD].
// KCONTIG: element (x, kk) sits at base[kk + x*ld] (k contiguous), else at base[x + kk*ld].
// In both cases the address is base + c + o*ld with c the contiguous and o the other coordinate.
template <class T, int BX, int BK, int THREADS, bool KCONTIG, bool VEC>
struct TileLoader {
  static constexpr int NV = VEC ? 16 / (int)sizeof(T) : 1;
  static constexpr int CONT = KCONTIG ? BK : BX;
  static constexpr int OTHER = KCONTIG ? BX : BK;
  static constexpr int VPL = CONT / NV;  // vectors per contiguous line
  static constexpr int NVEC = VPL * OTHER;
  static_assert(CONT % NV == 0, "tile line must hold whole vectors");
  static_assert(NVEC % THREADS == 0 || THREADS % NVEC == 0, "tile must split evenly over threads");
  static constexpr int PER = (NVEC + THREADS - 1) / THREADS;
  static constexpr bool PARTIAL = NVEC < THREADS;  // some threads idle
  static constexpr int PAD = 16 / (int)sizeof(T);
  static constexpr int LDS = BX + PAD;  // shared row length

  T r[PER][NV];

  __device__ __forceinline__ static void coords(int tid, int q, int& c, int& o) {
    const int e = tid + q * THREADS;
    c = (e % VPL) * NV;
    o = e / VPL;
  }

  // xlim: valid extent along x in this tile, klim: valid extent along k. CHECK=false: tile fully inside.
  template <bool CHECK>
  __device__ __forceinline__ void load(const T* __restrict__ base, std::int64_t ld, int tid, int xlim, int klim) {
#pragma unroll
    for (int q = 0; q < PER; ++q) {
      int c, o;
      coords(tid, q, c, o);
      if (PARTIAL && tid >= NVEC) break;
      const T* p = base + c + (std::int64_t)o * ld;
      const int clim = KCONTIG ? klim : xlim;
      const int olim = KCONTIG ? xlim : klim;
      if (!CHECK || (o < olim && c + NV <= clim)) {
        if constexpr (VEC) {
          const Vec16<T> v = ldg16(p);
#pragma unroll
          for (int u = 0; u < NV; ++u) r[q][u] = v.v[u];
        } else {
          r[q][0] = __ldg(p);
        }
      } else {
#pragma unroll
        for (int u = 0; u < NV; ++u) r[q][u] = (o < olim && c + u < clim) ? __ldg(p + u) : T(0);
      }
    }
  }

  __device__ __forceinline__ void store(T* __restrict__ s, int tid) const {
#pragma unroll
    for (int q = 0; q < PER; ++q) {
      int c, o;
      coords(tid, q, c, o);
      if (PARTIAL && tid >= NVEC) break;
      if constexpr (KCONTIG) {
#pragma unroll
        for (int u = 0; u < NV; ++u) s[(c + u) * LDS + o] = r[q][u];
      } else {
        if constexpr (VEC) {
          Vec16<T> v;
#pragma unroll
          for (int u = 0; u < NV; ++u) v.v[u] = r[q][u];
          sts16(s + o * LDS + c, v);
        } else {
          s[o * LDS + c] = r[q][0];
        }
      }
    }
  }
};

template <class T, class Cfg, bool TA, bool TB, bool VA, bool VB>
__global__ void __launch_bounds__(Cfg::THREADS, Cfg::MINB) simt_gemm_kernel(const GemmArgs<T> p) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, TM = Cfg::TM, TN = Cfg::TN;
  constexpr int THREADS = Cfg::THREADS;
  // op(A) is m x k: stored k-contiguous when TA; op(B) is k x n: stored k-contiguous when !TB.
  using LA = TileLoader<T, BM, BK, THREADS, TA, VA>;
  using LB = TileLoader<T, BN, BK, THREADS, !TB, VB>;
  __shared__ __align__(16) T As[2][BK * LA::LDS];
  __shared__ __align__(16) T Bs[2][BK * LB::LDS];

  const int tid = threadIdx.x;
  const int lane = tid & 31, warp = tid >> 5;
  const int wm = warp % Cfg::WARPS_M, wn = warp / Cfg::WARPS_M;
  const int tm = lane % Cfg::LM, tn = lane / Cfg::LM;
  const int a_off = wm * Cfg::WM + tm * 4;  // first row of this thread's fragment inside the block tile
  const int b_off = wn * Cfg::WN + tn * 4;

  const std::int64_t ntm = (p.m + BM - 1) / BM, ntn = (p.n + BN - 1) / BN;
  // Grouped rasterization: walk GROUP tile-rows column by column so concurrently running blocks share panels.
  constexpr std::int64_t GROUP = 8;
  const std::int64_t id = blockIdx.x;
  const std::int64_t per_group = GROUP * ntn;
  const std::int64_t g = id / per_group;
  const std::int64_t first_m = g * GROUP;
  const std::int64_t gsize = (ntm - first_m) < GROUP ? (ntm - first_m) : GROUP;
  const std::int64_t in_g = id - g * per_group;
  const std::int64_t tile_m = first_m + in_g % gsize, tile_n = in_g / gsize;
  const std::int64_t m0 = tile_m * BM, n0 = tile_n * BN;
  const int mlim = (int)((p.m - m0) < BM ? (p.m - m0) : BM);
  const int nlim = (int)((p.n - n0) < BN ? (p.n - n0) : BN);

  {  // one (batch entry, k slice) per blockIdx.z; the launcher chunks batch*splits to fit gridDim.z
    const std::int64_t z = blockIdx.z;
    const std::int64_t bi = z / p.splits;
    const std::int64_t split = z - bi * p.splits;
    const std::int64_t kb = split * p.k_per_split;
    const std::int64_t ke = (kb + p.k_per_split) < p.k ? (kb + p.k_per_split) : p.k;
    if (kb >= ke) return;  // uniform over the block
    const int ntiles = (int)((ke - kb + BK - 1) / BK);
    const std::int64_t klen = ke - kb;

    // Tile base pointers at (m0, kb) / (kb, n0) and their per-k-tile step.
    const T* pa = p.a + bi * p.sa + (TA ? (kb + m0 * p.lda) : (m0 + kb * p.lda));
    const T* pb = p.b + bi * p.sb + (TB ? (n0 + kb * p.ldb) : (kb + n0 * p.ldb));
    const std::int64_t step_a = TA ? BK : BK * p.lda;
    const std::int64_t step_b = TB ? BK * p.ldb : BK;

    LA la;
    LB lb;
    auto load = [&](int t) {
      const std::int64_t krem = klen - (std::int64_t)t * BK;
      const int klim = krem < BK ? (int)krem : BK;
      // One checked path (a few compares per tile; a second unchecked copy cost ~30 registers).
      la.template load<true>(pa, p.lda, tid, mlim, klim);
      lb.template load<true>(pb, p.ldb, tid, nlim, klim);
    };

    T acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TN; ++j) acc[i][j] = T(0);

    load(0);
    la.store(As[0], tid);
    lb.store(Bs[0], tid);
    __syncthreads();

    for (int t = 0; t < ntiles; ++t) {
      const int cur = t & 1;
      if (t + 1 < ntiles) {
        pa += step_a;
        pb += step_b;
        load(t + 1);
      }
      const T* sa = As[cur];
      const T* sb = Bs[cur];
#pragma unroll
      for (int kk = 0; kk < BK; ++kk) {
        T af[TM], bf[TN];
#pragma unroll
        for (int gi = 0; gi < Cfg::GM; ++gi) {
          T v[4];
          ld4(sa + kk * LA::LDS + a_off + gi * (Cfg::WM / Cfg::GM), v);
#pragma unroll
          for (int u = 0; u < 4; ++u) af[gi * 4 + u] = v[u];
        }
#pragma unroll
        for (int gj = 0; gj < Cfg::GN; ++gj) {
          T v[4];
          ld4(sb + kk * LB::LDS + b_off + gj * (Cfg::WN / Cfg::GN), v);
#pragma unroll
          for (int u = 0; u < 4; ++u) bf[gj * 4 + u] = v[u];
        }
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) acc[i][j] = fma(af[i], bf[j], acc[i][j]);
      }
      if (t + 1 < ntiles) {
        la.store(As[cur ^ 1], tid);
        lb.store(Bs[cur ^ 1], tid);
      }
      __syncthreads();
    }

    // Epilogue: each thread owns GM x GN groups of 4 rows x 1 column.
    T* pc = p.c + bi * p.sc;
    const T alpha = p.alpha, beta = p.beta;
    const bool split_mode = p.splits > 1;
#pragma unroll
    for (int gj = 0; gj < Cfg::GN; ++gj) {
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int jl = b_off + gj * (Cfg::WN / Cfg::GN) + u;
        if (jl >= nlim) continue;
        T* col = pc + (n0 + jl) * p.ldc + m0;
#pragma unroll
        for (int gi = 0; gi < Cfg::GM; ++gi) {
          const int il = a_off + gi * (Cfg::WM / Cfg::GM);
          T v[4];
#pragma unroll
          for (int r = 0; r < 4; ++r) v[r] = alpha * acc[gi * 4 + r][gj * 4 + u];
          if (split_mode) {
#pragma unroll
            for (int r = 0; r < 4; ++r)
              if (il + r < mlim) atomicAdd(col + il + r, v[r]);
          } else if (p.vec_c && il + 4 <= mlim) {
            if (beta != T(0)) {
              T old[4];
              ld4(col + il, old);
#pragma unroll
              for (int r = 0; r < 4; ++r) v[r] = fma(beta, old[r], v[r]);
            }
            st4(col + il, v);
          } else {
#pragma unroll
            for (int r = 0; r < 4; ++r) {
              if (il + r < mlim) {
                T* q = col + il + r;
                *q = beta != T(0) ? fma(beta, *q, v[r]) : v[r];
              }
            }
          }
        }
      }
    }
  }
}

// Launches one instantiation; `splits` == 1 is a plain GEMM, > 1 expects C already scaled by beta.
template <class T, class Cfg, bool TA, bool TB, bool VA, bool VB>
inline void launch_simt_inst(cudaStream_t s, const GemmArgs<T>& args) {
  const std::int64_t ntm = (args.m + Cfg::BM - 1) / Cfg::BM, ntn = (args.n + Cfg::BN - 1) / Cfg::BN;
  const std::int64_t tiles = ntm * ntn;
  if (tiles > 0x7fffffffLL) fail("portkern::gemm (cuda_native)", "problem too large for the grid");
  // A looping z inside the kernel cost ~50 registers: chunk the batch on the host instead.
  const std::int64_t chunk = 65535 / args.splits;
  for (std::int64_t b0 = 0; b0 < args.batch; b0 += chunk) {
    GemmArgs<T> a = args;
    a.batch = (args.batch - b0) < chunk ? (args.batch - b0) : chunk;
    a.a += b0 * args.sa;
    a.b += b0 * args.sb;
    a.c += b0 * args.sc;
    dim3 grid((unsigned)tiles, 1, (unsigned)(a.batch * a.splits));
    simt_gemm_kernel<T, Cfg, TA, TB, VA, VB><<<grid, Cfg::THREADS, 0, s>>>(a);
    check_launch("simt_gemm_kernel launch");
  }
}

// Resolves the four compile-time flags from the arguments.
template <class T, class Cfg>
inline void launch_simt(cudaStream_t s, bool ta, bool tb, const GemmArgs<T>& args) {
  const bool va = vec_ok(args.a, args.lda, args.sa, args.batch);
  const bool vb = vec_ok(args.b, args.ldb, args.sb, args.batch);
#define PK_SIMT_CASE(TA_, TB_)                                                   \
  if (ta == TA_ && tb == TB_) {                                                  \
    if (va && vb) return launch_simt_inst<T, Cfg, TA_, TB_, true, true>(s, args);  \
    if (va) return launch_simt_inst<T, Cfg, TA_, TB_, true, false>(s, args);       \
    if (vb) return launch_simt_inst<T, Cfg, TA_, TB_, false, true>(s, args);       \
    return launch_simt_inst<T, Cfg, TA_, TB_, false, false>(s, args);              \
  }
  PK_SIMT_CASE(false, false)
  PK_SIMT_CASE(false, true)
  PK_SIMT_CASE(true, false)
  PK_SIMT_CASE(true, true)
#undef PK_SIMT_CASE
}

// The instantiations offered (float): name, config.
using SimtL8 = SimtCfg<128, 128, 8, 64, 32, 8, 8, 1>;    // large squares
using SimtL16 = SimtCfg<128, 128, 16, 64, 32, 8, 8, 1>;  // large squares, fewer barriers
using SimtT = SimtCfg<128, 64, 8, 64, 32, 8, 8, 1>;      // tall (m >> n)
using SimtM = SimtCfg<64, 64, 16, 32, 32, 4, 8, 2>;      // medium
using SimtS = SimtCfg<32, 32, 16, 32, 16, 4, 4, 4>;      // small (with split-K)
using SimtR = SimtCfg<16, 128, 16, 16, 32, 4, 4, 2>;     // m <= 16 rows, wide n (GEMV-like, memory bound)
using SimtN = SimtCfg<128, 32, 8, 32, 32, 4, 8, 2>;      // n <= 32 columns, tall m
// double
using SimtD64 = SimtCfg<64, 64, 8, 32, 32, 4, 8, 1>;
using SimtD32 = SimtCfg<32, 32, 8, 32, 16, 4, 4, 2>;

}  // namespace portkern::gemm_impl::cuda_native::detail
