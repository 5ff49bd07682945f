// The portable `tiled` GEMM family (seed 000's SYCL-BLAS kernel, seed 001's parameter space), written once
// in the kernel model for the CPU and CUDA.
//
// Computes, for each of `batch` problems, C = alpha * op(A) * op(B) + beta * C, column-major (BLAS).
// A group of wg_m x wg_n items owns a block of (wg_m * r) x (wg_n * c) of C; item (x, y) owns rows
// x + i * wg_m and columns y + j * wg_n (i < r, j < c), so consecutive items touch consecutive rows:
// coalesced on CUDA, contiguous SIMD lanes on the CPU. The item's r x c accumulators live in a private
// array. Three memory modes:
//   global   — seed 001: each item reads its r x a slice of A and a x c slice of B straight from memory,
//              a values of k at a time (caches do the reuse);
//   local    — the group stages a (block_m x 16) tile of A and a (16 x block_n) tile of B in local memory
//              (loads of `vec` consecutive elements where alignment allows), two barriers per tile;
//   local_db — the same with two buffers: the next tile is loaded while the current one is used, one
//              barrier per tile;
//   staged   — the model's matrix fragments and staged copies (staged.hpp, GemmStaged).
// When it wins: on a GPU, local/local_db with 8 x 8 items of 4 x 4 to 8 x 8 register tiles for large
// problems; global with small groups for skinny ones. On the CPU the portable form is far from the packed
// native family (see docs/performance.md): it is the seed papers' research question, not the CPU's fast path.
#pragma once

#include <cstdint>

#include "gemm/args.hpp"
#include "gemm/tiled/tiled_config.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::gemm_impl {

// Bytes of static local memory a configuration needs on CUDA (0 in global mode; staged: 0, its ring of
// tiles is dynamic shared memory, checked at launch against the device's limit).
template <class T>
constexpr std::int64_t tiled_local_bytes(const TiledConfig& p) {
  if (!p.uses_local() || p.memory == TiledMemory::staged) return 0;
  const std::int64_t buffers = p.memory == TiledMemory::local_db ? 2 : 1;
  return buffers * p.k_tile * (p.block_m() + p.block_n() + 1) * std::int64_t(sizeof(T));
}

template <TiledConfig P, class T, bool TransA, bool TransB>
struct GemmTiled {
  static_assert(P.k_tile % P.a == 0, "the k-step must divide the local k-tile");
  static constexpr TiledConfig config = P;
  static constexpr bool trans_a = TransA, trans_b = TransB;
  using group_shape = kernel::Shape<P.wg_m, P.wg_n>;
  static constexpr int BM = P.block_m(), BN = P.block_n(), KT = P.k_tile, size = P.group_size();

  GemmArgs<T> args;

  static kernel::Range groups(const GemmArgs<T>& g) {
    return {(g.m + BM - 1) / BM, (g.n + BN - 1) / BN, g.batch};
  }

  // op(A)(i, l) and op(B)(l, j) of one problem.
  PORTKERN_INLINE static T load_a(const T* a, std::int64_t lda, std::int64_t i, std::int64_t l) {
    return TransA ? a[i * lda + l] : a[l * lda + i];
  }
  PORTKERN_INLINE static T load_b(const T* b, std::int64_t ldb, std::int64_t l, std::int64_t j) {
    return TransB ? b[l * ldb + j] : b[j * ldb + l];
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const GemmArgs<T>& p = args;
    const T* a = p.a + g.z() * p.stride_a;
    const T* b = p.b + g.z() * p.stride_b;
    T* c = p.c + g.z() * p.stride_c;
    const std::int64_t m0 = g.x() * BM, n0 = g.y() * BN;

    kernel::private_array<T, P.r * P.c, Group> acc;
    g.for_each_item([&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int e = 0; e < P.r * P.c; ++e) acc(item, e) = T(0);
    });
    if constexpr (P.memory == TiledMemory::global)
      accumulate_global(g, acc, a, b, m0, n0);
    else
      accumulate_local(g, acc, a, b, m0, n0);

