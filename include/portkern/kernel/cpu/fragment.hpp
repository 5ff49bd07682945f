// The CPU lowering of the kernel model's matrix fragments and staged copies (portkern/kernel/fragment.hpp).
//
// A group runs on one thread. Its staged tiles are the packing of op(A) and op(B) blocks into the panels the
// ISA's micro-kernels read (pack.hpp); a copy only records which k-tile a slot holds, and the packing happens
// when the tile is first multiplied (so the packed panels are hot in the caches when the micro-kernels read
// them). A thread keeps the packed panels of a launch's operands while they fit (KeptPanels): its next groups
// (the next row blocks of the same columns, consecutive in the static schedule, then the next columns) reuse
// B's panels of a column block and A's panels of every row block, so each is packed once per thread as in
// BLIS's loop order, not once per group. Where few row panels use B (the problem has at most MR rows, or
// 16 MR with B not transposed) the micro-kernels read B where it is (cpu_packed's rule): packing would only
// copy it.
// Its fragment is the output block itself: the micro-kernels (microkernel.hpp) update MR x NR tiles of it in
// registers, B's NR-column micro-panel in L1 and A's panels in L2 (BLIS's loop order), the first k-tile with
// alpha and beta, the next ones adding alpha * A_tile * B_tile. A block of one row or one column is a
// matrix-vector product (gemv.hpp) on the operands where they are: nothing is packed. An accumulating
// output (split k) is computed into a per-thread block first and then added into C atomically. A window operand
// (an implicit GEMM's B, fragment.hpp) is never packed: the micro-kernels read its windows in place or from a
// small gathered panel (Fragment::product_by_window). The output's epilogue is applied by store().
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "portkern/error.hpp"
#include "portkern/kernel/atomic.hpp"
#include "portkern/kernel/cpu/gemv.hpp"
#include "portkern/kernel/cpu/microkernel.hpp"
#include "portkern/kernel/cpu/pack.hpp"
#include "portkern/kernel/cpu/pages.hpp"
#include "portkern/kernel/fragment.hpp"

namespace portkern::kernel::cpu {

// A per-thread scratch block of `count` T (one per Use), grown on demand and kept for the thread's life, on
// huge pages from 64 KiB (pages.hpp).
enum class ScratchUse { kept_a, kept_b, partial, vector, window };
template <class T, ScratchUse Use>
T* thread_scratch(std::int64_t count) {
  struct Block {
    void* p = nullptr;
    std::size_t bytes = 0;
    ~Block() { std::free(p); }
  };
  static thread_local Block block;
  const std::size_t bytes = (std::size_t(count) * sizeof(T) + 127) / 64 * 64;
  if (bytes > block.bytes) {
    std::free(block.p);
    block.p = allocate_pages(bytes, PageUse::scratch);
    block.bytes = block.p ? bytes : 0;
    if (!block.p) fail("portkern::kernel::cpu", "cannot allocate " + std::to_string(bytes) + " bytes of scratch");
  }
  return static_cast<T*>(block.p);
}

// The packed panels of one operand that a thread keeps within a launch: every k-tile of every block of it
// (blocks of BX rows of op(A), or of BX columns of op(B)) while they fit in max_bytes, else those of the block
// last used. A thread's groups of one launch reuse them: A's panels of a row block across the column blocks,
// B's panels of a column block across the row blocks; each is packed once per thread, as in BLIS's loops.
// One per thread, element type and operand (Use: its scratch buffer), whatever the kernel's block shape.
template <class T, ScratchUse Use>
class KeptPanels {
 public:
  static KeptPanels& of_this_thread() {
    static thread_local KeptPanels panels;
    return panels;
  }

  static constexpr std::int64_t max_bytes = std::int64_t(32) << 20;

  // What a set of panels is packed from: an operand of one launch (its contents may change between launches).
  struct Source {
    std::uint64_t launch;
    const T* data;
    std::int64_t ld;
    bool transposed;
    std::int64_t extent, k;               // op(A)'s m x k or op(B)'s n x k (B seen transposed)
    std::int64_t block, tile_elements;    // BX, and the elements of one k-tile's panels of a block
    const MicroKernels<T>* set;
    bool operator==(const Source&) const = default;
  };

