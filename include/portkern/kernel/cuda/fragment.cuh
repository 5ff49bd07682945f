// The CUDA lowering of the kernel model's matrix fragments and staged copies (portkern/kernel/fragment.hpp).
//
// Staged tiles: a __shared__ ring of Stages tiles, A as [KT][BM] and B as [KT][BN + 4] (the pad keeps the
// rows 16-byte aligned and spreads a column's stores over banks). A copy is one cp.async commit group: each
// item copies its share, 16 bytes at a time where the operand is contiguous along the tile's rows and the
// addresses allow it (A not transposed, B transposed), 4 or 8 bytes otherwise, with zero fill past the
// matrix's edges (cp.async's source size), so that a tile is always whole. wait() is
// cp.async.wait_group<Stages - 2> and a barrier: the oldest copy has landed and every item sees it, and
// every item has finished with the slot the next copy overwrites. Before sm_80 the copies are plain loads
// and stores.
// Fragment: TM x TN accumulators per item in registers; item (x, y) owns rows in runs of 4
// (4x + (i/4)*4*ItemsM + i%4) when TM is a multiple of 4, else x + i*ItemsM, and likewise columns, so
// that a warp's fragment loads are 16-byte loads of consecutive addresses (no bank conflicts) and its C
// stores are coalesced. SIMT FMA in the operand's precision (IEEE fp32 / fp64).
#pragma once

#include <cstdint>

#include "portkern/kernel/fragment.hpp"
#include "portkern/kernel/model.hpp"

namespace portkern::kernel::cuda {

namespace detail {

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Copies `bytes` (4, 8 or 16) to shared memory, of which the first `valid` bytes come from `src` and the rest
// are zeros; `src` is not read when `valid` is 0 (it must still be a valid address).
template <int Bytes>
__device__ __forceinline__ void copy_async(void* dst, const void* src, int valid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (Bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(dst)), "l"(src), "r"(valid));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(shared_address(dst)), "l"(src), "n"(Bytes),
                 "r"(valid));
#else
  unsigned char* d = static_cast<unsigned char*>(dst);
  const unsigned char* s = static_cast<const unsigned char*>(src);
  for (int i = 0; i < Bytes; ++i) d[i] = i < valid ? s[i] : 0;
#endif
}

__device__ __forceinline__ void copy_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}

template <int Pending>
__device__ __forceinline__ void copy_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending));
#endif
}

}  // namespace detail

template <class L>
class StagedTiles {
 public:
  using T = typename L::value_type;
  static constexpr int BM = L::BM, BN = L::BN, KT = L::KT, S = L::Stages, items = L::items_m * L::items_n;
  static constexpr int pad = 16 / sizeof(T) > 1 ? int(16 / sizeof(T)) : 1, ldb = BN + pad;
  static constexpr int V = 16 / sizeof(T);   // elements per 16-byte copy
  struct Storage {
    T a[S][KT][BM];
    T b[S][KT][ldb];
  };

  template <class Group>
  __device__ explicit StagedTiles(Group& g) : s_(g.template local<Storage, 0>()) {}

  template <class Group>
  __device__ void copy(Group&, int slot, const MatrixOperand<T>& a, const MatrixOperand<T>& b, std::int64_t m0,
                       std::int64_t n0, std::int64_t l0, std::int64_t m, std::int64_t n, std::int64_t k) {
    if (l0 < k) {
      const int tid = int(threadIdx.x + threadIdx.y * blockDim.x);
      copy_operand<BM>(s_.a[slot], a, m0, l0, m, k, tid, false);
      copy_operand<BN>(s_.b[slot], b, n0, l0, n, k, tid, true);
    }
    detail::copy_commit();   // one group per copy, empty or not, so that wait() counts stages
  }

  template <class Group>
  __device__ void wait(Group&) const {
    detail::copy_wait<S - 2>();
    __syncthreads();
  }

  __device__ const T (&a(int slot) const)[KT][BM] { return s_.a[slot]; }
  __device__ const T (&b(int slot) const)[KT][ldb] { return s_.b[slot]; }

