// The portable maxpool3d kernel. A group of X x Y items covers Y consecutive output rows (across images: the
// image and row of the first are found once per group, the others by stepping) and one step of X * K * V
// columns (or, WholeRows, the whole rows step by step); item (x, y) takes row y and, in each step, the
// outputs at (x + k X) V, k < K, so a row of X items reads contiguous input.
// V = 4 (window = stride = 2): an item makes 4 outputs from two 32-byte runs of each of its two input rows
// (four 16-byte loads, all issued before any store) and writes one 16-byte vector.
// V = 1: each output is the max of its window in scan order; Window and Stride fixed at compile time
// (unrolled, Window > 0) or taken from the plan (0).
//
// Each step is one of two uniform cases: a full step (no checks), or, at the end of a row, a checked one
// whose items past the row read the row's last window instead (a read in the row: GCC vectorises it as a
// gather, where it could not mask the strided loads, and CUDA needs fewer registers than for predicated
// loads) and skip their stores. A WholeRows group
// (the CPU's launch) whose row is at least a step long takes its last step shifted back to end at the row's
// end instead, recomputing a few outputs of its own: every step of it is then a full one.
//
// Launches: CUDA (items are threads): 32 x 8 items, one step per group (V = 4, K = 4 where window = stride = 2
// and the vectors fit, else V = 1, K = 8, the plan's window). CPU (items are SIMD lanes): one element per item
// (V = 1, K = 1, Y = 1), 16 items, a group per output row, window and stride unrolled for the common 2/2 and
// 3/2; consecutive items then read stride-2 runs of the input (GCC's permuted loads) and store contiguously.
// Taps that overlap the next window (c >= stride, as 3/2's third column) are addressed with the plan's stride
// instead: GCC then gathers them, where with the compile-time stride it saw an interleaved access with a gap,
// which needs a scalar epilogue that a 16-iteration item loop has no room for (8-lane vectors and a scalar
// remainder: 4x slower). Other windows: a phase per tap (TapPhases, gathers at the plan's stride).
#pragma once

#include <cstdint>
#include <limits>
#include <utility>

#include "ops/maxpool3d/plan.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::ops::maxpool3d_impl {

// The image and output row of item row `y` in a group whose first row is (z0, y0).
PORTKERN_INLINE void locate(const Plan& plan, std::int64_t z0, std::int64_t y0, int y, std::int64_t& z,
                            std::int64_t& row) {
  z = z0, row = y0 + y;
  while (row >= plan.h_out) row -= plan.h_out, ++z;
}

// f(k) for k = 0 .. K - 1, expanded without a loop (GCC unswitched a loop of one iteration, K = 1 on the CPU,
// before unrolling it, which kept the checked item loop scalar).
template <int K, class F>
PORTKERN_INLINE void each_output(F&& f) {
  [&]<int... k>(std::integer_sequence<int, k...>) { (f(k), ...); }(std::make_integer_sequence<int, K>{});
}

template <int V, int X, int Y, int K, int Window = 0, int Stride = 0, bool WholeRows = false,
          bool TapPhases = false>
struct MaxpoolKernel {
  static_assert(V == 1 || (V == 4 && Window == 2 && Stride == 2), "vectors of 4 outputs need window = stride = 2");
  static_assert((Window > 0) == (Stride > 0), "window and stride are both fixed or both the plan's");
  static constexpr int x_items = X, y_items = Y;
  static constexpr bool whole_rows = WholeRows;
  static constexpr std::int64_t step = std::int64_t(X) * K * V;   // output columns per step
  using group_shape = kernel::Shape<X, Y>;

