// The portable gd kernels. Rows and columns go 8 per group of 32 x 8 items: item (x, y) takes nonzeros
// x, x + 32, ... of row (column) y, so a row's indices and values are read coalesced; the gathers of x (or
// r) hit the cache (x and r are tens of KB). The 32 lane sums of each row are added in local memory in a
// fixed order (32 -> 4 -> 1). RowKernel writes r_i = -sigmoid(-y_i z_i) y_i and per-group partial loss
// and count; ColKernel forms the gradient of its columns from r, the per-group partial |x|^2 of the old x,
// and updates x in place; FinishKernel (one group) sums the partials in float64 and writes
// {objective, error}. Every sum has a fixed order: deterministic.
#pragma once

#include <cstdint>
#include <type_traits>

#include "portkern/kernel/group_algorithms.hpp"
#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::gd_impl {

constexpr int lanes = 32, per_group = 8;

struct Params {
  std::int64_t rows = 0, cols = 0;
  float lambda = 0, alpha = 0;
  std::int64_t row_groups = 0, col_groups = 0;
  // Workspace layout (floats): r[rows], loss[row_groups], correct[row_groups], xsq[col_groups].
  PORTKERN_INLINE std::int64_t r_offset() const { return 0; }
  PORTKERN_INLINE std::int64_t loss_offset() const { return rows; }
  PORTKERN_INLINE std::int64_t correct_offset() const { return rows + row_groups; }
  PORTKERN_INLINE std::int64_t xsq_offset() const { return rows + 2 * row_groups; }
  PORTKERN_INLINE std::int64_t workspace_floats() const { return rows + 2 * row_groups + col_groups; }
};

inline Params make_params(std::int64_t rows, std::int64_t cols, float lambda, float alpha) {
  Params p;
  p.rows = rows;
  p.cols = cols;
  p.lambda = lambda;
  p.alpha = alpha;
  p.row_groups = (rows + per_group - 1) / per_group;
  p.col_groups = (cols + per_group - 1) / per_group;
  return p;
}

// Sums value(item) over the 32 items of each y (called once per group by every item); out(y, sum) runs in
// item (0, y). Ids 0 and 1 of local memory.
template <class Group, class Value, class Out>
PORTKERN_INLINE void lane_sums(Group& g, Value&& value, Out&& out) {
  auto& red = g.template local<float[per_group][lanes], 0>();
  auto& red2 = g.template local<float[per_group][4], 1>();
  g.for_each_item([&](kernel::Item item) { red[item.y][item.x] = value(item); });
  g.barrier();
  g.for_each_item([&](kernel::Item item) {
    if (item.x < 4) {
      float s = 0.f;
      PORTKERN_UNROLL
      for (int j = 0; j < lanes / 4; ++j) s += red[item.y][item.x + 4 * j];
      red2[item.y][item.x] = s;
    }
  });
  g.barrier();
  g.for_each_item([&](kernel::Item item) {
    if (item.x == 0) out(item.y, (red2[item.y][0] + red2[item.y][1]) + (red2[item.y][2] + red2[item.y][3]));
  });
  g.barrier();
}

// Sparse dot product of one row (lane x of 32): sum over k = begin + x, begin + x + 32, ... < end.
template <class Gather>
PORTKERN_INLINE float lane_dot(std::int64_t begin, std::int64_t end, int lane, const std::int32_t* idx,
                               const float* val, Gather&& gather) {
  float s0 = 0.f, s1 = 0.f;
  std::int64_t k = begin + lane;
  for (; k + lanes < end; k += 2 * lanes) {   // two independent gathers in flight
    s0 += val[k] * gather(idx[k]);
    s1 += val[k + lanes] * gather(idx[k + lanes]);
  }
  if (k < end) s0 += val[k] * gather(idx[k]);
  return s0 + s1;
}

