// The CUDA lowering of the kernel model's matrix fragments and staged copies (portkern/kernel/fragment.hpp).
//
// Staged tiles: a ring of Stages tiles in dynamic shared memory. A tile mirrors its operand's layout in
// memory, so that every copy moves 16-byte chunks where alignment allows: an operand contiguous along k (A
// transposed, B not) is kept k-major, [BX][KT + 4] ((KT + 4) / 4 odd: a warp's 16-byte loads along k of
// distinct rows, and the mma fragments' loads, lanes (g, t) at g * row + t, hit distinct banks); one
// contiguous along m or n x-major, [KT][BX + pad] (float rows of 8 mod 32 words, so that the mma fragments'
// loads, lanes (g, t) at t * row + g, hit 32 distinct banks). A copy is one cp.async commit group: each item
// copies its share of chunks (16 bytes, or 4 or 8 where the operand's pointer or ld is not 16-byte aligned),
// zero-filled past the matrix's edges (cp.async's source size), so that a tile is always whole. Addresses
// are a base pointer per tile plus (outer * ld + inner) per chunk: 64-bit coordinates per chunk cost 13-15%
// of the 3xTF32 kernel on the H100 (data/results/h100-2026-11-25-explore). wait() is
// cp.async.wait_group<Stages - 2> and a barrier: the oldest copy has landed and every item sees it, and
// every item has finished with the slot the next copy overwrites. Before sm_80 the copies are plain loads
// and stores.
// SIMT fragment (IEEE, float or double): TM x TN accumulators per item in registers, SIMT FMA in the
// operand's precision, k walked 4 steps at a time. From an x-major tile an item reads its values of one k
// in 16-byte runs of 4 (it owns rows 4x + (i/4)*4*ItemsM + i%4, and likewise columns: consecutive addresses
// across a warp, coalesced C stores); from a k-major tile it reads 4 k of one row at once, and owns rows
// x + i*ItemsM (distinct banks across the warp).
// Tensor-core fragments (float): the group's warps tile the block as WARPS_M x WARPS_N warp tiles of MT x NT
// m16n8k8 atoms (atoms.cuh). 3xTF32: each k-tile's product goes into zeroed partial sums that are then added
// to the accumulators with round-to-nearest (the tensor core's accumulation truncates); TF32: one product of
// the rounded operands per atom, straight into the accumulators.
#pragma once

#include <cstdint>
#include <type_traits>

#include "portkern/kernel/cuda/atoms.cuh"
#include "portkern/kernel/fragment.hpp"
#include "portkern/kernel/model.hpp"

// The dynamic shared memory of a launch (the staged tiles' ring).
extern __shared__ __align__(16) unsigned char portkern_dynamic_shared[];

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

// Output element (row, col) of the block: c = value + beta * c and the epilogue, or c += value atomically
// where the output accumulates.
template <class T>
__device__ __forceinline__ void store_value(const BlockOutput<T>& out, int row, int col, T value) {
  T& c = out.c[std::int64_t(col) * out.ldc + row];
  if (out.accumulate) atomicAdd(&c, value);
  else c = out.finished(out.beta == T(0) ? value : value + out.beta * c, row, col);
}

template <class L>
class StagedTiles {
 public:
  using T = typename L::value_type;
  static constexpr int BM = L::BM, BN = L::BN, KT = L::KT, S = L::Stages, items = L::items_m * L::items_n;
  static constexpr int V = 16 / sizeof(T);   // elements per 16-byte copy
  // Row lengths: float rows of 8 mod 32 words (conflict-free mma fragment loads), double rows padded by 4.
  static constexpr int padded(int x) { return sizeof(T) == 4 ? x + (8 - x % 32 + 32) % 32 : x + 4; }
  static constexpr int lda = padded(BM), ldb = padded(BN);
  static constexpr bool a_k_major = L::a_along_k, b_k_major = L::b_along_k;
  // The tensor-core fragments (float only: double takes the SIMT one).
  static constexpr bool atoms = L::arithmetic != Arithmetic::ieee && std::is_same_v<T, float>;
  static_assert((KT + 4) / 4 % 2 == 1 || !(a_k_major || b_k_major), "k-major tiles: (KT + 4) / 4 odd");
  static_assert(KT % 4 == 0, "k-tiles of a multiple of 4 (the fragments read 4 k at a time)");
  template <int BX, bool KMajor>
  using Tile = std::conditional_t<KMajor, T[BX][KT + 4], T[KT][padded(BX)]>;
  struct Storage {
    Tile<BM, a_k_major> a[S];
    Tile<BN, b_k_major> b[S];
  };
  static constexpr std::size_t storage_bytes = sizeof(Storage);