  Plan plan;
  std::int64_t column_chunks;   // groups per row of groups: 1 (WholeRows) or one per step
  const float* in;
  float* out;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t block = g.x() / column_chunks;
    const std::int64_t r0 = block * Y, z0 = r0 / plan.h_out, y0 = r0 % plan.h_out;   // the first row's image, row
    if constexpr (WholeRows) {
      for (std::int64_t c = 0; c < plan.w_out; c += step) {
        const bool fits = c + step <= plan.w_out;
        if (fits || plan.w_out >= step) phase<false>(g, r0, z0, y0, fits ? c : plan.w_out - step);   // shifted
        else phase<true>(g, r0, z0, y0, c);
      }
    } else {
      const std::int64_t col0 = (g.x() % column_chunks) * step;
      if (col0 + step <= plan.w_out) phase<false>(g, r0, z0, y0, col0);
      else phase<true>(g, r0, z0, y0, col0);
    }
  }

  template <bool Checked, class Group>
  PORTKERN_INLINE void phase(Group& g, std::int64_t r0, std::int64_t z0, std::int64_t y0, std::int64_t col0) const {
    const std::int64_t stride = Stride > 0 ? Stride : plan.stride;
    if constexpr (TapPhases) {
      // A phase per tap of the window, the running maxima in a private array (the window's loops are uniform:
      // outside the item loop). Rows of one group only: the row is uniform too.
      static_assert(V == 1 && Y == 1 && Window == 0, "tap phases are the CPU's generic path");
      const float* src = in + (z0 * plan.h_in + y0 * stride) * plan.w_in;
      float* dst = out + (z0 * plan.h_out + y0) * plan.w_out;
      kernel::private_array<float, K, Group> m;
      g.for_each_item([&](kernel::Item item) {
        PORTKERN_UNROLL
        for (int k = 0; k < K; ++k) m(item, k) = -std::numeric_limits<float>::infinity();
      });
      for (std::int64_t r = 0; r < plan.window; ++r)
        for (std::int64_t c = 0; c < plan.window; ++c)
          g.for_each_item([&](kernel::Item item) {
            PORTKERN_UNROLL
            for (int k = 0; k < K; ++k) {
              const std::int64_t o = col0 + std::int64_t(k) * X + item.x;
              if (!Checked || o < plan.w_out) m(item, k) = max_step(m(item, k), src[r * plan.w_in + o * stride + c]);
            }
          });
      g.for_each_item([&](kernel::Item item) {
        PORTKERN_UNROLL
        for (int k = 0; k < K; ++k) {
          const std::int64_t o = col0 + std::int64_t(k) * X + item.x;
          if (!Checked || o < plan.w_out) dst[o] = m(item, k);
        }
      });
      return;
    }
    g.for_each_item([&](kernel::Item item) {
      std::int64_t z = z0, row = y0;
      if constexpr (Y > 1) {   // a group of one row starts at a row of its own
        if (r0 + item.y >= plan.z * plan.h_out) return;
        locate(plan, z0, y0, item.y, z, row);
      }
      const float* src = in + (z * plan.h_in + row * stride) * plan.w_in;
      float* dst = out + (z * plan.h_out + row) * plan.w_out;
      if constexpr (V == 4) {
        using Vec = kernel::vec<float, 4>;
        Vec a[K][4] = {};
        PORTKERN_UNROLL
        for (int k = 0; k < K; ++k) {
          std::int64_t o = col0 + (std::int64_t(k) * X + item.x) * 4;   // first of 4 outputs
          if (Checked && o >= plan.w_out) o = plan.w_out - 4;            // (w_out % 4 == 0)
          a[k][0] = Vec::load(src + 2 * o), a[k][1] = Vec::load(src + 2 * o + 4);
          a[k][2] = Vec::load(src + plan.w_in + 2 * o), a[k][3] = Vec::load(src + plan.w_in + 2 * o + 4);
        }
        PORTKERN_UNROLL
        for (int k = 0; k < K; ++k) {
          const std::int64_t o = col0 + (std::int64_t(k) * X + item.x) * 4;
          if (Checked && o >= plan.w_out) continue;
          Vec m;
          PORTKERN_UNROLL
          for (int e = 0; e < 4; ++e) {   // output e: columns 2e, 2e + 1 of the 8, in both rows
            const Vec& top = a[k][e / 2];
            const Vec& bottom = a[k][2 + e / 2];
            const int c = 2 * (e % 2);
            m[e] = max_step(max_step(max_step(top[c], top[c + 1]), bottom[c]), bottom[c + 1]);
          }
          m.store(dst + o);
        }
      } else {
        each_output<K>([&](int k) {
          const std::int64_t o = col0 + std::int64_t(k) * X + item.x;
          const std::int64_t at = Checked && o >= plan.w_out ? plan.w_out - 1 : o;   // read in the row
          const float* w = src + at * stride;
          float m = -std::numeric_limits<float>::infinity();
          if constexpr (Window > 0) {
            PORTKERN_UNROLL
            for (int r = 0; r < Window; ++r)
              PORTKERN_UNROLL
              for (int c = 0; c < Window; ++c)   // a tap of the next window (c >= Stride): see the header
                m = max_step(m, c < Stride ? w[r * plan.w_in + c] : src[r * plan.w_in + at * plan.stride + c]);
          } else {
            for (std::int64_t r = 0; r < plan.window; ++r, w += plan.w_in)
              for (std::int64_t c = 0; c < plan.window; ++c) m = max_step(m, w[c]);
          }
          if (!Checked || o < plan.w_out) dst[o] = m;
        });
      }
    });
  }
};

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, const Plan& plan, const float* in, float* out) {
  const auto launch = [&](auto kernel_type) {
    using Kernel = decltype(kernel_type);
    const std::int64_t chunks = Kernel::whole_rows ? 1 : (plan.w_out + Kernel::step - 1) / Kernel::step;
    const std::int64_t blocks = (plan.z * plan.h_out + Kernel::y_items - 1) / Kernel::y_items;
    Backend::launch(queue, kernel::Range{blocks * chunks}, Kernel{plan, chunks, in, out});
  };
  if constexpr (Backend::items_are_lanes) {
    if (plan.window == 2 && plan.stride == 2) return launch(MaxpoolKernel<1, 16, 1, 1, 2, 2, true>{});
    if (plan.window == 3 && plan.stride == 2) return launch(MaxpoolKernel<1, 16, 1, 1, 3, 2, true>{});
    return launch(MaxpoolKernel<1, 16, 1, 1, 0, 0, true, true>{});
  } else {
    if (plan.vector) return launch(MaxpoolKernel<4, 32, 8, 4, 2, 2>{});
    launch(MaxpoolKernel<1, 32, 8, 8>{});
  }
}

}  // namespace portkern::ops::maxpool3d_impl
