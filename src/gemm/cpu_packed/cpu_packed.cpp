// cpu_packed's portable frame: Goto/BLIS-style blocking, packing, GEMV and threads (see cpu_packed.hpp for the
// algorithm). The only per-ISA code, the micro-kernels (and an ISA's own packing and GEMV routines where it
// has them), lives behind one signature in portkern/kernel/cpu/microkernel.hpp; the set used is the CPU's
// device class's, chosen at run time (portkern/runtime/device_class.hpp), with its block sizes.
//
// Layout of this file
//   1. packing of op(A) and op(B) into panels (the CPU's staged copy), per-thread 64-byte aligned buffers
//   2. the serial blocked algorithm on one block of C
//   3. GEMV paths (m == 1 or n == 1) and the scaling-only path (k == 0 or alpha == 0)
//   4. thread partitioning (batch, m x n x k grid with k reduction) and run()
#include "cpu_packed.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <utility>

#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu/gemv.hpp"
#include "portkern/kernel/cpu/microkernel.hpp"
#include "portkern/kernel/cpu/pack.hpp"
#include "portkern/kernel/cpu/pages.hpp"

namespace portkern::gemm_impl::cpu_packed {
namespace {

using i64 = std::int64_t;
using kernel::cpu::MicroKernels;
using gemm_impl::GemmEpilogue;

i64 ceil_div(i64 a, i64 b) { return (a + b - 1) / b; }
i64 round_up(i64 a, i64 b) { return ceil_div(a, b) * b; }
std::size_t round_up(std::size_t a, std::size_t b) { return (a + b - 1) / b * b; }

// ---------------------------------------------------------------------------------------------
// 1. Packing. Per-thread buffers (on huge pages from 64 KiB: portkern/kernel/cpu/pages.hpp), grown on
// demand and kept for the thread's life: each OS thread has its own (threads of concurrent calls never share one), and their size is bounded by the
// blocking (at most (MC + MR) x KC of A and NC x KC of B). Memory whose size follows the problem (the
// k-split's partial products, a GEMV's gathered vector) is allocated per call instead.
// ---------------------------------------------------------------------------------------------
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { std::free(p_); }
  template <class T>
  T* get(i64 count) {
    const std::size_t bytes = round_up(checked_bytes(count, sizeof(T), "portkern::gemm", "cpu_packed scratch") + 64, 64);
    if (bytes > cap_) {
      std::free(p_);
      p_ = kernel::cpu::allocate_pages(bytes, kernel::cpu::PageUse::scratch);
      cap_ = p_ ? bytes : 0;
      if (!p_)
        fail("portkern::gemm", "cannot allocate " + std::to_string(bytes) + " bytes on cpu for cpu_packed scratch");
    }
    return static_cast<T*>(p_);
  }

 private:
  void* p_ = nullptr;
  std::size_t cap_ = 0;
};

thread_local Buffer tl_pack_a, tl_pack_b;

// An exception thrown inside an OpenMP region (an allocation that fails) must not leave it: each thread
// runs its work through run(), the first exception is kept, and rethrow() raises it after the region.
class RegionErrors {
 public:
  template <class F>
  void run(F&& f) noexcept {
    try {
      f();
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!first_) first_ = std::current_exception();
    }
  }
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr first_;
};

// One problem's operands and the packing of their blocks into the micro-kernels' panels: the CPU's staged
// copy, shared with the kernel model's fragments (portkern/kernel/cpu/pack.hpp).
using kernel::cpu::Operands;
using kernel::cpu::pack_a;
using kernel::cpu::pack_b;