 private:
  // The tile of X = op(A) (rows along m: is_b false) or op(B)^T (rows along n: is_b true): element (x, l) of
  // the tile, x < BX along m or n, l < KT along k, goes to tile[l][x]. In memory, A(x, l) is at
  // data[x + l*ld] (contiguous along x) unless transposed; B(l, x) is at data[l + x*ld] (contiguous along l)
  // unless transposed.
  template <int BX, class Tile>
  __device__ static void copy_operand(Tile& tile, const MatrixOperand<T>& op, std::int64_t x0, std::int64_t l0,
                                      std::int64_t x_end, std::int64_t k, int tid, bool is_b) {
    const bool along_x = is_b ? op.transposed : !op.transposed;   // memory contiguous along the tile's rows
    if (along_x) {
      const bool vector = BX % V == 0 && op.ld % V == 0 && reinterpret_cast<std::uintptr_t>(op.data) % 16 == 0;
      if (vector) {
        for (int e = tid * V; e < BX * KT; e += items * V) {
          const int x = e % BX, l = e / BX;
          const std::int64_t gx = x0 + x, gl = l0 + l;
          const std::int64_t left = gl < k ? x_end - gx : 0;
          const int valid = left <= 0 ? 0 : (left >= V ? 16 : int(left) * int(sizeof(T)));
          detail::copy_async<16>(&tile[l][x], valid ? op.data + gl * op.ld + gx : op.data, valid);
        }
        return;
      }
      for (int e = tid; e < BX * KT; e += items) {
        const int x = e % BX, l = e / BX;
        const std::int64_t gx = x0 + x, gl = l0 + l;
        const bool in = gx < x_end && gl < k;
        detail::copy_async<sizeof(T)>(&tile[l][x], in ? op.data + gl * op.ld + gx : op.data, in ? int(sizeof(T)) : 0);
      }
      return;
    }
    // Contiguous along k: consecutive items take consecutive l (coalesced reads).
    for (int e = tid; e < BX * KT; e += items) {
      const int l = e % KT, x = e / KT;
      const std::int64_t gx = x0 + x, gl = l0 + l;
      const bool in = gx < x_end && gl < k;
      detail::copy_async<sizeof(T)>(&tile[l][x], in ? op.data + gx * op.ld + gl : op.data, in ? int(sizeof(T)) : 0);
    }
  }

  Storage& s_;
};

template <class L>
class Fragment {
 public:
  using T = typename L::value_type;
  static constexpr int TM = L::TM, TN = L::TN, IM = L::items_m, IN = L::items_n, KT = L::KT;

  template <class Group>
  __device__ Fragment(Group&, const BlockOutput<T>& out)
      : out_(out), x_(int(threadIdx.x) % IM), y_(int(threadIdx.x + threadIdx.y * blockDim.x) / IM) {
    PORTKERN_UNROLL
    for (int i = 0; i < TM; ++i)
      PORTKERN_UNROLL
      for (int j = 0; j < TN; ++j) acc_[i][j] = T(0);
  }

  // Row (or column) of the block owned by item coordinate `x` as its i-th: runs of 4 where the tile allows.
  template <int Tile, int Items>
  __device__ static constexpr int owned(int x, int i) {
    if constexpr (Tile % 4 == 0) return (i / 4) * 4 * Items + 4 * x + i % 4;
    else return x + i * Items;
  }

  template <class Group>
  __device__ void mma(Group&, const StagedTiles<L>& tiles, int slot) {
    const auto& a = tiles.a(slot);
    const auto& b = tiles.b(slot);
    PORTKERN_UNROLL
    for (int l = 0; l < KT; ++l) {
      T ra[TM], rb[TN];
      load<TM, IM>(a[l], x_, ra);
      load<TN, IN>(b[l], y_, rb);
      PORTKERN_UNROLL
      for (int i = 0; i < TM; ++i)
        PORTKERN_UNROLL
        for (int j = 0; j < TN; ++j) acc_[i][j] += ra[i] * rb[j];
    }
  }

  template <class Group>
  __device__ void store(Group&) const {
    PORTKERN_UNROLL
    for (int j = 0; j < TN; ++j) {
      const int col = owned<TN, IN>(y_, j);
      if (col >= out_.cols) continue;
      T* c = out_.c + std::int64_t(col) * out_.ldc;
      PORTKERN_UNROLL
      for (int i = 0; i < TM; ++i) {
        const int row = owned<TM, IM>(x_, i);
        if (row < out_.rows) {
          const T value = out_.alpha * acc_[i][j];
          c[row] = out_.beta == T(0) ? value : value + out_.beta * c[row];
        }
      }
    }
  }

 private:
  // The item's Tile values of one k-row of a tile: 16-byte-aligned runs of 4 where the tile allows.
  template <int Tile, int Items, class Row>
  __device__ static void load(const Row& row, int x, T (&r)[Tile]) {
    if constexpr (Tile % 4 == 0) {
      PORTKERN_UNROLL
      for (int q = 0; q < Tile / 4; ++q) {
        const auto v = vec<T, 4>::load(&row[q * 4 * Items + 4 * x]);
        PORTKERN_UNROLL
        for (int u = 0; u < 4; ++u) r[4 * q + u] = v[u];
      }
    } else {
      PORTKERN_UNROLL
      for (int i = 0; i < Tile; ++i) r[i] = row[x + i * Items];
    }
  }

  BlockOutput<T> out_;
  int x_, y_;
  T acc_[TM][TN];
};

}  // namespace portkern::kernel::cuda