// The CPU's form, whose items are SIMD lanes: a group of 32 items takes its 8 rows (columns) one after the
// other, the row's nonzeros across the items (k = begin + u * 32 + x): uniform loops over whole blocks of
// 32 * Unroll nonzeros without checks, the last block with masked loads (a masked-off item gathers element 0,
// which exists, times 0). Each item's running sum lives in red[y][x]; the 32 lane sums of the 8 rows are
// then added in the fixed order of lane_sums (32 -> 4 -> 1) and the rows' results computed by every item
// (y = x % 8), stored by the first 8: no call under a condition.
namespace lanes_form {

constexpr int unroll = 4;
constexpr std::int64_t block = std::int64_t(lanes) * unroll;
static_assert(lanes == 4 * per_group, "item x sums the lanes x % 4 + 4 j of row x / 4, and computes row x % 8");

template <bool Checked, class Group, class Gather>
PORTKERN_INLINE void dot_block(Group& g, float* sum, std::int64_t k0, std::int64_t end, const std::int32_t* idx,
                               const float* val, Gather& gather) {
  g.for_each_item([&](kernel::Item item) {
    float s = sum[item.x];
    PORTKERN_UNROLL
    for (int u = 0; u < unroll; ++u) {
      const std::int64_t k = k0 + u * lanes + item.x;
      const bool in = !Checked || k < end;
      s += (in ? val[k] : 0.f) * gather(in ? idx[k] : 0);
    }
    sum[item.x] = s;
  });
}

// dots[y] = the sparse dot product of row first + y (0 past `count`), y < per_group, in a fixed order.
// Ids 0 and 1 of local memory.
template <class Group, class Gather>
PORTKERN_INLINE void row_dots(Group& g, std::int64_t first, std::int64_t count, const std::int64_t* ptr,
                              const std::int32_t* idx, const float* val, Gather gather, float (&dots)[per_group]) {
  auto& red = g.template local<float[per_group][lanes], 0>();
  auto& red2 = g.template local<float[per_group * 4], 1>();
  for (int y = 0; y < per_group; ++y) {
    float* sum = red[y];
    g.for_each_item([&](kernel::Item item) { sum[item.x] = 0.f; });
    if (first + y >= count) continue;   // uniform
    const std::int64_t begin = ptr[first + y], end = ptr[first + y + 1];
    std::int64_t k0 = begin;
    for (; k0 + block <= end; k0 += block) dot_block<false>(g, sum, k0, end, idx, val, gather);
    if (k0 < end) dot_block<true>(g, sum, k0, end, idx, val, gather);
  }
  g.barrier();
  g.for_each_item([&](kernel::Item item) {   // item x: row x / 4, lanes x % 4 + 4 j
    const float* row = red[item.x / 4];
    float s = 0.f;
    PORTKERN_UNROLL
    for (int j = 0; j < lanes / 4; ++j) s += row[item.x % 4 + 4 * j];
    red2[item.x] = s;
  });
  g.barrier();
  PORTKERN_UNROLL
  for (int y = 0; y < per_group; ++y) dots[y] = (red2[4 * y] + red2[4 * y + 1]) + (red2[4 * y + 2] + red2[4 * y + 3]);
}

}  // namespace lanes_form

// The logistic loss log(1 + e^t), stable: max(t, 0) + log1p(e^-|t|) (one exp and one log1p, no branch).
PORTKERN_INLINE float logistic_loss(float t) {
  return (t > 0.f ? t : 0.f) + kernel::log1p(kernel::exp(-kernel::abs(t)));
}

// Lanes: the CPU's form (lanes_form), else CUDA's.
template <bool Lanes = false>
struct RowKernel {
  using group_shape = std::conditional_t<Lanes, kernel::Shape<lanes>, kernel::Shape<lanes, per_group>>;
  Params p;
  const std::int64_t* row_ptr;
  const std::int32_t* col_idx;
  const float* values;
  const float* labels;
  const float* x;
  float* workspace;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    auto& loss = g.template local<float[Lanes ? lanes : per_group], 2>();
    auto& correct = g.template local<float[Lanes ? lanes : per_group], 3>();
    const std::int64_t row0 = g.x() * per_group;
    float* r = workspace + p.r_offset();
    if constexpr (Lanes) {
      float z[per_group];
      lanes_form::row_dots(g, row0, p.rows, row_ptr, col_idx, values, [&](std::int32_t c) { return x[c]; }, z);
      g.for_each_item([&](kernel::Item item) {
        const int y = item.x % per_group;
        const std::int64_t i = row0 + y;
        const bool in = i < p.rows, mine = in && item.x < per_group;
        const float label = in ? labels[i] : 0.f;
        const float t = -label * z[y];
        loss[item.x] = in ? logistic_loss(t) : 0.f;
        correct[item.x] = in && (z[y] >= 0.f ? 1.f : -1.f) == label ? 1.f : 0.f;
        if (mine) r[i] = -label * kernel::sigmoid(t);
      });
      g.barrier();
    } else {
      lane_sums(
          g,
          [&](kernel::Item item) {
            const std::int64_t i = row0 + item.y;
            if (i >= p.rows) return 0.f;
            return lane_dot(row_ptr[i], row_ptr[i + 1], item.x, col_idx, values, [&](std::int32_t c) { return x[c]; });
          },
          [&](int y, float z) {
            const std::int64_t i = row0 + y;
            float l = 0.f, c = 0.f;
            if (i < p.rows) {
              const float label = labels[i];
              const float t = -label * z;
              l = logistic_loss(t);
              c = (z >= 0.f ? 1.f : -1.f) == label ? 1.f : 0.f;
              r[i] = -label * kernel::sigmoid(t);
            }
            loss[y] = l;
            correct[y] = c;
          });
    }
    g.for_each_item([&](kernel::Item item) {
      if (item.linear == 0) {
        float l = 0.f, c = 0.f;
        PORTKERN_UNROLL
        for (int y = 0; y < per_group; ++y) l += loss[y], c += correct[y];
        workspace[p.loss_offset() + g.x()] = l;
        workspace[p.correct_offset() + g.x()] = c;
      }
    });
  }
};

