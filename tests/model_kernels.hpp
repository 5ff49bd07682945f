// Kernels that exercise every piece of the kernel model, written once and run by the CPU and GPU tests.
#pragma once

#include <cstdint>

#include "portkern/kernel/diagonal_fragment.hpp"
#include "portkern/kernel/divider.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::testing {

// Each group (8 x 4 x 2 items) writes, for each item, 4 values to out[(group * 64 + item) * 4 ...]:
//   the value its mirror item (size-1-linear) put in local tile A, the value its successor put in tile B
//   (same type as A: only the id tells them apart), its packed position x + 10 y + 100 z, and the group's
//   packed index. The values pass through private arrays across three barriers.
struct ModelCheck {
  using group_shape = kernel::Shape<8, 4, 2>;
  static constexpr int size = group_shape::size;
  int* out;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    auto& a = g.template local<int[size], 0>();
    auto& b = g.template local<int[size], 1>();
    kernel::private_array<int, 2, Group> got;
    const std::int64_t group = (g.z() * g.range().y + g.y()) * g.range().x + g.x();
    g.for_each_item([&](kernel::Item item) {
      a[item.linear] = int(group * 1000 + item.linear);
      b[item.linear] = -int(group * 1000 + item.linear);
    });
    g.barrier();
    g.for_each_item([&](kernel::Item item) {
      got(item, 0) = a[size - 1 - item.linear];
      got(item, 1) = b[(item.linear + 1) % size];
    });
    g.barrier();
    g.for_each_item([&](kernel::Item item) { a[item.linear] = got(item, 0) + 7; });   // overwrite after reads
    g.barrier();
    g.for_each_item([&](kernel::Item item) {
      int* o = out + (group * size + item.linear) * 4;
      o[0] = a[item.linear] - 7;
      o[1] = got(item, 1);
      o[2] = item.x + 10 * item.y + 100 * item.z;
      o[3] = int(g.x() + 10 * g.y() + 100 * g.z());
    });
  }
};

// Runs ModelCheck over `groups` on the queue's device (out: groups.size() * 64 * 4 ints of that device).
void run_model_check_cpu(Queue& q, const kernel::Range& groups, int* out);
void run_model_check_cuda(Queue& q, const kernel::Range& groups, int* out);

// One group of 40 columns (two and a half AVX-512 vectors: whole, shifted and narrow paths), an item each or
// Lanes an item, sums Rows x columns diagonal products in a diagonal_fragment, in two calls of fma that split
// the batch at `split`, or, where `taps` is 3, 5 or 7, in one call of fma_window<taps, ratio> (x_step its step,
// ratio 1 or 2), or, where `batches` is 0 or more, in one call of fma_batches (batches of `batch` products,
// x_batch and w_batch apart), and writes sum (r, c) to out[r * 40 + c] for c < columns.
template <int Rows, int Lanes = 1>
struct DiagonalCheck {
  static constexpr int width = 40;
  using group_shape = kernel::Shape<width / Lanes>;
  const float *x, *w;
  float* out;
  std::int64_t columns, batch, split, row_step, x_step, w_step;
  int taps = 0, ratio = 1;
  std::int64_t batches = -1, x_batch = 0, w_batch = 0;

  template <int Ratio, class Acc, class Group>
  PORTKERN_INLINE void window(Group& g, Acc& acc) const {
    if (taps == 3) acc.template fma_window<3, Ratio>(g, x, x_step, w, w_step);
    if (taps == 5) acc.template fma_window<5, Ratio>(g, x, x_step, w, w_step);
    if (taps == 7) acc.template fma_window<7, Ratio>(g, x, x_step, w, w_step);
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    kernel::diagonal_fragment<float, Rows, Group, Lanes> acc(g, columns);
    if (taps > 0) {
      if (ratio == 1) window<1>(g, acc);
      else window<2>(g, acc);
    } else if (batches >= 0) {
      acc.fma_batches(g, x, row_step, w, batches, x_batch, w_batch, batch, x_step, w_step);
    } else {
      acc.fma(g, x, row_step, w, split, x_step, w_step);
      acc.fma(g, x + split * x_step, row_step, w + split * w_step, batch - split, x_step, w_step);
    }
    acc.for_each(g, [&](kernel::Item item, int r, float sum) { out[r * width + item.x] = sum; });
  }
};

template <int Rows, int Lanes>
void run_diagonal_check_cpu(Queue& q, const DiagonalCheck<Rows, Lanes>& kernel);
template <int Rows, int Lanes>
void run_diagonal_check_cuda(Queue& q, const DiagonalCheck<Rows, Lanes>& kernel);

// Groups of 24 items packed 5 to a CUDA block (packed_groups; 7 groups leave the last block 3 groups past the
// launch's), each item dividing a numerator spread over [0, 2^63) by a launch-time divisor: item i of group x
// writes n / d and n % d to out[(x * 24 + i) * 2] and the next element.
struct DividerCheck {
  using group_shape = kernel::Shape<24>;
  static constexpr int packed_groups = 5;
  std::int64_t* out;
  std::int64_t divisor;
  kernel::divider by{divisor};

  // Small numerators, the largest ones, and a hash of (group, item) shifted into [0, 2^63).
  PORTKERN_INLINE static std::int64_t numerator(std::int64_t group, int item) {
    if (item < 4) return group * 4 + item;
    if (item < 8) return std::int64_t(~std::uint64_t(0) >> 1) - group * 4 - (item - 4);
    return std::int64_t((std::uint64_t(group * 24 + item) * 0x9E3779B97F4A7C15ull) >> (1 + item % 40));
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t group = g.x();
    g.for_each_item([&](kernel::Item item) {
      const auto [quotient, remainder] = by.divmod(numerator(group, item.x));
      out[(group * 24 + item.x) * 2] = quotient;
      out[(group * 24 + item.x) * 2 + 1] = remainder;
    });
  }
};

void run_divider_check_cpu(Queue& q, std::int64_t groups, const DividerCheck& kernel);
void run_divider_check_cuda(Queue& q, std::int64_t groups, const DividerCheck& kernel);

}  // namespace portkern::testing