// ---------------------------------------------------------------------------------------------
// 2. Serial blocked GEMM on one block: C[0:m, 0:n] = alpha * op(A)[i0.., p0..] op(B)[p0.., j0..]
//    + beta * C, where c points at the block's first element.
// ---------------------------------------------------------------------------------------------
template <class T>
void serial_gemm(const MicroKernels<T>& ks, const Operands<T>& op, i64 i0, i64 m, i64 j0, i64 n, i64 p0, i64 k,
                 T beta, T* c, i64 ldc, const GemmEpilogue<T>& epilogue) {
  const auto& blk = ks.blocking;
  const i64 mr = blk.mr(), nr = blk.nr, L = blk.lanes;
  const i64 l2_elements = blk.mc * blk.kc;  // budget of the packed A block
  // B is read in place when it is not transposed and few row panels reuse it (broadcasts from NR
  // column streams are cheaper than the transposing pack), or when a single row panel uses it.
  const bool direct_b = (!op.tb && m <= 16 * mr) || m <= mr;
  // A is read in place when it is not transposed and either one row panel covers it (packing would
  // only copy it) or few column tiles reuse it.
  const bool direct_a = blk.reads_unpacked_a && !op.ta && (m <= mr || n <= 2 * nr);
  // k is cut into equal blocks of at most ~1.25 KC (B micro-panel in L1). With B in place, a block
  // only has to keep the A panel in L2. MC then fills the L2 budget of the A block.
  const i64 kc_max =
      direct_b ? std::max(blk.kc, l2_elements / round_up(std::min(m, blk.mc), L)) : blk.kc;
  const i64 KC = round_up(ceil_div(k, ceil_div(k, kc_max + kc_max / 4)), 8);
  // MC: whole panels, blocks of equal size; the last block takes the remainder of fewer than MR rows.
  const i64 mc_max = std::max(mr, l2_elements / KC / mr * mr);
  const i64 MC = std::max<i64>(1, ceil_div(m / mr, ceil_div(m, mc_max))) * mr;
  const i64 NC = blk.nc;

  T* buf_a = direct_a ? nullptr : tl_pack_a.get<T>(std::min(round_up(m, mr), MC + mr) * std::min(KC, k));
  T* buf_b = direct_b ? nullptr : tl_pack_b.get<T>(std::min(round_up(n, nr), round_up(NC, nr)) * std::min(KC, k));

  for (i64 jc = 0; jc < n; jc += NC) {
    const i64 nc = std::min(NC, n - jc);
    for (i64 pc = 0; pc < k; pc += KC) {
      const i64 kc = std::min(KC, k - pc);
      const T bet = pc == 0 ? beta : T(1);
      if (!direct_b) pack_b(ks, op, p0 + pc, kc, j0 + jc, nc, buf_b);
      for (i64 ic = 0, mc = 0; ic < m; ic += mc) {
        mc = m - ic < MC + mr ? m - ic : MC;
        if (!direct_a) pack_a(ks, op, i0 + ic, mc, p0 + pc, kc, buf_a);
        for (i64 jr = 0; jr < nc; jr += nr) {
          // B micro-panel (kc x w): packed, in place column-major, or in place as rows of B^T.
          const int w = static_cast<int>(std::min(nr, nc - jr));
          const T* bp;
          i64 bs;
          int bcol = 0;
          if (!direct_b) {
            bp = buf_b + jr * kc;
            bs = w;
          } else if (!op.tb) {
            bp = op.b + (p0 + pc) + (j0 + jc + jr) * op.ldb;
            bs = op.ldb;
            bcol = 1;
          } else {
            bp = op.b + (j0 + jc + jr) + (p0 + pc) * op.ldb;
            bs = op.ldb;
          }
          for (i64 ir = 0; ir < mc; ir += mr) {
            // A micro-panel (rows x kc): packed (zero-padded to whole vectors) or in place.
            const i64 rows = std::min(mr, mc - ir);
            const int mv = static_cast<int>(ceil_div(rows, L));
            const int mlast = static_cast<int>(rows - (mv - 1) * L);
            const T* ap;
            i64 as;
            if (direct_a) {
              ap = op.a + (i0 + ic + ir) + (p0 + pc) * op.lda;
              as = op.lda;
            } else {
              ap = buf_a + ir * kc;
              as = mv * L;
            }
            T* tile = c + (ic + ir) + (jc + jr) * ldc;
            ks.kernel(bcol, mv, w)(kc, ap, as, bp, bs, tile, ldc, op.alpha, bet, mlast, ap, 0);
            if (pc + kc == k) epilogue.at(ic + ir, jc + jr, ldc).apply(rows, w, tile, ldc);
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 3. GEMV paths and scaling.
// ---------------------------------------------------------------------------------------------
// The two GEMV forms (the ISA's own or portable C++): portkern/kernel/cpu/gemv.hpp.
using kernel::cpu::gemv_axpy;
using kernel::cpu::gemv_dot;

// x[0:k] = src[p*inc] gathered into the thread's contiguous buffer `buf` (returned as is when inc == 1).
template <class T>
const T* contiguous(const T* src, i64 k, i64 inc, Buffer& buf) {
  if (inc == 1) return src;
  T* x = buf.get<T>(k);
  for (i64 p = 0; p < k; ++p) x[p] = src[p * inc];
  return x;
}

// m == 1 or n == 1: one row or one column of C, split over `nt` threads by output range. Each thread's
// gathered vector and strided-row buffer are its own for this call.
template <class T>
void gemv(const MicroKernels<T>& ks, const Operands<T>& op, i64 m, i64 n, i64 k, T beta, T* c, i64 ldc, int nt) {
  const T alpha = op.alpha;
  RegionErrors errors;
  if (n == 1) {  // C[:, 0] = alpha * op(A) x + beta C, x = op(B)[:, 0]
#pragma omp parallel num_threads(nt) if (nt > 1)
    errors.run([&] {
      const int t = omp_get_thread_num(), T_ = omp_get_num_threads();
      const i64 chunk = round_up(ceil_div(m, T_), i64(64));
      const i64 r0 = std::min(m, t * chunk), r1 = std::min(m, r0 + chunk);
      if (r1 <= r0) return;
      Buffer gathered;
      const T* x = contiguous(op.b, k, op.tb ? op.ldb : 1, gathered);
      if (!op.ta)
        gemv_axpy(ks, r1 - r0, k, op.a + r0, op.lda, x, alpha, beta, c + r0);
      else
        gemv_dot(ks, r1 - r0, k, op.a + r0 * op.lda, op.lda, x, alpha, beta, c + r0, i64(1));
    });
  } else {  // m == 1: C[0, :] = alpha * x^T op(B) + beta C, x = op(A)[0, :]
#pragma omp parallel num_threads(nt) if (nt > 1)
    errors.run([&] {
      const int t = omp_get_thread_num(), T_ = omp_get_num_threads();
      const i64 chunk = round_up(ceil_div(n, T_), i64(64));
      const i64 j0 = std::min(n, t * chunk), j1 = std::min(n, j0 + chunk);
      if (j1 <= j0) return;
      Buffer gathered, row;
      const T* x = contiguous(op.a, k, op.ta ? 1 : op.lda, gathered);
      if (!op.tb) {
        gemv_dot(ks, j1 - j0, k, op.b + j0 * op.ldb, op.ldb, x, alpha, beta, c + j0 * ldc, ldc);
      } else if (ldc == 1) {
        gemv_axpy(ks, j1 - j0, k, op.b + j0, op.ldb, x, alpha, beta, c + j0);
      } else {  // strided C row: compute into a contiguous buffer, then merge
        T* y = row.get<T>(j1 - j0);
        gemv_axpy(ks, j1 - j0, k, op.b + j0, op.ldb, x, T(1), T(0), y);
        for (i64 j = j0; j < j1; ++j) {
          T* cj = c + j * ldc;
          *cj = beta == T(0) ? alpha * y[j - j0] : alpha * y[j - j0] + beta * *cj;
        }
      }
    });
  }
  errors.rethrow();
}

// C = beta * C (beta == 0: zeros, C not read).
template <class T>
void scale(i64 m, i64 n, T beta, T* c, i64 ldc) {
  for (i64 j = 0; j < n; ++j) {
    T* cj = c + j * ldc;
    if (beta == T(0))
      for (i64 i = 0; i < m; ++i) cj[i] = T(0);
    else if (beta != T(1))
      for (i64 i = 0; i < m; ++i) cj[i] *= beta;
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Threads.
// ---------------------------------------------------------------------------------------------
struct Grid {
  int tm = 1, tn = 1, tk = 1;
};

// Chooses tm x tn x tk = nt minimising a rough per-thread time: FMA vector operations of the
// largest block (tiles rounded up), plus packing of its A and B blocks, plus the k reduction.
template <class T>
Grid choose_grid(const MicroKernels<T>& ks, i64 m, i64 n, i64 k, int nt) {
  const i64 mr = ks.blocking.mr(), nr = ks.blocking.nr, L = ks.blocking.lanes;
  const i64 mt = ceil_div(m, mr), ntl = ceil_div(n, nr);
  Grid best;
  double best_cost = -1;
  for (int tk = 1; tk <= nt; ++tk) {
    if (nt % tk) continue;
    for (int tm = 1; tm <= nt / tk; ++tm) {
      if ((nt / tk) % tm) continue;
      const int tn = nt / tk / tm;
      if (tm > mt || tn > ntl || tk > ceil_div(k, 64)) continue;
      // Splitting k (partial products, a reduction) only where m's tiles cannot occupy the threads: the cost
      // model below ranks it too well (Xeon, 2 threads: 196 x 256 x 1024 ran at 164-183 GFLOP/s with k split,
      // 300-319 with m split).
      if (tk > 1 && mt >= nt) continue;
      const i64 mb = std::min(m, ceil_div(mt, tm) * mr);
      const i64 nb = std::min(n, ceil_div(ntl, tn) * nr);
      const i64 kb = ceil_div(k, tk);
      const double compute = double(round_up(mb, L)) * double(nb) * double(kb) / double(L);
      const double pack = 0.5 * double(kb) * (double(mb) * double(ceil_div(nb, ks.blocking.nc)) + (mb > mr ? double(nb) : 0.0));
      const double reduce = tk > 1 ? 2.0 * double(m) * double(n) * tk / nt : 0.0;
      const double cost = compute + pack + reduce;
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        best = Grid{tm, tn, tk};
      }
    }
  }
  return best;
}

// Block b of `parts` over `tiles` tiles of size `tile` covering `len` elements: [begin, end).
std::pair<i64, i64> block_range(i64 len, i64 tile, int parts, int b) {
  const i64 tiles = ceil_div(len, tile);
  const i64 per = tiles / parts, extra = tiles % parts;
  const i64 t0 = b * per + std::min<i64>(b, extra);
  const i64 t1 = t0 + per + (b < extra ? 1 : 0);
  return {std::min(len, t0 * tile), std::min(len, t1 * tile)};
}

// One problem with nt threads (nt == 1: the calling thread only).
template <class T>
void solve(const Operands<T>& op, i64 m, i64 n, i64 k, T beta, T* c, i64 ldc, int nt, const GemmEpilogue<T>& epilogue) {
  if (k == 0 || op.alpha == T(0)) {
    scale(m, n, beta, c, ldc);
    epilogue.apply(m, n, c, ldc);
    return;
  }
  // Small problems do not pay for a parallel region.
  if (double(m) * double(n) * double(k) < 32768.0) nt = 1;
  const MicroKernels<T>& ks = kernel::cpu::active_microkernels<T>();
  if (m == 1 || n == 1) {
    gemv(ks, op, m, n, k, beta, c, ldc, nt);
    epilogue.apply(m, n, c, ldc);
    return;
  }
  if (nt == 1) {
    serial_gemm(ks, op, 0, m, 0, n, 0, k, beta, c, ldc, epilogue);
    return;
  }
  const Grid g = choose_grid(ks, m, n, k, nt);
  const int tasks = g.tm * g.tn * g.tk;
  // Partial products of k blocks 1..tk-1, each a full m x n matrix (ld = m), this call's own.
  Buffer reduction;
  T* partial = g.tk > 1 ? reduction.get<T>(checked_product({g.tk - 1, m, n}, "portkern::gemm", "k-split partial products"))
                         : nullptr;
  RegionErrors errors;
#pragma omp parallel for schedule(static, 1) num_threads(nt)
  for (int t = 0; t < tasks; ++t) errors.run([&] {
    const int im = t % g.tm, in = (t / g.tm) % g.tn, ik = t / (g.tm * g.tn);
    const auto [i0, i1] = block_range(m, ks.blocking.mr(), g.tm, im);
    const auto [j0, j1] = block_range(n, ks.blocking.nr, g.tn, in);
    const auto [p0, p1] = block_range(k, 16, g.tk, ik);
    if (i1 <= i0 || j1 <= j0) return;
    if (ik == 0)   // with k split, the epilogue waits for the reduction
      serial_gemm(ks, op, i0, i1 - i0, j0, j1 - j0, p0, p1 - p0, beta, c + i0 + j0 * ldc, ldc,
                  g.tk > 1 ? GemmEpilogue<T>{} : epilogue.at(i0, j0, ldc));
    else if (p1 > p0)
      serial_gemm(ks, op, i0, i1 - i0, j0, j1 - j0, p0, p1 - p0, T(0), partial + (ik - 1) * m * n + i0 + j0 * m, m,
                  GemmEpilogue<T>{});
    else
      scale(i1 - i0, j1 - j0, T(0), partial + (ik - 1) * m * n + i0 + j0 * m, m);
  });
  errors.rethrow();
  if (g.tk > 1) {
#pragma omp parallel for schedule(static) num_threads(nt)
    for (i64 j = 0; j < n; ++j) {
      T* cj = c + j * ldc;
      for (int q = 0; q < g.tk - 1; ++q) {
        const T* pj = partial + q * m * n + j * m;
        for (i64 i = 0; i < m; ++i) cj[i] += pj[i];
      }
      epilogue.at(0, j, ldc).apply(m, 1, cj, ldc);
    }
  }
}

}  // namespace

template <class T>
void run(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
         std::int64_t lda, std::int64_t stride_a, const T* b, std::int64_t ldb, std::int64_t stride_b, T beta,
         T* c, std::int64_t ldc, std::int64_t stride_c, std::int64_t batch, int threads,
         const GemmEpilogue<T>& epilogue) {
  const int nt = std::max(1, threads);
  auto problem = [&](i64 i, int tcount) {
    const Operands<T> op{trans_a, trans_b, a + i * stride_a, lda, b + i * stride_b, ldb, alpha};
    const GemmEpilogue<T> of_problem{epilogue.bias, epilogue.residual ? epilogue.residual + i * stride_c : nullptr,
                                     epilogue.relu};
    solve(op, m, n, k, beta, c + i * stride_c, ldc, tcount, of_problem);
  };
  // Whole problems per thread when the batch divides evenly or is large; the remainder is split.
  i64 whole = 0;
  if (nt > 1 && batch >= nt) whole = (batch % nt == 0 || batch >= 4 * nt) ? batch : batch / nt * nt;
  if (whole > 0) {
    RegionErrors errors;
#pragma omp parallel for schedule(static) num_threads(nt)
    for (i64 i = 0; i < whole; ++i) errors.run([&] { problem(i, 1); });
    errors.rethrow();
  }
  for (i64 i = whole; i < batch; ++i) problem(i, nt);
}

template void run<float>(bool, bool, std::int64_t, std::int64_t, std::int64_t, float, const float*, std::int64_t,
                         std::int64_t, const float*, std::int64_t, std::int64_t, float, float*, std::int64_t,
                         std::int64_t, std::int64_t, int, const GemmEpilogue<float>&);
template void run<double>(bool, bool, std::int64_t, std::int64_t, std::int64_t, double, const double*,
                          std::int64_t, std::int64_t, const double*, std::int64_t, std::int64_t, double, double*,
                          std::int64_t, std::int64_t, std::int64_t, int, const GemmEpilogue<double>&);

}  // namespace portkern::gemm_impl::cpu_packed
