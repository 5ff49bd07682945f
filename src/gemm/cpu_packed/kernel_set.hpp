// What each per-ISA micro-kernel file shares: filling a MicroKernels table from a kernel template, and the
// entry points the files define (one per ISA and precision).
//
// The table code sits in an anonymous namespace on purpose: every ISA's file is compiled with its own target
// flags, and an inline function shared between them could be linked in its widest ISA's version. Keep the ISA
// files free of other shared inline code (no standard algorithms either; they are templates too).
#pragma once

#include <utility>

#include "portkern/kernel/cpu/microkernel.hpp"

namespace portkern::kernel::cpu {

// The sets, defined by microkernel_<isa>.cpp (the x86 ones on x86-64 only).
template <class T>
const MicroKernels<T>& avx512_microkernels();
template <class T>
const MicroKernels<T>& avx2_microkernels();
template <class T>
const MicroKernels<T>& generic_microkernels();

namespace {

// K::template run<T, vectors, cols, b_columns> is the micro-kernel of one edge; every vectors <= Vectors and
// cols <= NR gets its own.
// K::template run_patches<T, vectors, cols> likewise for the patch micro-kernels.
template <class T, class K, int V, bool BColumns, int... N>
void fill_columns(MicroKernels<T>& set, std::integer_sequence<int, N...>) {
  ((set.kernels[BColumns][V - 1][N] = &K::template run<T, V, N + 1, BColumns>), ...);
}

// The patch micro-kernels of panels of V vectors, sizeof...(N) columns wide at most.
template <class T, class K, int V, int... N>
void fill_patches(MicroKernels<T>& set, std::integer_sequence<int, N...>) {
  static_assert(sizeof...(N) <= max_nr);
  ((set.patch_kernels[V - 1][N] = &K::template run_patches<T, V, N + 1>), ...);
  set.blocking.patch_nr[V - 1] = int(sizeof...(N));
}

template <class T, class K, int NR, int... V>
void fill_kernels(MicroKernels<T>& set, std::integer_sequence<int, V...>) {
  ((fill_columns<T, K, V + 1, false>(set, std::make_integer_sequence<int, NR>{})), ...);
  ((fill_columns<T, K, V + 1, true>(set, std::make_integer_sequence<int, NR>{})), ...);
  ((fill_patches<T, K, V + 1>(set, std::make_integer_sequence<int, NR>{})), ...);
}

// A set of `isa` with the micro-kernels of K for a Vectors x NR register tile and the given cache blocking; its
// patch tiles are Vectors x NR too, until a set widens those of fewer vectors with fill_patches.
template <class T, class K, int Vectors, int NR>
MicroKernels<T> make_set(CpuIsa isa, int lanes, std::int64_t kc, std::int64_t mc, std::int64_t nc,
                         bool reads_unpacked_a) {
  static_assert(Vectors >= 1 && Vectors <= max_vectors && NR >= 1 && NR <= max_nr);
  MicroKernels<T> set;
  set.isa = isa;
  set.blocking.lanes = lanes;
  set.blocking.vectors = Vectors;
  set.blocking.nr = NR;
  set.blocking.kc = kc;
  set.blocking.mc = mc;
  set.blocking.nc = nc;
  set.blocking.reads_unpacked_a = reads_unpacked_a;
  fill_kernels<T, K, NR>(set, std::make_integer_sequence<int, Vectors>{});
  return set;
}

}  // namespace
}  // namespace portkern::kernel::cpu