  // The panels of k-tile `tile` of block `index` of `source`, packed into them by pack(dst) the first time.
  template <class Pack>
  const T* get(const Source& source, std::int64_t kt, std::int64_t index, std::int64_t tile, Pack&& pack) {
    const std::int64_t tiles = (source.k + kt - 1) / kt, blocks = (source.extent + source.block - 1) / source.block;
    const bool all = blocks * tiles * source.tile_elements * std::int64_t(sizeof(T)) <= max_bytes;
    const std::int64_t kept = all ? -1 : index;   // the block kept when not all fit
    if (!(source_ == source) || kept_block_ != kept || !tiles_) {
      source_ = source, kept_block_ = kept;
      packed_.assign(std::size_t((all ? blocks : 1) * tiles), false);
      tiles_ = thread_scratch<T, Use>((all ? blocks : 1) * tiles * source.tile_elements);
    }
    const std::int64_t slot = (all ? index : 0) * tiles + tile;
    T* panels = tiles_ + slot * source.tile_elements;
    if (!packed_[std::size_t(slot)]) {
      pack(panels);
      packed_[std::size_t(slot)] = true;
    }
    return panels;
  }

 private:
  Source source_{};
  std::int64_t kept_block_ = -1;
  std::vector<bool> packed_;
  T* tiles_ = nullptr;
};

template <class L>
class StagedTiles {
 public:
  using T = typename L::value_type;

  template <class Group>
  explicit StagedTiles(Group& g) : set_(active_microkernels<T>()), launch_(g.launch()) {}

  // Records that `slot` holds op(A)[m0 : m0+BM, l0 : l0+KT] and op(B)[l0 : l0+KT, n0 : n0+BN] (clipped to
  // m x k and k x n); packed when multiplied.
  template <class Group>
  void copy(Group&, int slot, const MatrixOperand<T>& a, const MatrixOperand<T>& b, std::int64_t m0,
            std::int64_t n0, std::int64_t l0, std::int64_t m, std::int64_t n, std::int64_t k) {
    if (l0 >= k) return;
    slots_[slot] = Request{a, b, m0, n0, l0, L::KT < k - l0 ? L::KT : k - l0,
                           L::BM < m - m0 ? L::BM : m - m0, L::BN < n - n0 ? L::BN : n - n0, k, m, n};
  }

  // The same with op(B) the patches of an image (an implicit GEMM): recorded likewise; the fragment reads the
  // windows in place or gathers them (Fragment::product_by_window).
  template <class Group>
  void copy(Group&, int slot, const MatrixOperand<T>& a, const WindowOperand<T>& b, std::int64_t m0,
            std::int64_t n0, std::int64_t l0, std::int64_t m, std::int64_t n, std::int64_t k) {
    if (l0 >= k) return;
    slots_[slot] = Request{a, {}, m0, n0, l0, L::KT < k - l0 ? L::KT : k - l0,
                           L::BM < m - m0 ? L::BM : m - m0, L::BN < n - n0 ? L::BN : n - n0, k, m, n, b, true};
  }

  template <class Group>
  void wait(Group&) const {}

  // The micro-kernels' panels of `slot`'s tiles (kept by the thread: KeptPanels); `rows`, `cols` and `depth`
  // of the block.
  struct Packed {
    const T* a;
    const T* b;              // B's panels, or B itself (b_columns / b_step as the micro-kernels take them)
    bool b_columns;
    std::int64_t b_step;     // packed: the panel's width; in place: ldb
    std::int64_t rows, cols, depth;
    bool b_in_place;
  };
  // A's panels of `slot` (MR rows each; panel i / MR at i * depth holds (i, p) at [p * width + i]).
  const T* packed_a(int slot) {
    const Request& r = slots_[slot];
    const Operands<T> op{r.a.transposed, false, r.a.data, r.a.ld, nullptr, 0, T(1)};
    using KeptA = KeptPanels<T, ScratchUse::kept_a>;
    const typename KeptA::Source a_source{launch_, r.a.data, r.a.ld, r.a.transposed, r.m, r.k,
                                          L::BM, round_up_to(L::BM, set_.blocking.mr()) * L::KT, &set_};
    return KeptA::of_this_thread().get(a_source, L::KT, r.m0 / L::BM, r.l0 / L::KT, [&](T* panels) {
      pack_a(set_, op, r.m0, r.rows, r.l0, r.depth, panels);
    });
  }

