// The portable gd kernels. Rows and columns go 8 per group of 32 x 8 items: item (x, y) takes nonzeros
// x, x + 32, ... of row (column) y, so a row's indices and values are read coalesced; the gathers of x (or
// r) hit the cache (x and r are tens of KB). The 32 lane sums of each row are added in local memory in a
// fixed order (32 -> 4 -> 1). RowKernel writes r_i = -sigmoid(-y_i z_i) y_i and per-group partial loss
// and count; ColKernel forms the gradient of its columns from r, the per-group partial |x|^2 of the old x,
// and updates x in place; FinishKernel (one group) sums the partials in float64 and writes
// {objective, error}. Every sum has a fixed order: deterministic.
#pragma once

#include <cstdint>

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

struct RowKernel {
  using group_shape = kernel::Shape<lanes, per_group>;
  Params p;
  const std::int64_t* row_ptr;
  const std::int32_t* col_idx;
  const float* values;
  const float* labels;
  const float* x;
  float* workspace;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    auto& loss = g.template local<float[per_group], 2>();
    auto& correct = g.template local<float[per_group], 3>();
    const std::int64_t row0 = g.x() * per_group;
    float* r = workspace + p.r_offset();
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
            l = t > 0.f ? t + kernel::log1p(kernel::exp(-t)) : kernel::log1p(kernel::exp(t));
            c = (z >= 0.f ? 1.f : -1.f) == label ? 1.f : 0.f;
            r[i] = -label * kernel::sigmoid(t);
          }
          loss[y] = l;
          correct[y] = c;
        });
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

struct ColKernel {
  using group_shape = kernel::Shape<lanes, per_group>;
  Params p;
  const std::int64_t* t_row_ptr;
  const std::int32_t* t_col_idx;
  const float* t_values;
  float* x;
  float* workspace;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    auto& xsq = g.template local<float[per_group], 2>();
    const std::int64_t col0 = g.x() * per_group;
    const float* r = workspace + p.r_offset();
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
  Backend::launch(queue, kernel::Range{p.row_groups}, RowKernel{p, row_ptr, col_idx, values, labels, x, workspace});
  Backend::launch(queue, kernel::Range{p.col_groups}, ColKernel{p, t_row_ptr, t_col_idx, t_values, x, workspace});
  Backend::launch(queue, kernel::Range{1}, FinishKernel{p, workspace, objective_error});
}

}  // namespace portkern::ops::gd_impl