  template <class Group>
  __device__ explicit StagedTiles(Group&) : s_(*reinterpret_cast<Storage*>(portkern_dynamic_shared)) {}

  template <class Group>
  __device__ void copy(Group&, int slot, const MatrixOperand<T>& a, const MatrixOperand<T>& b, std::int64_t m0,
                       std::int64_t n0, std::int64_t l0, std::int64_t m, std::int64_t n, std::int64_t k) {
    if (l0 < k) {
      const int tid = int(threadIdx.x + threadIdx.y * blockDim.x);
      copy_operand<BM, a_k_major>(s_.a[slot], a, m0, l0, m, k, tid);
      copy_operand<BN, b_k_major>(s_.b[slot], b, n0, l0, n, k, tid);
    }
    detail::copy_commit();   // one group per copy, empty or not, so that wait() counts stages
  }

  // The same with op(B) the patches of an image (an implicit GEMM), gathered window by window into B's
  // k-major tile: 16-byte chunks of 4 channels where the channels and the input allow, else single elements;
  // zeros outside the image. Coordinates are 32-bit (the family checks that they fit).
  template <class Group>
  __device__ void copy(Group&, int slot, const MatrixOperand<T>& a, const WindowOperand<T>& b, std::int64_t m0,
                       std::int64_t n0, std::int64_t l0, std::int64_t m, std::int64_t n, std::int64_t k) {
    static_assert(b_k_major, "a window operand is copied along k: a BlockShape with BAlongK");
    if (l0 < k) {
      const int tid = int(threadIdx.x + threadIdx.y * blockDim.x);
      copy_operand<BM, a_k_major>(s_.a[slot], a, m0, l0, m, k, tid);
      if (b.channels % V == 0 && b.pixel_stride % V == 0 && reinterpret_cast<std::uintptr_t>(b.input) % 16 == 0)
        copy_windows<V>(s_.b[slot], b, n0, l0, n, k, tid);
      else
        copy_windows<1>(s_.b[slot], b, n0, l0, n, k, tid);
    }
    detail::copy_commit();
  }

  template <class Group>
  __device__ void wait(Group&) const {
    detail::copy_wait<S - 2>();
    __syncthreads();
  }

  // The tiles of a slot (x-major: [k][x]; k-major: [x][k]), and single elements (l, x) of either layout.
  __device__ const Tile<BM, a_k_major>& a(int slot) const { return s_.a[slot]; }
  __device__ const Tile<BN, b_k_major>& b(int slot) const { return s_.b[slot]; }
  __device__ T a_at(int slot, int l, int x) const {
    if constexpr (a_k_major) return s_.a[slot][x][l];
    else return s_.a[slot][l][x];
  }
  __device__ T b_at(int slot, int l, int x) const {
    if constexpr (b_k_major) return s_.b[slot][x][l];
    else return s_.b[slot][l][x];
  }