  Packed packed(int slot) {
    const Request& r = slots_[slot];
    const Operands<T> op{r.a.transposed, r.b.transposed, r.a.data, r.a.ld, r.b.data, r.b.ld, T(1)};
    const std::int64_t mr = set_.blocking.mr(), nr = set_.blocking.nr, tile = r.l0 / L::KT;
    using KeptB = KeptPanels<T, ScratchUse::kept_b>;
    const T* a = packed_a(slot);
    if ((!r.b.transposed && r.m <= 16 * mr) || r.m <= mr) {
      const T* b = r.b.transposed ? r.b.data + r.l0 * r.b.ld + r.n0 : r.b.data + r.n0 * r.b.ld + r.l0;
      return {a, b, !r.b.transposed, r.b.ld, r.rows, r.cols, r.depth, true};
    }
    const typename KeptB::Source b_source{launch_, r.b.data, r.b.ld, r.b.transposed, r.n, r.k,
                                          L::BN, round_up_to(L::BN, nr) * L::KT, &set_};
    const T* b = KeptB::of_this_thread().get(b_source, L::KT, r.n0 / L::BN, tile, [&](T* panels) {
      pack_b(set_, op, r.l0, r.depth, r.n0, r.cols, panels);
    });
    return {a, b, false, 0, r.rows, r.cols, r.depth, false};
  }

  const MicroKernels<T>& set() const { return set_; }

  // What `slot` holds: op(A)[m0 : m0+rows, l0 : l0+depth] and op(B)[l0 : l0+depth, n0 : n0+cols], op(B)
  // the patches of `window` where `windowed`.
  struct Request {
    MatrixOperand<T> a, b;
    std::int64_t m0, n0, l0, depth, rows, cols, k, m, n;
    WindowOperand<T> window{};
    bool windowed = false;
  };
  const Request& request(int slot) const { return slots_[slot]; }

 private:
  const MicroKernels<T>& set_;
  std::uint64_t launch_;
  Request slots_[L::Stages] = {};
};

template <class L>
class Fragment {
 public:
  using T = typename L::value_type;

  // The micro-kernels write the block of C itself, or with an accumulating output a per-thread block.
  template <class Group>
  Fragment(Group&, const BlockOutput<T>& out)
      : out_(out),
        target_(out.accumulate ? thread_scratch<T, ScratchUse::partial>(out.rows * out.cols) : out.c),
        ld_(out.accumulate ? out.rows : out.ldc) {}

  // target += alpha * A_tile * B_tile, the first tile applying beta (0 for an accumulating output).
  template <class Group>
  void mma(Group&, StagedTiles<L>& tiles, int slot) {
    const T beta = !first_ ? T(1) : out_.accumulate ? T(0) : out_.beta;
    const auto& r = tiles.request(slot);
    if (r.windowed)
      product_by_window(tiles, slot, beta);
    else if (r.rows == 1 || r.cols == 1)
      product_with_vector(tiles.set(), r, beta);
    else
      product_by_microkernels(tiles, slot, beta);
    first_ = false;
  }

  // An accumulating output adds its block into C; otherwise only a block no tile was multiplied into
  // (k == 0) is left to write: out = beta * out. Then the epilogue, on the block just written (in the caches).
  template <class Group>
  void store(Group&) {
    if (out_.accumulate) {
      if (first_) return;
      for (std::int64_t j = 0; j < out_.cols; ++j)
        for (std::int64_t i = 0; i < out_.rows; ++i) atomic_add(&out_.c[j * out_.ldc + i], target_[j * ld_ + i]);
      return;
    }
    if (first_)
      for (std::int64_t j = 0; j < out_.cols; ++j)
        for (std::int64_t i = 0; i < out_.rows; ++i) {
          T& c = out_.c[j * out_.ldc + i];
          c = out_.beta == T(0) ? T(0) : out_.beta * c;
        }
    if (out_.has_epilogue())
      for (std::int64_t j = 0; j < out_.cols; ++j) {
        T* c = out_.c + j * out_.ldc;
        for (std::int64_t i = 0; i < out_.rows; ++i) c[i] = out_.finished(c[i], i, j);
      }
  }

 private:
  void product_by_microkernels(StagedTiles<L>& tiles, int slot, T beta) {
    const auto p = tiles.packed(slot);
    const MicroKernels<T>& set = tiles.set();
    const std::int64_t nr = set.blocking.nr;
    for (std::int64_t jr = 0; jr < p.cols; jr += nr) {
      const std::int64_t cols = nr < p.cols - jr ? nr : p.cols - jr;
      // Packed: panel jr / nr at jr * depth, rows of `cols`; in place: column or row jr of B.
      const T* b = !p.b_in_place ? p.b + jr * p.depth : p.b_columns ? p.b + jr * p.b_step : p.b + jr;
      const std::int64_t b_step = p.b_in_place ? p.b_step : cols;
      multiply_panels(set, {p.a, p.rows, p.depth}, 0, p.depth, b, p.b_columns, b_step, jr, cols, beta);
    }
  }

  // Window rows of at least this many elements are read in place; shorter ones (3-channel first layers)
  // would cut the product into calls too shallow to pay, and are gathered, as are the window rows of a group of
  // channels (not contiguous: pixel_stride > channels).
  static constexpr std::int64_t min_in_place_run = 64;

