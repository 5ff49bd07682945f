// The CPU's lowering of diagonal_fragment (portkern/kernel/diagonal_fragment.hpp): Rows x Columns sums in
// SIMD registers of the widest width the build targets, written with GCC's vector extensions so that one
// source serves AVX-512, AVX2, SSE and any other ISA GCC vectorises for (a build for x86-64-v4 gets zmm
// registers; with -march=x86-64 the same code runs on 16-byte vectors).
//
// Every access is a whole vector: where `columns` is not a multiple of the lanes, the last vector is shifted
// back to end at `columns`, overlapping the one before (its overlapping sums are the same values, summed in
// the same order). Masked or element-wise loads for the last vector, and a branch between whole and partial
// vectors, each made GCC 12 keep the sums in memory, a load and a store around every FMA. Fewer columns than
// one vector's lanes take a plain loop over sums in memory.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>

#include "portkern/kernel/model.hpp"

namespace portkern::kernel::cpu {

// The bytes of the widest vector the build's target flags give (a macro too, for the files that instantiate
// kernels only where their blocks fit a vector).
#if defined(__AVX512F__)
#define PORTKERN_CPU_VECTOR_BYTES 64
#elif defined(__AVX__)
#define PORTKERN_CPU_VECTOR_BYTES 32
#else
#define PORTKERN_CPU_VECTOR_BYTES 16
#endif
inline constexpr int widest_vector_bytes = PORTKERN_CPU_VECTOR_BYTES;

template <class T, int Rows, int Columns>
class DiagonalFragment {
  static_assert(Rows >= 1 && Columns >= 1, "a diagonal fragment needs a one-dimensional group and at least one row");
  static constexpr int lanes = widest_vector_bytes / int(sizeof(T)) > 0 ? widest_vector_bytes / int(sizeof(T)) : 1;
  static constexpr int vectors = (Columns + lanes - 1) / lanes;
  using Vector [[gnu::vector_size(lanes * sizeof(T))]] = T;

  std::int64_t columns_;
  Vector sums_[Rows][vectors];
  T narrow_[Rows][lanes];   // the sums where columns_ < lanes

  // The vector whose lane l holds x's lane G * (l / G) + J: each group of G lanes reads its own group's lane J
  // (GCC 12 and Clang both take __builtin_shufflevector; an in-lane permute where G <= 4, a cross-lane one for 8).
  template <int G, int J, std::size_t... L>
  PORTKERN_INLINE static Vector pick(Vector x, std::index_sequence<L...>) {
    return __builtin_shufflevector(x, x, int(G * (int(L) / G) + J)...);
  }
  // Every lane s (a broadcast: `Vector{} + s` kept an add, since 0 + s is not s for s = -0).
  template <std::size_t... L>
  PORTKERN_INLINE static Vector broadcast(T s, std::index_sequence<L...>) {
    return Vector{(void(L), s)...};
  }
  PORTKERN_INLINE static Vector broadcast(T s) { return broadcast(s, std::make_index_sequence<lanes>{}); }

  template <int G, int J>
  PORTKERN_INLINE static Vector pick(Vector x) {
    if constexpr (G == 1) return x;
    else return pick<G, J>(x, std::make_index_sequence<lanes>{});
  }

  // sums[v] += sum over j < G of pick<G, j>(x) * w's vector v of filter row j (rows w_row apart).
  template <int G, int... J>
  PORTKERN_INLINE static void add_block(Vector& sums, Vector x, const T* w, std::int64_t w_row,
                                        std::integer_sequence<int, J...>) {
    ((sums += pick<G, J>(x) * load(w + J * w_row)), ...);
  }