 private:
  // The tile of X = op(A) (x along m) or op(B)^T (x along n), x < BX, l < KT: element (x, l) is X(x0 + x,
  // l0 + l). Both layouts are [outer][inner] with inner the direction contiguous in memory (k for a k-major
  // tile, x for an x-major one), so element (outer, inner) is at base[outer * ld + inner].
  template <int BX, bool KMajor, class TileRef>
  __device__ static void copy_operand(TileRef& tile, const MatrixOperand<T>& op, std::int64_t x0, std::int64_t l0,
                                      std::int64_t x_end, std::int64_t k, int tid) {
    constexpr int inner_size = KMajor ? KT : BX;
    const T* base = op.data + (KMajor ? x0 * op.ld + l0 : l0 * op.ld + x0);
    const int x_left = x_end - x0 < BX ? int(x_end - x0) : BX, l_left = k - l0 < KT ? int(k - l0) : KT;
    const int outer_left = KMajor ? x_left : l_left, inner_left = KMajor ? l_left : x_left;
    if (inner_size % V == 0 && op.ld % V == 0 && reinterpret_cast<std::uintptr_t>(op.data) % 16 == 0) {
      copy_chunks<V, inner_size, BX * KT>(tile, op, base, outer_left, inner_left, tid);
    } else {
      copy_chunks<1, inner_size, BX * KT>(tile, op, base, outer_left, inner_left, tid);
    }
  }

  // Chunks of W elements (W * sizeof(T) bytes), Inner / W of them per row of `Inner` elements. The 16-byte
  // copy is unrolled; the element-wise one (operands not 16-byte aligned) is not: a second unrolled copy
  // cost the 3xTF32 kernel 30 registers and spills, the SIMT one 40, whichever copy ran.
  template <int W, int Inner, int Elements, class TileRef>
  __device__ static void copy_chunks(TileRef& tile, const MatrixOperand<T>& op, const T* base, int outer_left,
                                     int inner_left, int tid) {
    constexpr int per_row = Inner / W, count = Elements / W;
    auto chunk = [&](int e) {
      const int outer = e / per_row, inner = (e % per_row) * W;
      const int left = outer < outer_left ? inner_left - inner : 0;
      const int valid = left <= 0 ? 0 : (left >= W ? W : left) * int(sizeof(T));
      detail::copy_async<W * sizeof(T)>(&tile[outer][inner], valid ? base + outer * op.ld + inner : op.data, valid);
    };
    if constexpr (W == V) {
      PORTKERN_UNROLL
      for (int q = 0; q < (count + items - 1) / items; ++q)
        if (count % items == 0 || tid + q * items < count) chunk(tid + q * items);
    } else {
#pragma unroll 1
      for (int e = tid; e < count; e += items) chunk(e);
    }
  }

  // Chunks of W elements along k (W divides the channels and the pixel stride, so a chunk never leaves a run
  // of channels and stays aligned).
  template <int W, class TileRef>
  __device__ static void copy_windows(TileRef& tile, const WindowOperand<T>& w, std::int64_t n0, std::int64_t l0,
                                      std::int64_t n, std::int64_t k, int tid) {
    constexpr int per_row = KT / W, count = BN * KT / W;
    const int C = int(w.channels), span = int(w.window_w) * C, out_w = int(w.out_w), out_h = int(w.out_h);
    const int pixels_left = n - n0 < BN ? int(n - n0) : BN, depth_left = k - l0 < KT ? int(k - l0) : KT;
    auto chunk = [&](int e) {
      const int outer = e / per_row, inner = (e % per_row) * W;
      const T* src = w.input;
      int valid = 0;
      if (outer < pixels_left && inner < depth_left) {
        const int j = int(n0) + outer, l = int(l0) + inner;
        const int x = j % out_w, t = j / out_w, y = t % out_h, image = t / out_h;
        const int row = l / span, s = (l - row * span) / C, c = l - row * span - s * C;
        const int iy = y * int(w.stride_h) + row - int(w.pad_top), ix = x * int(w.stride_w) + s - int(w.pad_left);
        if (iy >= 0 && iy < int(w.height) && ix >= 0 && ix < int(w.width)) {
          src += ((std::int64_t(image) * w.height + iy) * w.width + ix) * w.pixel_stride + c;
          valid = W * int(sizeof(T));
        }
      }
      detail::copy_async<W * sizeof(T)>(&tile[outer][inner], src, valid);
    };
    if constexpr (W == V) {
      PORTKERN_UNROLL
      for (int q = 0; q < (count + items - 1) / items; ++q)
        if (count % items == 0 || tid + q * items < count) chunk(tid + q * items);
    } else {
#pragma unroll 1
      for (int e = tid; e < count; e += items) chunk(e);
    }
  }

