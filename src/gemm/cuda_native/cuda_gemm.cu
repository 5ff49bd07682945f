// Native CUDA GEMM front end: argument checks, the per-shape choice of instantiation within each family, and
// the hand-written family rule (a small cost model). Families: cuda_simt.cuh, cuda_splitk.cuh, cuda_tf32x3.cuh.
#include "cuda_gemm.hpp"
#include "cuda_gemv.cuh"
#include "cuda_smallk.cuh"
#include "cuda_splitk.cuh"
#include "cuda_tf32x3.cuh"

#include <algorithm>
#include <atomic>

namespace portkern::gemm_impl::cuda_native {
namespace detail {
namespace {

int sm_count() {
  static std::atomic<int> cache[64];
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  if (dev >= 0 && dev < 64) {
    int v = cache[dev].load(std::memory_order_relaxed);
    if (v > 0) return v;
  }
  int v = 0;
  check(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute(SM count)");
  if (dev >= 0 && dev < 64) cache[dev].store(v, std::memory_order_relaxed);
  return v;
}

template <class T>
struct Variant {
  const char* name;
  int bm, bn, bk, blocks_per_sm;
  void (*simt)(cudaStream_t, bool, bool, const GemmArgs<T>&);
  void (*splitk)(cudaStream_t, bool, bool, GemmArgs<T>, int);
};

template <class T, class Cfg>
constexpr Variant<T> make_variant(const char* name) {
  return Variant<T>{name, Cfg::BM, Cfg::BN, Cfg::BK, Cfg::MINB, &launch_simt<T, Cfg>, &launch_splitk<T, Cfg>};
}
// tf32x3 instantiations (float only): the `simt` slot runs the plain kernel, `splitk` its split-K launcher.
template <class Cfg>
constexpr Variant<float> make_tf32_variant(const char* name) {
  return Variant<float>{name, Cfg::BM, Cfg::BN, Cfg::BK, Cfg::MINB, &launch_tf32x3<Cfg>, &launch_tf32x3_splitk<Cfg>};
}

// Indices used by the selection rules below.
// [F_L16, F_N]: simt family (F_L8 is dominated, kept for the benchmark); [F_XL, F_XS]: tf32x3 family.
enum FloatVariant { F_L8, F_L16, F_T, F_M, F_S, F_R, F_N, F_XL, F_XM, F_XS, F_COUNT };
const Variant<float> kFloat[] = {
    make_variant<float, SimtL8>("simt128x128x8"), make_variant<float, SimtL16>("simt128x128x16"),
    make_variant<float, SimtT>("simt128x64x8"),   make_variant<float, SimtM>("simt64x64x16"),
    make_variant<float, SimtS>("simt32x32x16"),   make_variant<float, SimtR>("simt16x128x16"),
    make_variant<float, SimtN>("simt128x32x8"),
    make_tf32_variant<Tf32L>("tf32x3_128x128"),   make_tf32_variant<Tf32M>("tf32x3_128x64"),
    make_tf32_variant<Tf32S>("tf32x3_64x64"),
};
enum DoubleVariant { D_64, D_32, D_COUNT };
const Variant<double> kDouble[] = {
    make_variant<double, SimtD64>("dsimt64x64x8"),
    make_variant<double, SimtD32>("dsimt32x32x8"),
};

template <class T>
const Variant<T>* table() {
  if constexpr (sizeof(T) == 4) return kFloat;
  else return kDouble;
}

std::int64_t tiles_of(const Variant<float>& v, std::int64_t m, std::int64_t n, std::int64_t batch) {
  return ((m + v.bm - 1) / v.bm) * ((n + v.bn - 1) / v.bn) * batch;
}

// Cost model (float), calibrated on the H100 (run 1 of scratch/cuda_gemm, 2026-11-22):
//   rate(cfg)   = its large-square plateau (GFLOP/s) * min(1, blocks / (SMs * blocks it needs per SM))
//   work        = 2 * padded_m * padded_n * k * batch / (k_slice / (k_slice + 64))   (per-block prologue/epilogue)
//   split cost  = one extra launch (~3 us) + C pre-scale pass + m*n*batch*splits atomics (~1.5e11/s)
struct ModelParams {
  double peak_gflops;
  int blocks_needed_per_sm;
};
const ModelParams kFloatModel[F_COUNT] = {
    {39900, 1},  // L8 (dominated by L16, never picked)
    {42800, 1},  // L16
    {38200, 2},  // T 128x64
    {36700, 2},  // M 64x64
    {29200, 4},  // S 32x32    (refit on run 2 of the tf32x3 work, scratch/cuda_gemm/results_tf32_run2_full.txt)
    {27600, 3},  // R 16x128   (refit)
    {31700, 2},  // N 128x32
    {54000, 1},  // XL tf32x3 128x128 (measured plateau 54-55 TFLOP/s, 8 warps, 1 block per SM)
    {52000, 2},  // XM tf32x3 128x64
    {50000, 2},  // XS tf32x3 64x64
};

double model_seconds(int v, int splits, std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch,
                     std::int64_t sms) {
  const Variant<float>& var = kFloat[v];
  const std::int64_t pm = (m + var.bm - 1) / var.bm * var.bm, pn = (n + var.bn - 1) / var.bn * var.bn;
  std::int64_t kps = (k + splits - 1) / splits;
  kps = (kps + var.bk - 1) / var.bk * var.bk;
  const std::int64_t eff_splits = (k + kps - 1) / kps;
  const double blocks = (double)tiles_of(var, m, n, batch) * (double)eff_splits;
  const double fill = std::min(1.0, blocks / (double)(sms * kFloatModel[v].blocks_needed_per_sm));
  const double rate = kFloatModel[v].peak_gflops * 1e9 * fill * ((double)kps / (double)(kps + 64));
  double t = 2.0 * (double)pm * (double)pn * (double)(kps * eff_splits) * (double)batch / rate + 2e-6;
  if (eff_splits > 1) {
    const double mn = (double)m * (double)n * (double)batch;
    t += 3e-6 + mn * 8.0 / 2.5e12 + mn * (double)eff_splits / 1.5e11;
  }
  return t;
}

// Best (variant, splits) under the model among variants [first, last]; allow_split: 0 = no split, 1 = any.
// Split candidates per variant: none, and auto_splits for 2 and 1 blocks per SM (run 2 measured the first two
// for every variant; the model with a free split count under-split the tensor-core kernels by ~2x).
int pick_model(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch, bool allow_split, int* splits,
               double* seconds = nullptr, int first = F_L16, int last = F_N) {
  const std::int64_t sms = sm_count();
  double best = 1e30;
  int bv = first, bs = 1;
  for (int v = first; v <= last; ++v) {
    const std::int64_t tiles = tiles_of(kFloat[v], m, n, batch);
    const int cand[3] = {1, allow_split ? auto_splits(tiles, k, kFloat[v].bk, (int)(2 * sms)) : 1,
                         allow_split ? auto_splits(tiles, k, kFloat[v].bk, (int)sms) : 1};
    for (int s : cand) {
      const double t = model_seconds(v, s, m, n, k, batch, sms);
      if (t < best) best = t, bv = v, bs = s;
    }
  }
  *splits = bs;
  if (seconds) *seconds = best;
  return bv;
}

int pick_simt_float(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch) {
  int s = 1;
  return pick_model(m, n, k, batch, false, &s);
}

int pick_splitk_float(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch, int* splits) {
  return pick_model(m, n, k, batch, true, splits);
}

int pick_tf32x3_float(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch, int* splits) {
  return pick_model(m, n, k, batch, true, splits, nullptr, F_XL, F_XS);
}

int pick_simt_double(std::int64_t m, std::int64_t n, std::int64_t batch) {
  const std::int64_t sms = sm_count();
  return ((m + 63) / 64) * ((n + 63) / 64) * batch >= sms ? D_64 : D_32;
}

int pick_splitk_double(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch, int* splits) {
  const std::int64_t sms = sm_count();
  const int v = (m <= 48 || n <= 48) ? D_32 : D_64;
  const int b = v == D_32 ? 32 : 64;
  *splits = auto_splits(((m + b - 1) / b) * ((n + b - 1) / b) * batch, k, 8, (int)(2 * sms));
  return v;
}

int pick(Family f, bool is_double, std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch,
         int* splits) {
  *splits = 1;
  if (is_double) {
    if (f == Family::splitk) return pick_splitk_double(m, n, k, batch, splits);
    return pick_simt_double(m, n, batch);
  }
  if (f == Family::splitk) return pick_splitk_float(m, n, k, batch, splits);
  if (f == Family::tf32x3) return pick_tf32x3_float(m, n, k, batch, splits);
  return pick_simt_float(m, n, k, batch);
}

void check_args(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t lda,
                std::int64_t ldb, std::int64_t ldc, std::int64_t batch) {
  auto bad = [](const char* what) {
    fail("portkern::gemm (cuda_native)", std::string("invalid argument: ") + what);
  };
  if (m < 0 || n < 0 || k < 0 || batch < 0) bad("negative size");
  const std::int64_t ra = ta ? k : m, rb = tb ? n : k;
  if (lda < (ra > 1 ? ra : 1)) bad("lda < rows of A");
  if (ldb < (rb > 1 ? rb : 1)) bad("ldb < rows of B");
  if (ldc < (m > 1 ? m : 1)) bad("ldc < m");
}

template <class T>
void dispatch(int variant, int splits, cudaStream_t s, bool ta, bool tb, const GemmArgs<T>& args) {
  const Variant<T>& v = table<T>()[variant];
  if (splits == 0) {
    const std::int64_t tiles = ((args.m + v.bm - 1) / v.bm) * ((args.n + v.bn - 1) / v.bn) * args.batch;
    splits = auto_splits(tiles, args.k, v.bk, 2 * sm_count());
  }
  if (splits <= 1) v.simt(s, ta, tb, args);
  else v.splitk(s, ta, tb, args, splits);
}

// Common front: checks, quick returns, argument block. Returns false when nothing is left to do.
template <class T>
bool prepare(cudaStream_t s, bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
             const T* a, std::int64_t lda, std::int64_t sa, const T* b, std::int64_t ldb, std::int64_t sb, T beta,
             T* c, std::int64_t ldc, std::int64_t sc, std::int64_t batch, GemmArgs<T>& args) {
  check_args(ta, tb, m, n, k, lda, ldb, ldc, batch);
  if (m == 0 || n == 0 || batch == 0) return false;
  if (k == 0 || alpha == T(0)) {
    launch_scale_c<T>(s, c, m, n, ldc, sc, batch, beta);
    return false;
  }
  args = GemmArgs<T>{m, n, k, alpha, beta, a, lda, sa, b, ldb, sb, c, ldc, sc, batch, 1, k,
                     vec_ok(c, ldc, sc, batch)};
  return true;
}

}  // namespace

}  // namespace detail

Family choose(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch, bool tensor_cores) {
  // The cost model over all float instantiations: tf32x3 (with or without its own split-K) where its
  // tensor-core rate wins, else split-K when slicing k pays (few output tiles for the 132 SMs), else simt.
  int splits = 1, xsplits = 1;
  if (m <= 0 || n <= 0 || k <= 0 || batch <= 0) return Family::simt;
  if (k <= 16 && m >= 64 && double(m) * double(n) * double(batch) >= double(1 << 20)) return Family::smallk;
  double t_simt = 0, t_x = 0;
  detail::pick_model(m, n, k, batch, true, &splits, &t_simt);
  detail::pick_model(m, n, k, batch, true, &xsplits, &t_x, detail::F_XL, detail::F_XS);
  if (tensor_cores && t_x < t_simt) return Family::tf32x3;
  return splits > 1 ? Family::splitk : Family::simt;
}

template <class T>
void run(Family family, void* stream, bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
         const T* a, std::int64_t lda, std::int64_t sa, const T* b, std::int64_t ldb, std::int64_t sb, T beta, T* c,
         std::int64_t ldc, std::int64_t sc, std::int64_t batch) {
  using namespace detail;
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  GemmArgs<T> args;
  if (!prepare<T>(s, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch, args)) return;
  // m == 1, op(B) = B, enough columns: one GEMV launch (memory bound; no tiles, no split-K atomics).
  if (m == 1 && !tb && n >= 256) return launch_gemv_m1<T>(s, ta, args);
  // n == 1 with op(A) = A^T (its rows contiguous: a fully connected layer on one input): the same GEMV on the
  // transposed problem, C^T (1 x m) = op(B)^T (1 x k) * A (k x m), C's column becoming a row of ldc 1.
  if (n == 1 && ta && m >= 256) {
    GemmArgs<T> t = args;
    t.m = 1, t.n = m;
    t.a = args.b, t.lda = args.ldb, t.sa = args.sb;
    t.b = args.a, t.ldb = args.lda, t.sb = args.sa;
    t.ldc = 1;
    return launch_gemv_m1<T>(s, !tb, t);
  }
  if (family == Family::smallk) return launch_smallk<T>(s, ta, tb, args);
  // Family::tf32x3 is float only: double runs the simt family.
  if (family == Family::tf32x3 && sizeof(T) == 8) family = Family::simt;
  int splits = 1;
  const int v = pick(family, sizeof(T) == 8, m, n, k, batch, &splits);
  dispatch<T>(v, splits, s, ta, tb, args);
}

template void run<float>(Family, void*, bool, bool, std::int64_t, std::int64_t, std::int64_t, float, const float*,
                         std::int64_t, std::int64_t, const float*, std::int64_t, std::int64_t, float, float*,
                         std::int64_t, std::int64_t, std::int64_t);
template void run<double>(Family, void*, bool, bool, std::int64_t, std::int64_t, std::int64_t, double,
                          const double*, std::int64_t, std::int64_t, const double*, std::int64_t, std::int64_t,
                          double, double*, std::int64_t, std::int64_t, std::int64_t);

}  // namespace portkern::gemm_impl::cuda_native