  // fma_block's sums for any columns_ (fma's too, G = 1, where the vectors are not all whole): narrow columns in
  // memory, else whole vectors, the last one shifted back. The pointers move between products only: one step
  // past the last may overflow (a dilation of 2^62; fuzz_conv_desc).
  template <int G>
  PORTKERN_INLINE void fma_blocks(const T* x, std::int64_t row_step, const T* w, std::int64_t w_row,
                                  std::int64_t batch, std::int64_t x_step, std::int64_t w_step) {
    if (columns_ < lanes) {
      for (std::int64_t t = 0; t < batch; ++t) {
        if (t > 0) x += x_step, w += w_step;
        for (int r = 0; r < Rows; ++r)
          for (std::int64_t c = 0; c < columns_; ++c)
            for (int j = 0; j < G; ++j) narrow_[r][c] += x[r * row_step + G * (c / G) + j] * w[j * w_row + c];
      }
      return;
    }
    if constexpr (G >= lanes) {   // a vector lies in one group: its inputs are G broadcasts (loads, no permutes)
      if (Columns % lanes == 0 && columns_ == Columns) return broadcast_vectors<G>(x, row_step, w, w_row, batch, x_step,
                                                                                   w_step);
      for (std::int64_t t = 0; t < batch; ++t) {
        if (t > 0) x += x_step, w += w_step;
        PORTKERN_UNROLL
        for (int j = 0; j < G; ++j) {
          PORTKERN_UNROLL
          for (int v = 0; v < vectors; ++v) {
            if (std::int64_t(v) * lanes >= columns_) break;
            const std::int64_t at = start(v), group = at / G * G;
            const Vector weight = load(w + j * w_row + at);
            PORTKERN_UNROLL
            for (int r = 0; r < Rows; ++r) sums_[r][v] += broadcast(x[r * row_step + group + j]) * weight;
          }
        }
      }
    } else {   // lane permutes, compiled only where G divides the lanes (a permute's indices lie in one vector)
      for (std::int64_t t = 0; t < batch; ++t) {   // a shifted start is a multiple of G (columns_ and lanes are)
        if (t > 0) x += x_step, w += w_step;
        PORTKERN_UNROLL
        for (int v = 0; v < vectors; ++v) {
          if (std::int64_t(v) * lanes >= columns_) break;
          const std::int64_t at = start(v);
          PORTKERN_UNROLL
          for (int r = 0; r < Rows; ++r)
            add_block<G>(sums_[r][v], load(x + r * row_step + at), w + at, w_row, std::make_integer_sequence<int, G>{});
        }
      }
    }
  }

  // fma_blocks<G> where a vector lies in one group (G >= lanes) and every vector is whole: a pointer per row, the
  // broadcast inputs and the weights at constant offsets from it and from w's row j. Through fma_blocks' general
  // loop GCC kept an offset per row, vector and j on the stack, a load beside every FMA, and a branch per vector
  // (ResNeXt-50's layer3, 32 groups of 16 channels at 14 x 14, ran 0.54 of oneDNN on one Zen 5 core).
  template <int G>
  PORTKERN_INLINE void broadcast_vectors(const T* x, std::int64_t row_step, const T* w, std::int64_t w_row,
                                         std::int64_t batch, std::int64_t x_step, std::int64_t w_step) {
    const T* row[Rows];
    PORTKERN_UNROLL
    for (int r = 0; r < Rows; ++r) row[r] = x + r * row_step;
    for (std::int64_t t = 0; t < batch; ++t) {
      if (t > 0) {
        w += w_step;
        PORTKERN_UNROLL
        for (int r = 0; r < Rows; ++r) row[r] += x_step;
      }
      // The group's channels in pairs: unrolled whole (16 or 32 times), GCC kept the weights' offsets for every j
      // on the stack, and the weights too (ResNeXt-50's layer4 on one Zen 5 core: 105 GFLOP/s; not unrolled 117,
      // by 2 139, by 4 or 8 131-134).
#pragma GCC unroll 2
      for (int j = 0; j < G; ++j) {
        Vector weight[vectors];
        PORTKERN_UNROLL
        for (int v = 0; v < vectors; ++v) weight[v] = load(w + j * w_row + v * lanes);
        PORTKERN_UNROLL
        for (int r = 0; r < Rows; ++r)
          PORTKERN_UNROLL
          for (int v = 0; v < vectors; ++v) sums_[r][v] += broadcast(row[r][v * lanes / G * G + j]) * weight[v];
      }
    }
  }

  // Where vector v starts: v * lanes, or shifted back to end at columns_ (whole blocks said first, so that their
  // offsets fold to constants).
  PORTKERN_INLINE std::int64_t start(int v) const {
    if (Columns % lanes == 0 && columns_ == Columns) return std::int64_t(v) * lanes;
    return std::int64_t(v + 1) * lanes <= columns_ ? std::int64_t(v) * lanes : columns_ - lanes;
  }
  PORTKERN_INLINE static Vector load(const T* p) {
    Vector v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }

 public:
  // Whether a kernel should call fma_window rather than fma where both apply: not here. On one Zen 5 core, 27
  // depthwise layers ran at 0.975x (geomean, 0.72-1.14x) with the window's inputs loaded once (its pointers were
  // spilled to the stack; these layers run at a third of the FMA peak for reasons outside the products), and at
  // 0.74x / 0.97x with fma's loop over the constant batch unrolled / kept.
  static constexpr bool prefers_windows = false;

  // Zeroed sums of `columns` columns (at most the group's items).
  template <class Group>
  PORTKERN_INLINE DiagonalFragment(const Group&, std::int64_t columns)
      : columns_(columns >= Columns ? Columns : columns <= 0 ? 0 : columns) {
    PORTKERN_UNROLL   // always (a register's zero costs nothing; GCC could not tell the narrow case leaves them)
    for (int r = 0; r < Rows; ++r)
      PORTKERN_UNROLL
      for (int v = 0; v < vectors; ++v) sums_[r][v] = Vector{};
    if (columns_ < lanes)
      for (int r = 0; r < Rows; ++r)
        for (int c = 0; c < lanes; ++c) narrow_[r][c] = T(0);
  }