  Storage& s_;
};

template <class L>
class SimtFragment {
 public:
  using T = typename L::value_type;
  using Tiles = StagedTiles<L>;
  static constexpr int TM = L::TM, TN = L::TN, IM = L::items_m, IN = L::items_n, KT = L::KT;

  template <class Group>
  __device__ SimtFragment(Group&, const BlockOutput<T>& out)
      : out_(out), x_(int(threadIdx.x) % IM), y_(int(threadIdx.x + threadIdx.y * blockDim.x) / IM) {
    PORTKERN_UNROLL
    for (int i = 0; i < TM; ++i)
      PORTKERN_UNROLL
      for (int j = 0; j < TN; ++j) acc_[i][j] = T(0);
  }

  // Row (or column) of the block owned by item coordinate `x` as its i-th: runs of 4 in an x-major tile
  // where the tile allows, every Items-th in a k-major one.
  template <int Tile, int Items, bool KMajor>
  __device__ static constexpr int owned(int x, int i) {
    if constexpr (Tile % 4 == 0 && !KMajor) return (i / 4) * 4 * Items + 4 * x + i % 4;
    else return x + i * Items;
  }

  template <class Group>
  __device__ void mma(Group&, const Tiles& tiles, int slot) {
    PORTKERN_UNROLL
    for (int l0 = 0; l0 < KT; l0 += 4) {
      // A k-major tile gives 4 k of a row per load: read them ahead; an x-major one is read k by k.
      T ka[Tiles::a_k_major ? 4 : 1][TM], kb[Tiles::b_k_major ? 4 : 1][TN];
      if constexpr (Tiles::a_k_major) load_k_major<TM, IM>(tiles.a(slot), x_, l0, ka);
      if constexpr (Tiles::b_k_major) load_k_major<TN, IN>(tiles.b(slot), y_, l0, kb);
      PORTKERN_UNROLL
      for (int u = 0; u < 4; ++u) {
        T ra[TM], rb[TN];
        if constexpr (Tiles::a_k_major) copy_values(ka[u], ra);
        else load_x_major<TM, IM>(tiles.a(slot)[l0 + u], x_, ra);
        if constexpr (Tiles::b_k_major) copy_values(kb[u], rb);
        else load_x_major<TN, IN>(tiles.b(slot)[l0 + u], y_, rb);
        PORTKERN_UNROLL
        for (int i = 0; i < TM; ++i)
          PORTKERN_UNROLL
          for (int j = 0; j < TN; ++j) acc_[i][j] += ra[i] * rb[j];
      }
    }
  }

  template <class Group>
  __device__ void store(Group&) const {
    PORTKERN_UNROLL
    for (int j = 0; j < TN; ++j) {
      const int col = owned<TN, IN, Tiles::b_k_major>(y_, j);
      if (col >= out_.cols) continue;
      PORTKERN_UNROLL
      for (int i = 0; i < TM; ++i) {
        const int row = owned<TM, IM, Tiles::a_k_major>(x_, i);
        if (row < out_.rows) store_value(out_, row, col, out_.alpha * acc_[i][j]);
      }
    }
  }