  // An implicit GEMM's product, tile by tile of at most NR pixels of one output row. Where the tile's windows
  // are inside the image's width (and its window rows are long enough to pay), the micro-kernels read them in
  // place: NR column streams stride_w * C apart, one call per window row the depth crosses, none for a window
  // row above or below the image. The pixels whose windows meet the left or right padding (a tile of their
  // own), and every tile where window rows are short (3-channel first layers), are gathered into the thread's
  // panel first (column-major, zeros for padding).
  void product_by_window(StagedTiles<L>& tiles, int slot, T beta) {
    const auto& r = tiles.request(slot);
    const WindowOperand<T>& w = r.window;
    const MicroKernels<T>& set = tiles.set();
    const T* a = tiles.packed_a(slot);
    const std::int64_t nr = set.blocking.nr, span = w.window_w * w.channels, end = r.l0 + r.depth;
    const bool rows_in_place = span >= min_in_place_run && w.pixel_stride == w.channels;
    // The output columns whose windows lie inside the image's width: [x_lo, x_hi).
    const std::int64_t x_lo = (w.pad_left + w.stride_w - 1) / w.stride_w;
    std::int64_t x_hi = w.width + w.pad_left < w.window_w ? 0 : (w.width + w.pad_left - w.window_w) / w.stride_w + 1;
    if (x_hi > w.out_w) x_hi = w.out_w;
    T* panel = thread_scratch<T, ScratchUse::window>(L::KT * nr);
    for (std::int64_t jr = 0, cols = 0; jr < r.cols; jr += cols) {
      const std::int64_t j0 = r.n0 + jr, x0 = j0 % w.out_w, t = j0 / w.out_w, y = t % w.out_h, n = t / w.out_h;
      cols = nr < r.cols - jr ? nr : r.cols - jr;
      const bool in_place = rows_in_place && x0 >= x_lo && x0 + cols <= x_hi;
      if (!in_place) {
        gather_windows(w, r.l0, r.depth, j0, cols, panel);
        multiply_panels(set, {a, r.rows, r.depth}, 0, r.depth, panel, true, r.depth, jr, cols, beta);
        continue;
      }
      const std::int64_t ix0 = x0 * w.stride_w - w.pad_left;
      bool first = true;
      for (std::int64_t l = r.l0; l < end;) {
        const std::int64_t row = l / span, offset = l - row * span, iy = y * w.stride_h + row - w.pad_top;
        const std::int64_t length = end - l < span - offset ? end - l : span - offset;
        if (iy >= 0 && iy < w.height) {
          const T* b = w.input + ((n * w.height + iy) * w.width + ix0) * w.pixel_stride + offset;
          multiply_panels(set, {a, r.rows, r.depth}, l - r.l0, length, b, true, w.stride_w * w.pixel_stride, jr, cols,
                          first ? beta : T(1));
          first = false;
        }
        l += length;
      }
      if (first) scale_columns(r.rows, jr, cols, beta);   // every window row of this depth is padding
    }
  }

  // target[0 : rows, jr : jr + cols] *= beta (zeros for beta == 0: the target is not read).
  void scale_columns(std::int64_t rows, std::int64_t jr, std::int64_t cols, T beta) {
    if (beta == T(1)) return;
    for (std::int64_t j = jr; j < jr + cols; ++j)
      for (std::int64_t i = 0; i < rows; ++i) target_[j * ld_ + i] = beta == T(0) ? T(0) : beta * target_[j * ld_ + i];
  }

  // A's packed panels of a tile: `rows` rows in panels of MR, panel i / MR at a + i * depth holding (i, p) at
  // [p * width + i] (StagedTiles::packed_a).
  struct APanels {
    const T* a;
    std::int64_t rows, depth;
  };

  // target[:, jr : jr + cols] (+)= alpha * A[:, p0 : p0 + length] * B, B's micro-panel as the kernels take it:
  // one micro-kernel call per panel of A.
  void multiply_panels(const MicroKernels<T>& set, const APanels& a, std::int64_t p0, std::int64_t length, const T* b,
                       bool b_columns, std::int64_t b_step, std::int64_t jr, std::int64_t cols, T beta) {
    const std::int64_t mr = set.blocking.mr(), lanes = set.blocking.lanes;
    for (std::int64_t ir = 0; ir < a.rows; ir += mr) {
      const std::int64_t rows = mr < a.rows - ir ? mr : a.rows - ir;
      const std::int64_t width = round_up_to(rows, lanes), vectors = width / lanes;
      set.kernel(b_columns, int(vectors), int(cols))(length, a.a + ir * a.depth + p0 * width, width, b, b_step,
                                                     target_ + jr * ld_ + ir, ld_, out_.alpha, beta,
                                                     int(rows - (vectors - 1) * lanes), a.a, 0);
    }
  }