  // sums(r, c) += sum over t < batch of x[t * x_step + r * row_step + c] * w[t * w_step + c]: fma_batches with
  // one batch.
  template <class Group>
  PORTKERN_INLINE void fma(const Group& g, const T* x, std::int64_t row_step, const T* w, std::int64_t batch,
                           std::int64_t x_step, std::int64_t w_step) {
    fma_batches(g, x, row_step, w, 1, 0, 0, batch, x_step, w_step);
  }

  // sums(r, c) += sum over u < batches, t < batch of x[u * x_batch + t * x_step + r * row_step + c]
  //                                                 * w[u * w_batch + t * w_step + c].
  // The loops over both are here, so that the addresses are a few pointers and offsets in registers: a call per
  // product kept a pointer per row and vector, more than the general registers, reloaded from the stack before
  // every FMA; a call per batch (a depthwise window row) kept the kernel's row pointers on the stack, 0.91x as
  // fast on one Zen 5 core (docs/performance.md, fourteenth session).
  // Where columns_ is at least a vector, the columns are the first `used` vectors, the last one at `last` (shifted
  // back to end at columns_ where they are not whole), each sum a register: fma_vectors<used>. Every block of a
  // depthwise layer takes it, also a narrower last block and blocks whose width is no multiple of the lanes
  // (200 channels in blocks of 56: 3.5 vectors); before, those took fma_blocks, its offsets worked out per vector
  // and product (MobileNetV3's 56 x 56 x 72 layer: 0.65 of oneDNN, against 0.84 for 56 x 56 x 144 in blocks of 48).
  template <class Group>
  PORTKERN_INLINE void fma_batches(const Group&, const T* x, std::int64_t row_step, const T* w, std::int64_t batches,
                                   std::int64_t x_batch, std::int64_t w_batch, std::int64_t batch, std::int64_t x_step,
                                   std::int64_t w_step) {
    if (Columns % lanes == 0 && columns_ == Columns)   // every vector whole: constant offsets only
      return fma_vectors<vectors>(x, row_step, w, batches, x_batch, w_batch, batch, x_step, w_step, Columns - lanes);
    if (columns_ < lanes) {
      for (std::int64_t u = 0; u < batches; ++u)
        fma_blocks<1>(x + u * x_batch, row_step, w + u * w_batch, 0, batch, x_step, w_step);
      return;
    }
    fma_used<1>(int((columns_ + lanes - 1) / lanes), x, row_step, w, batches, x_batch, w_batch, batch, x_step, w_step);
  }

  // fma_vectors<used> for a run-time `used` in [V, vectors] (a chain of always-inlined calls: a lambda over a pack
  // kept the sums in memory, 0.83x).
  template <int V>
  PORTKERN_INLINE void fma_used(int used, const T* x, std::int64_t row_step, const T* w, std::int64_t batches,
                                std::int64_t x_batch, std::int64_t w_batch, std::int64_t batch, std::int64_t x_step,
                                std::int64_t w_step) {
    if constexpr (V < vectors)
      if (used != V)
        return fma_used<V + 1>(used, x, row_step, w, batches, x_batch, w_batch, batch, x_step, w_step);
    fma_vectors<V>(x, row_step, w, batches, x_batch, w_batch, batch, x_step, w_step, columns_ - lanes);
  }

  // fma_batches over the first Used vectors, the last one at column `last` (the others at v * lanes).
  template <int Used>
  PORTKERN_INLINE void fma_vectors(const T* x, std::int64_t row_step, const T* w, std::int64_t batches,
                                   std::int64_t x_batch, std::int64_t w_batch, std::int64_t batch, std::int64_t x_step,
                                   std::int64_t w_step, std::int64_t last) {
    const auto at = [&](int v) { return v + 1 < Used ? std::int64_t(v) * lanes : last; };
    for (std::int64_t u = 0; u < batches; ++u) {
      const T* xu = x + u * x_batch;   // batches that exist only: no step past the last
      const T* wu = w + u * w_batch;
      const T* row[Rows];   // a pointer per row, its vectors at (mostly constant) offsets from it
      PORTKERN_UNROLL
      for (int r = 0; r < Rows; ++r) row[r] = xu + r * row_step;
      for (std::int64_t t = 0; t < batch; ++t) {
        if (t > 0) {
          wu += w_step;
          PORTKERN_UNROLL
          for (int r = 0; r < Rows; ++r) row[r] += x_step;
        }
        Vector weight[Used];
        PORTKERN_UNROLL
        for (int v = 0; v < Used; ++v) weight[v] = load(wu + at(v));
        PORTKERN_UNROLL
        for (int r = 0; r < Rows; ++r)
          PORTKERN_UNROLL
          for (int v = 0; v < Used; ++v) sums_[r][v] += load(row[r] + at(v)) * weight[v];
      }
    }
  }