 private:
  // The item's Tile values of one k-row of an x-major tile: 16-byte runs of 4 where the tile allows.
  template <int Tile, int Items, class Row>
  __device__ static void load_x_major(const Row& row, int x, T (&r)[Tile]) {
    if constexpr (Tile % 4 == 0) {
      PORTKERN_UNROLL
      for (int q = 0; q < Tile / 4; ++q) {
        const auto v = vec<T, 4>::load(&row[owned<Tile, Items, false>(x, 4 * q)]);
        PORTKERN_UNROLL
        for (int u = 0; u < 4; ++u) r[4 * q + u] = v[u];
      }
    } else {
      PORTKERN_UNROLL
      for (int i = 0; i < Tile; ++i) r[i] = row[owned<Tile, Items, false>(x, i)];
    }
  }
  // The item's Tile values of k = l0 .. l0 + 3 of a k-major tile, r[u][i] = (l0 + u, owned row i): 16-byte
  // loads along k.
  template <int Tile, int Items, class TileRef>
  __device__ static void load_k_major(const TileRef& tile, int x, int l0, T (&r)[4][Tile]) {
    constexpr int W = 16 / sizeof(T);
    PORTKERN_UNROLL
    for (int i = 0; i < Tile; ++i)
      PORTKERN_UNROLL
      for (int h = 0; h < 4; h += W) {
        const auto v = vec<T, W>::load(&tile[owned<Tile, Items, true>(x, i)][l0 + h]);
        PORTKERN_UNROLL
        for (int u = 0; u < W; ++u) r[h + u][i] = v[u];
      }
  }
  template <int N>
  __device__ static void copy_values(const T (&from)[N], T (&to)[N]) {
    PORTKERN_UNROLL
    for (int i = 0; i < N; ++i) to[i] = from[i];
  }

  BlockOutput<T> out_;
  int x_, y_;
  T acc_[TM][TN];
};

// Warps along m for the tensor-core fragments: a divisor of the group's warps whose warp tiles fit the atom
// (16 rows, 8 columns) and are closest to square.
constexpr int atom_warps_m(int bm, int bn, int warps) {
  int best = 0, best_gap = 1 << 30;
  for (int wm = 1; wm <= warps; ++wm) {
    if (warps % wm || bm % (16 * wm) || bn % (8 * (warps / wm))) continue;
    const int gap = bm / wm > bn / (warps / wm) ? bm / wm - bn / (warps / wm) : bn / (warps / wm) - bm / wm;
    if (gap < best_gap) best = wm, best_gap = gap;
  }
  return best;
}

// The tensor-core fragment (float): 3xTF32 (three products per atom, each k-tile's sum added to the
// accumulators with round-to-nearest) or TF32 (operands rounded to TF32, one product per atom, accumulated in
// the atoms' own fp32 sums, as cuBLAS's TF32 mode does).
template <class L>
class AtomFragment {
 public:
  static constexpr bool split = L::arithmetic == Arithmetic::tf32x3;
  static constexpr int BM = L::BM, BN = L::BN, KT = L::KT, warps = L::items_m * L::items_n / 32;
  static constexpr int WARPS_M = atom_warps_m(BM, BN, warps), WARPS_N = WARPS_M ? warps / WARPS_M : 1;
  static_assert(L::items_m * L::items_n % 32 == 0, "tensor-core fragments: whole warps");
  static_assert(WARPS_M > 0, "tensor-core fragments: the block must split into warp tiles of 16 x 8 atoms");
  static_assert(KT % 8 == 0, "tensor-core fragments: k-tiles of a multiple of 8");
  static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N, MT = WM / 16, NT = WN / 8;

  template <class Group>
  __device__ AtomFragment(Group&, const BlockOutput<float>& out) : out_(out) {
    const int tid = int(threadIdx.x + threadIdx.y * blockDim.x), warp = tid >> 5, lane = tid & 31;
    wm0_ = (warp % WARPS_M) * WM, wn0_ = (warp / WARPS_M) * WN, g_ = lane >> 2, t_ = lane & 3;
    zero(acc_);
  }