    // Epilogue: C = alpha * acc + beta * C; beta == 0 never reads C (NaN there must not come through).
    g.for_each_item([&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int j = 0; j < P.c; ++j) {
        const std::int64_t col = n0 + item.y + j * P.wg_n;
        PORTKERN_UNROLL
        for (int i = 0; i < P.r; ++i) {
          const std::int64_t row = m0 + item.x + i * P.wg_m;
          if (row < p.m && col < p.n) {
            T& out = c[col * p.ldc + row];
            const T value = p.alpha * acc(item, i * P.c + j);
            out = p.beta == T(0) ? value : value + p.beta * out;
          }
        }
      }
    });
  }

  template <class Group, class Acc>
  PORTKERN_INLINE void accumulate_global(Group& g, Acc& acc, const T* a, const T* b, std::int64_t m0,
                                         std::int64_t n0) const {
    const GemmArgs<T>& p = args;
    for (std::int64_t l0 = 0; l0 < p.k; l0 += P.a) {
      g.for_each_item([&](kernel::Item item) {
        T ra[P.r][P.a], rb[P.a][P.c];
        PORTKERN_UNROLL
        for (int l = 0; l < P.a; ++l) {
          const bool in_k = l0 + l < p.k;
          PORTKERN_UNROLL
          for (int i = 0; i < P.r; ++i) {
            const std::int64_t row = m0 + item.x + i * P.wg_m;
            ra[i][l] = in_k && row < p.m ? load_a(a, p.lda, row, l0 + l) : T(0);
          }
          PORTKERN_UNROLL
          for (int j = 0; j < P.c; ++j) {
            const std::int64_t col = n0 + item.y + j * P.wg_n;
            rb[l][j] = in_k && col < p.n ? load_b(b, p.ldb, l0 + l, col) : T(0);
          }
        }
        PORTKERN_UNROLL
        for (int l = 0; l < P.a; ++l)
          PORTKERN_UNROLL
          for (int i = 0; i < P.r; ++i)
            PORTKERN_UNROLL
            for (int j = 0; j < P.c; ++j) acc(item, i * P.c + j) += ra[i][l] * rb[l][j];
      });
    }
  }

  // The group's tiles: A as [KT][BM] (rows contiguous), B as [KT][BN + 1] (padded: the cooperative store
  // runs along k, and an odd row length keeps it free of bank conflicts).
  struct Tiles {
    T a[KT][BM];
    T b[KT][BN + 1];
  };

  // Loads the k-tile starting at l0 into `t`, every item a share; out-of-range elements are zeros.
  template <class Group>
  PORTKERN_INLINE void load_tiles(Group& g, Tiles& t, const T* a, const T* b, std::int64_t m0, std::int64_t n0,
                                  std::int64_t l0) const {
    const GemmArgs<T>& p = args;
    constexpr int V = P.vec;
    // Vector loads need the whole vector inside the matrix and aligned: checked once per tile (uniform).
    const bool vector_a = V > 1 && !TransA && m0 + BM <= p.m && l0 + KT <= p.k && p.lda % V == 0 &&
                          reinterpret_cast<std::uintptr_t>(a) % (V * sizeof(T)) == 0;
    const bool vector_b = V > 1 && TransB && n0 + BN <= p.n && l0 + KT <= p.k && p.ldb % V == 0 &&
                          reinterpret_cast<std::uintptr_t>(b) % (V * sizeof(T)) == 0;
    g.for_each_item([&](kernel::Item item) {
      // A: consecutive items take consecutive rows (contiguous in memory unless A is transposed).
      if (vector_a) {
        for (int e = item.linear * V; e < BM * KT; e += size * V) {
          const int row = e % BM, l = e / BM;
          const auto v = kernel::vec<T, V>::load(a + (l0 + l) * p.lda + m0 + row);
          PORTKERN_UNROLL
          for (int q = 0; q < V; ++q) t.a[l][row + q] = v[q];
        }
      } else {
        for (int e = item.linear; e < BM * KT; e += size) {
          const int row = TransA ? e / KT : e % BM, l = TransA ? e % KT : e / BM;
          const std::int64_t gr = m0 + row, gl = l0 + l;
          t.a[l][row] = gr < p.m && gl < p.k ? load_a(a, p.lda, gr, gl) : T(0);
        }
      }
      // B: consecutive items take consecutive k (contiguous unless B is transposed).
      if (vector_b) {
        for (int e = item.linear * V; e < BN * KT; e += size * V) {
          const int col = e % BN, l = e / BN;
          const auto v = kernel::vec<T, V>::load(b + (l0 + l) * p.ldb + n0 + col);
          PORTKERN_UNROLL
          for (int q = 0; q < V; ++q) t.b[l][col + q] = v[q];
        }
      } else {
        for (int e = item.linear; e < BN * KT; e += size) {
          const int col = TransB ? e % BN : e / KT, l = TransB ? e / BN : e % KT;
          const std::int64_t gc = n0 + col, gl = l0 + l;
          t.b[l][col] = gc < p.n && gl < p.k ? load_b(b, p.ldb, gl, gc) : T(0);
        }
      }
    });
  }

  template <class Item, class Acc>
  PORTKERN_INLINE static void multiply_tiles(const Item& item, Acc& acc, const Tiles& t) {
    for (int l0 = 0; l0 < KT; l0 += P.a) {
      PORTKERN_UNROLL
      for (int l = l0; l < l0 + P.a; ++l) {
        T ra[P.r], rb[P.c];
        PORTKERN_UNROLL
        for (int i = 0; i < P.r; ++i) ra[i] = t.a[l][item.x + i * P.wg_m];
        PORTKERN_UNROLL
        for (int j = 0; j < P.c; ++j) rb[j] = t.b[l][item.y + j * P.wg_n];
        PORTKERN_UNROLL
        for (int i = 0; i < P.r; ++i)
          PORTKERN_UNROLL
          for (int j = 0; j < P.c; ++j) acc(item, i * P.c + j) += ra[i] * rb[j];
      }
    }
  }

  template <class Group, class Acc>
  PORTKERN_INLINE void accumulate_local(Group& g, Acc& acc, const T* a, const T* b, std::int64_t m0,
                                        std::int64_t n0) const {
    const std::int64_t k = args.k;
    if constexpr (P.memory == TiledMemory::local) {
      auto& t = g.template local<Tiles, 0>();
      for (std::int64_t l0 = 0; l0 < k; l0 += KT) {
        load_tiles(g, t, a, b, m0, n0, l0);
        g.barrier();
        g.for_each_item([&](kernel::Item item) { multiply_tiles(item, acc, t); });
        g.barrier();
      }
    } else {
      auto& t = g.template local<Tiles[2], 0>();
      load_tiles(g, t[0], a, b, m0, n0, 0);
      g.barrier();
      int current = 0;
      for (std::int64_t l0 = 0; l0 < k; l0 += KT) {
        // Load the next tile into the other buffer while this one is multiplied; one barrier per tile.
        if (l0 + KT < k) load_tiles(g, t[current ^ 1], a, b, m0, n0, l0 + KT);
        g.for_each_item([&](kernel::Item item) { multiply_tiles(item, acc, t[current]); });
        g.barrier();
        current ^= 1;
      }
    }
  }
};

}  // namespace portkern::gemm_impl