  // The sliding-window product (portkern/kernel/diagonal_fragment.hpp): sums(r, c) += sum over t < Taps of
  // x[(Ratio * r + t) * step + c] * w[t * w_step + c]. Each vector of columns in turn: its Taps weights loaded
  // once, each of the Ratio * (Rows - 1) + Taps input vectors loaded once and multiplied into the sums of every
  // (row, tap) that reads it (fma's loads of the same rows: Rows * Taps inputs).
  template <int Taps, int Ratio, class Group>
  PORTKERN_INLINE void fma_window(const Group&, const T* x, std::int64_t step, const T* w, std::int64_t w_step) {
    static_assert(Taps >= 1 && Ratio >= 1, "a window has taps, and its rows are at least one tap apart");
    constexpr int inputs = Ratio * (Rows - 1) + Taps;
    if (columns_ < lanes) {
      for (int r = 0; r < Rows; ++r)
        for (int t = 0; t < Taps; ++t)
          for (std::int64_t c = 0; c < columns_; ++c)
            narrow_[r][c] += x[(Ratio * r + t) * step + c] * w[t * w_step + c];
      return;
    }
    PORTKERN_UNROLL
    for (int v = 0; v < vectors; ++v) {
      if (std::int64_t(v) * lanes >= columns_) break;
      const std::int64_t at = start(v);
      Vector weight[Taps];
      PORTKERN_UNROLL
      for (int t = 0; t < Taps; ++t) weight[t] = load(w + t * w_step + at);
      PORTKERN_UNROLL
      for (int i = 0; i < inputs; ++i) {
        const Vector input = load(x + i * step + at);
        PORTKERN_UNROLL
        for (int r = 0; r < Rows; ++r)
          if (i - Ratio * r >= 0 && i - Ratio * r < Taps) sums_[r][v] += input * weight[i - Ratio * r];
      }
    }
  }

  // The block-diagonal product of a grouped convolution whose groups have G input and G output channels:
  // sums(r, c) += sum over t < batch, j < G of x[t * x_step + r * row_step + G * (c / G) + j]
  //                                          * w[t * w_step + j * w_row + c].
  // Column c's inputs are its group's G lanes of the same vector of x, spread by lane permutes (G divides the
  // lanes; G = 1 is fma), or, where a vector lies within one group (the lanes divide G), G broadcast loads. A
  // sum's G products per tap are kept in one register each.
  template <int G, class Group>
  PORTKERN_INLINE void fma_block(const Group& g, const T* x, std::int64_t row_step, const T* w, std::int64_t w_row,
                                 std::int64_t batch, std::int64_t x_step, std::int64_t w_step) {
    static_assert(G >= 1 && (lanes % G == 0 || G % lanes == 0), "a group is within a vector, or whole vectors");
    if constexpr (G == 1) return fma(g, x, row_step, w, batch, x_step, w_step);
    else fma_blocks<G>(x, row_step, w, w_row, batch, x_step, w_step);
  }

  // f(item c, r, sums(r, c)) for every column c and row r: a vector loop over c for each r.
  template <class Group, class F>
  PORTKERN_INLINE void for_each(const Group&, F&& f) const {
    alignas(64) T values[Rows][vectors * lanes];
    const int count = int(columns_);
    if (count < lanes) {
      for (int r = 0; r < Rows; ++r)
        for (int c = 0; c < count; ++c) values[r][c] = narrow_[r][c];
    } else {
      PORTKERN_UNROLL   // vector by vector, in order (a shifted last vector rewrites equal values)
      for (int v = 0; v < vectors; ++v) {
        if (v * lanes >= count) break;
        PORTKERN_UNROLL
        for (int r = 0; r < Rows; ++r) std::memcpy(&values[r][start(v)], &sums_[r][v], sizeof(Vector));
      }
    }
    if (count == Columns) {   // a loop of constant length: whole vectors, no remainder
      for (int r = 0; r < Rows; ++r) {
#pragma omp simd
        for (int c = 0; c < Columns; ++c) f(Item{c, 0, 0, c}, r, values[r][c]);
      }
      return;
    }
    for (int r = 0; r < Rows; ++r) {
#pragma omp simd
      for (int c = 0; c < count; ++c) f(Item{c, 0, 0, c}, r, values[r][c]);
    }
  }
};

}  // namespace portkern::kernel::cpu