  template <class Group>
  __device__ void mma(Group&, const StagedTiles<L>& tiles, int slot) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    __trap();   // mma.sync with TF32 needs sm_80; the build targets sm_90 (CMakeLists.txt)
#else
    if constexpr (split) {
      float part[MT][NT][4];
      zero(part);
      PORTKERN_UNROLL
      for (int ks = 0; ks < KT / 8; ++ks) {
        unsigned b_big[NT][2], b_small[NT][2];
        PORTKERN_UNROLL
        for (int j = 0; j < NT; ++j)
          PORTKERN_UNROLL
          for (int h = 0; h < 2; ++h) atoms::split_tf32(b_value(tiles, slot, ks, j, h), b_big[j][h], b_small[j][h]);
        PORTKERN_UNROLL
        for (int i = 0; i < MT; ++i) {
          unsigned a_big[4], a_small[4];
          PORTKERN_UNROLL
          for (int r = 0; r < 4; ++r) atoms::split_tf32(a_value(tiles, slot, ks, i, r), a_big[r], a_small[r]);
          PORTKERN_UNROLL
          for (int j = 0; j < NT; ++j) {   // the small terms first, then big * big
            atoms::mma_tf32(part[i][j], a_small, b_big[j][0], b_big[j][1]);
            atoms::mma_tf32(part[i][j], a_big, b_small[j][0], b_small[j][1]);
            atoms::mma_tf32(part[i][j], a_big, b_big[j][0], b_big[j][1]);
          }
        }
      }
      PORTKERN_UNROLL
      for (int i = 0; i < MT; ++i)
        PORTKERN_UNROLL
        for (int j = 0; j < NT; ++j)
          PORTKERN_UNROLL
          for (int r = 0; r < 4; ++r) acc_[i][j][r] += part[i][j][r];
    } else {
      PORTKERN_UNROLL
      for (int ks = 0; ks < KT / 8; ++ks) {
        unsigned b[NT][2];
        PORTKERN_UNROLL
        for (int j = 0; j < NT; ++j)
          PORTKERN_UNROLL
          for (int h = 0; h < 2; ++h) b[j][h] = atoms::to_tf32(b_value(tiles, slot, ks, j, h));
        PORTKERN_UNROLL
        for (int i = 0; i < MT; ++i) {
          unsigned a[4];
          PORTKERN_UNROLL
          for (int r = 0; r < 4; ++r) a[r] = atoms::to_tf32(a_value(tiles, slot, ks, i, r));
          PORTKERN_UNROLL
          for (int j = 0; j < NT; ++j) atoms::mma_tf32(acc_[i][j], a, b[j][0], b[j][1]);
        }
      }
    }
#endif
  }

  template <class Group>
  __device__ void store(Group&) const {
    PORTKERN_UNROLL
    for (int i = 0; i < MT; ++i)
      PORTKERN_UNROLL
      for (int j = 0; j < NT; ++j)
        PORTKERN_UNROLL
        for (int r = 0; r < 4; ++r) {   // (g, 2t), (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1)
          const int row = wm0_ + 16 * i + g_ + 8 * (r >> 1), col = wn0_ + 8 * j + 2 * t_ + (r & 1);
          if (row < out_.rows && col < out_.cols)
            store_value(out_, row, col, out_.alpha * acc_[i][j][r]);
        }
  }

 private:
  // The atom operands of k-step ks: A's r-th value of row tile i, (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4);
  // B's h-th of column tile j, (t, g), (t + 4, g).
  __device__ float a_value(const StagedTiles<L>& tiles, int slot, int ks, int i, int r) const {
    return tiles.a_at(slot, 8 * ks + t_ + 4 * (r >> 1), wm0_ + 16 * i + g_ + 8 * (r & 1));
  }
  __device__ float b_value(const StagedTiles<L>& tiles, int slot, int ks, int j, int h) const {
    return tiles.b_at(slot, 8 * ks + t_ + 4 * h, wn0_ + 8 * j + g_);
  }
  __device__ static void zero(float (&x)[MT][NT][4]) {
    PORTKERN_UNROLL
    for (int i = 0; i < MT; ++i)
      PORTKERN_UNROLL
      for (int j = 0; j < NT; ++j)
        PORTKERN_UNROLL
        for (int r = 0; r < 4; ++r) x[i][j][r] = 0.f;
  }

  BlockOutput<float> out_;
  int wm0_, wn0_, g_, t_;
  float acc_[MT][NT][4];
};

// The fragment of a block shape: tensor-core atoms where asked for (float), SIMT otherwise.
template <class L>
using Fragment = std::conditional_t<StagedTiles<L>::atoms, AtomFragment<L>, SimtFragment<L>>;

}  // namespace portkern::kernel::cuda
