// The CPU's staged copy: packing blocks of op(A) and op(B) into the panels the micro-kernels read
// (portkern/kernel/cpu/microkernel.hpp), with the ISA set's own packing routines where it has them. Shared by
// the packed GEMM's frame (src/gemm/cpu_packed/cpu_packed.cpp) and the kernel model's fragments on the CPU
// (portkern/kernel/cpu/fragment.hpp).
//
//   pack_a: op(A)[i0 : i0+mc, p0 : p0+kc] -> panels of MR rows; panel r (width w = its rows rounded up to the
//           ISA's lanes, zero-padded) starts at dst + r*MR*kc and holds (i, p) at [p*w + i].
//   pack_b: op(B)[p0 : p0+kc, j0 : j0+nc] -> panels of NR columns; panel r (width w <= NR) starts at
//           dst + r*NR*kc and holds (p, j) at [p*w + j].
#pragma once

#include <cstdint>

#include "portkern/kernel/cpu/microkernel.hpp"

namespace portkern::kernel::cpu {

using i64 = std::int64_t;

inline i64 round_up_to(i64 a, i64 b) { return (a + b - 1) / b * b; }

// One problem's operands (column-major storage, transposes as flags) and alpha.
template <class T>
struct Operands {
  bool ta, tb;
  const T* a;
  i64 lda;
  const T* b;
  i64 ldb;
  T alpha;
};

// Transposing copy, the common core of packing A^T and B:
//   dst[p*wo + j] = j < wv ? src[j*ld + p] : 0      for p < kc, j < wo (wo >= wv).
template <class T>
void pack_transposed_generic(const T* src, i64 ld, i64 wv, i64 wo, i64 kc, T* dst) {
  i64 p = 0;
  for (; p + 8 <= kc; p += 8)
    for (i64 j = 0; j < wv; ++j)
      for (int q = 0; q < 8; ++q) dst[(p + q) * wo + j] = src[j * ld + p + q];
  for (; p < kc; ++p)
    for (i64 j = 0; j < wv; ++j) dst[p * wo + j] = src[j * ld + p];
  if (wo > wv)
    for (p = 0; p < kc; ++p)
      for (i64 j = wv; j < wo; ++j) dst[p * wo + j] = T(0);
}
template <class T>
void pack_transposed(const MicroKernels<T>& ks, const T* src, i64 ld, i64 wv, i64 wo, i64 kc, T* dst) {
  if (ks.pack_transposed)
    ks.pack_transposed(src, ld, wv, wo, kc, dst);
  else
    pack_transposed_generic(src, ld, wv, wo, kc, dst);
}

// Column sweep, the core of packing A: column p of src (contiguous, `rows` elements) is scattered into panels
// of mr rows; panel r (width w = its rows rounded up to `lanes`, zero-padded) starts at dst + r*mr*kc and holds
// (i, p) at [p*w + i].
template <class T>
void pack_columns_generic(const T* src, i64 ld, i64 rows, i64 kc, i64 mr, i64 lanes, T* dst) {
  const i64 full = rows / mr * mr, tail = rows - full;
  const i64 wt = round_up_to(tail, lanes);
  for (i64 p = 0; p < kc; ++p) {
    const T* s = src + p * ld;
    for (i64 ir = 0; ir < full; ir += mr) {
      T* d = dst + ir * kc + p * mr;
      for (i64 i = 0; i < mr; ++i) d[i] = s[ir + i];
    }
    if (tail) {
      T* d = dst + full * kc + p * wt;
      for (i64 i = 0; i < tail; ++i) d[i] = s[full + i];
      for (i64 i = tail; i < wt; ++i) d[i] = T(0);
    }
  }
}

// op(A)[i0 : i0+mc, p0 : p0+kc] -> panels of MR rows; panel r (width w = rows rounded up to lanes,
// zero-padded) starts at dst + r*MR*kc and stores element (i, p) at [p*w + i].
template <class T>
void pack_a(const MicroKernels<T>& ks, const Operands<T>& op, i64 i0, i64 mc, i64 p0, i64 kc, T* dst) {
  const i64 mr = ks.blocking.mr();
  if (!op.ta) {
    if (ks.pack_columns)
      ks.pack_columns(op.a + i0 + p0 * op.lda, op.lda, mc, kc, mr, dst);
    else
      pack_columns_generic(op.a + i0 + p0 * op.lda, op.lda, mc, kc, mr, i64(ks.blocking.lanes), dst);
    return;
  }
  for (i64 ir = 0; ir < mc; ir += mr) {  // row i of op(A) is contiguous in p
    const i64 rows = (mr < mc - ir ? mr : mc - ir);
    const i64 w = round_up_to(rows, i64(ks.blocking.lanes));
    pack_transposed(ks, op.a + p0 + (i0 + ir) * op.lda, op.lda, rows, w, kc, dst + ir * kc);
  }
}

// op(B)[p0 : p0+kc, j0 : j0+nc] -> panels of NR columns; panel r (width w <= NR) starts at
// dst + r*NR*kc and stores element (p, j) at [p*w + j].
template <class T>
void pack_b(const MicroKernels<T>& ks, const Operands<T>& op, i64 p0, i64 kc, i64 j0, i64 nc, T* dst) {
  const i64 nr = ks.blocking.nr;
  for (i64 jr = 0; jr < nc; jr += nr) {
    const i64 w = (nr < nc - jr ? nr : nc - jr);
    T* d = dst + jr * kc;
    if (op.tb) {  // row p of op(B) is contiguous in j: plain copies
      const T* s = op.b + (j0 + jr) + p0 * op.ldb;
      for (i64 p = 0; p < kc; ++p, s += op.ldb, d += w)
        for (i64 j = 0; j < w; ++j) d[j] = s[j];
    } else {  // column j of B is contiguous in p
      pack_transposed(ks, op.b + p0 + (j0 + jr) * op.ldb, op.ldb, w, w, kc, d);
    }
  }
}

}  // namespace portkern::kernel::cpu