  // panel[j * depth + p] = B(l0 + p, j0 + j) for p < depth, j < cols (column-major, as im2col lays patches
  // out): contiguous runs of channels, zeros outside the image.
  static void gather_windows(const WindowOperand<T>& w, std::int64_t l0, std::int64_t depth, std::int64_t j0,
                             std::int64_t cols, T* panel) {
    const std::int64_t span = w.window_w * w.channels;
    for (std::int64_t j = 0; j < cols; ++j) {
      const std::int64_t x = (j0 + j) % w.out_w, t = (j0 + j) / w.out_w, y = t % w.out_h, n = t / w.out_h;
      T* out = panel + j * depth - l0;
      for (std::int64_t l = l0; l < l0 + depth;) {
        const std::int64_t row = l / span, s = (l - row * span) / w.channels, c = l - row * span - s * w.channels;
        const std::int64_t length = l0 + depth - l < w.channels - c ? l0 + depth - l : w.channels - c;
        const std::int64_t iy = y * w.stride_h + row - w.pad_top, ix = x * w.stride_w + s - w.pad_left;
        if (iy >= 0 && iy < w.height && ix >= 0 && ix < w.width) {
          const T* src = w.input + ((n * w.height + iy) * w.width + ix) * w.pixel_stride + c;
          for (std::int64_t q = 0; q < length; ++q) out[l + q] = src[q];
        } else {
          for (std::int64_t q = 0; q < length; ++q) out[l + q] = T(0);
        }
        l += length;
      }
    }
  }

  // One column of output (y = target's column: alpha * op(A) x + beta * y) or one row (y^T = alpha * x^T op(B)
  // + beta * y^T), with x the tile's column of op(B) or row of op(A), read in place (gathered where strided).
  template <class Request>
  void product_with_vector(const MicroKernels<T>& set, const Request& r, T beta) {
    const MatrixOperand<T>&a = r.a, &b = r.b;
    const T alpha = out_.alpha;
    if (r.cols == 1) {
      const T* x = b.transposed ? gathered(b.data + r.l0 * b.ld + r.n0, b.ld, r.depth)
                                : b.data + r.n0 * b.ld + r.l0;
      if (!a.transposed)
        gemv_axpy(set, r.rows, r.depth, a.data + r.m0 + r.l0 * a.ld, a.ld, x, alpha, beta, target_);
      else
        gemv_dot(set, r.rows, r.depth, a.data + r.l0 + r.m0 * a.ld, a.ld, x, alpha, beta, target_, std::int64_t(1));
      return;
    }
    const T* x = a.transposed ? a.data + r.m0 * a.ld + r.l0 : gathered(a.data + r.m0 + r.l0 * a.ld, a.ld, r.depth);
    if (!b.transposed) {
      gemv_dot(set, r.cols, r.depth, b.data + r.n0 * b.ld + r.l0, b.ld, x, alpha, beta, target_, ld_);
    } else if (ld_ == 1) {
      gemv_axpy(set, r.cols, r.depth, b.data + r.l0 * b.ld + r.n0, b.ld, x, alpha, beta, target_);
    } else {   // a row of C is strided: the product into a contiguous row first
      T* row = vector_scratch() + L::KT;
      gemv_axpy(set, r.cols, r.depth, b.data + r.l0 * b.ld + r.n0, b.ld, x, alpha, T(0), row);
      for (std::int64_t j = 0; j < r.cols; ++j) {
        T& y = target_[j * ld_];
        y = beta == T(0) ? row[j] : row[j] + beta * y;
      }
    }
  }

  // The thread's vector scratch: a gathered x (at most KT) followed by a row of output (at most BN); one size,
  // so that taking the row never moves the x taken before.
  static T* vector_scratch() { return thread_scratch<T, ScratchUse::vector>(L::KT + L::BN); }
  // x[0 : count] = from[i * stride] (count <= KT), in the thread's vector scratch.
  static const T* gathered(const T* from, std::int64_t stride, std::int64_t count) {
    if (stride == 1) return from;
    T* x = vector_scratch();
    for (std::int64_t i = 0; i < count; ++i) x[i] = from[i * stride];
    return x;
  }

  BlockOutput<T> out_;
  T* target_;
  std::int64_t ld_;
  bool first_ = true;
};

}  // namespace portkern::kernel::cpu