template <bool Lanes = false>
struct ColKernel {
  using group_shape = std::conditional_t<Lanes, kernel::Shape<lanes>, kernel::Shape<lanes, per_group>>;
  Params p;
  const std::int64_t* t_row_ptr;
  const std::int32_t* t_col_idx;
  const float* t_values;
  float* x;
  float* workspace;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    auto& xsq = g.template local<float[Lanes ? lanes : per_group], 2>();
    const std::int64_t col0 = g.x() * per_group;
    const float* r = workspace + p.r_offset();
    if constexpr (Lanes) {
      float grad[per_group];
      lanes_form::row_dots(g, col0, p.cols, t_row_ptr, t_col_idx, t_values, [&](std::int32_t i) { return r[i]; }, grad);
      g.for_each_item([&](kernel::Item item) {
        const int y = item.x % per_group;
        const std::int64_t j = col0 + y;
        const bool in = j < p.cols, mine = in && item.x < per_group;
        const float xj = in ? x[j] : 0.f;
        xsq[item.x] = xj * xj;
        const float updated = xj - p.alpha * (grad[y] / float(p.rows) + p.lambda * xj);
        if (mine) x[j] = updated;
      });
      g.barrier();
    } else {
      lane_sums(
          g,
          [&](kernel::Item item) {
            const std::int64_t j = col0 + item.y;
            if (j >= p.cols) return 0.f;
            return lane_dot(t_row_ptr[j], t_row_ptr[j + 1], item.x, t_col_idx, t_values,
                            [&](std::int32_t i) { return r[i]; });
          },
          [&](int y, float grad) {
            const std::int64_t j = col0 + y;
            float s = 0.f;
            if (j < p.cols) {
              const float xj = x[j];
              s = xj * xj;
              x[j] = xj - p.alpha * (grad / float(p.rows) + p.lambda * xj);
            }
            xsq[y] = s;
          });
    }
    g.for_each_item([&](kernel::Item item) {
      if (item.linear == 0) {
        float s = 0.f;
        PORTKERN_UNROLL
        for (int y = 0; y < per_group; ++y) s += xsq[y];
        workspace[p.xsq_offset() + g.x()] = s;
      }
    });
  }
};


struct FinishKernel {
  using group_shape = kernel::Shape<256>;
  Params p;
  const float* workspace;
  float* objective_error;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    auto strided = [&](std::int64_t offset, std::int64_t count) {
      return [=, this](kernel::Item item) {
        double s = 0;
        for (std::int64_t k = item.linear; k < count; k += 256) s += double(workspace[offset + k]);
        return s;
      };
    };
    auto plus = [](double a, double b) { return a + b; };
    const double loss = kernel::group_reduce<0, double>(g, strided(p.loss_offset(), p.row_groups), plus, 0.0);
    const double correct = kernel::group_reduce<0, double>(g, strided(p.correct_offset(), p.row_groups), plus, 0.0);
    const double xsq = kernel::group_reduce<0, double>(g, strided(p.xsq_offset(), p.col_groups), plus, 0.0);
    g.for_each_item([&](kernel::Item item) {
      if (item.linear == 0) {
        objective_error[0] = float(loss / double(p.rows) + 0.5 * double(p.lambda) * xsq);
        objective_error[1] = float(1.0 - correct / double(p.rows));
      }
    });
  }
};

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, const Params& p, const std::int64_t* row_ptr, const std::int32_t* col_idx, const float* values,
         const std::int64_t* t_row_ptr, const std::int32_t* t_col_idx, const float* t_values, const float* labels,
         float* x, float* objective_error, float* workspace) {
  constexpr bool lanes_form = Backend::items_are_lanes;
  Backend::launch(queue, kernel::Range{p.row_groups},
                  RowKernel<lanes_form>{p, row_ptr, col_idx, values, labels, x, workspace});
  Backend::launch(queue, kernel::Range{p.col_groups},
                  ColKernel<lanes_form>{p, t_row_ptr, t_col_idx, t_values, x, workspace});
  Backend::launch(queue, kernel::Range{1}, FinishKernel{p, workspace, objective_error});
}

}  // namespace portkern::ops::gd_impl
