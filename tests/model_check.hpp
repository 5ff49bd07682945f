// The expected output of ModelCheck and DiagonalCheck, and the comparisons both back ends' tests use.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "model_kernels.hpp"
#include "portkern/runtime/buffer.hpp"
#include "testing.hpp"

namespace portkern::testing {

inline void expect_model_check(const std::vector<int>& out, const kernel::Range& groups) {
  constexpr int size = ModelCheck::size;
  using S = ModelCheck::group_shape;
  for (std::int64_t gz = 0; gz < groups.z; ++gz)
    for (std::int64_t gy = 0; gy < groups.y; ++gy)
      for (std::int64_t gx = 0; gx < groups.x; ++gx) {
        const std::int64_t group = (gz * groups.y + gy) * groups.x + gx;
        for (int linear = 0; linear < size; ++linear) {
          const int x = linear % S::x, y = (linear / S::x) % S::y, z = linear / (S::x * S::y);
          const int* o = out.data() + (group * size + linear) * 4;
          ASSERT_EQ(o[0], int(group * 1000 + size - 1 - linear)) << "group " << group << " item " << linear;
          ASSERT_EQ(o[1], -int(group * 1000 + (linear + 1) % size)) << "group " << group << " item " << linear;
          ASSERT_EQ(o[2], x + 10 * y + 100 * z);
          ASSERT_EQ(o[3], int(gx + 10 * gy + 100 * gz));
        }
      }
}

// Runs `kernel` (a DiagonalCheck<Rows, Lanes> whose x, w and out this sets) on x and w, its outputs poisoned, and
// checks each sum (r, c) against product(r, c, t), summed in float64 over t < terms, for c < columns; the columns
// past them must keep the poison. `what` names the case in a failure.
template <int Rows, int Lanes, class Run, class Product>
void check_diagonal_sums(const Device& device, Run run, DiagonalCheck<Rows, Lanes> kernel,
                         const std::vector<float>& x, const std::vector<float>& w, std::int64_t terms, Product product,
                         const std::string& what) {
  constexpr int width = DiagonalCheck<Rows, Lanes>::width;
  constexpr float poison = -12345.f;
  Queue q(device);
  Buffer<float> xs(device, std::int64_t(x.size())), ws(device, std::int64_t(w.size())), out(device, Rows * width);
  xs.upload(q, x);
  ws.upload(q, w);
  q.fill(out.data(), poison, std::size_t(Rows * width));
  kernel.x = xs.data(), kernel.w = ws.data(), kernel.out = out.data();
  run(q, kernel);
  const std::vector<float> got = out.download(q);
  for (int r = 0; r < Rows; ++r)
    for (int c = 0; c < width; ++c) {
      const float value = got[std::size_t(r * width + c)];
      if (c >= kernel.columns) {
        ASSERT_EQ(value, poison) << "column " << c << " past columns " << kernel.columns << " was written";
        continue;
      }
      double want = 0, scale = 0;
      for (std::int64_t t = 0; t < terms; ++t) {
        const double p = product(r, c, t);
        want += p;
        scale += std::fabs(p);
      }
      ASSERT_NEAR(value, want, 1e-6 * (scale + 1))
          << "rows " << Rows << " lanes " << Lanes << " columns " << kernel.columns << " " << what << " at (" << r
          << ", " << c << ")";
    }
}

// The columns a DiagonalCheck<Rows, Lanes> is run with: below, at and past one and two vectors of AVX-512
// (narrow, whole and shifted last vectors); with Lanes > 1, multiples of Lanes (the fragment's precondition).
template <int Lanes>
std::vector<std::int64_t> diagonal_columns() {
  if constexpr (Lanes == 1) return {1, 7, 15, 16, 17, 31, 32, 33, 39, 40};
  else return {Lanes, 12, 16, 20, 32, 36, 40};
}

// A step between rows or taps that is no multiple of a vector: odd where an item holds a column, else the
// multiple of Lanes next above `odd` (aligned, as the fragment requires).
template <int Lanes>
constexpr std::int64_t unaligned_step(std::int64_t odd) {
  return Lanes == 1 ? odd : (odd + Lanes - 1) / Lanes * Lanes;
}

// DiagonalCheck<Rows, Lanes> against float64 on random inputs: the columns of diagonal_columns, the batch 0, 1
// and 5 split anywhere, rows apart by more or less than a batch step (overlapping, as a stride-1 convolution's
// pixels).
template <int Rows, int Lanes, class Run>
void check_diagonal_fragment(const Device& device, Run run) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  for (std::int64_t columns : diagonal_columns<Lanes>())
    for (std::int64_t batch : {0, 1, 5})
      for (std::int64_t row_step : {40, 96})
        for (std::int64_t split : {std::int64_t(0), batch / 2, batch}) {
          // taps apart along x and w, neither a vector multiple
          const std::int64_t x_step = unaligned_step<Lanes>(45), w_step = unaligned_step<Lanes>(41);
          // x and w end at their last element read, so that a read past `columns` is caught by the sanitizers
          const std::int64_t x_size = batch > 0 ? (batch - 1) * x_step + (Rows - 1) * row_step + columns : 1;
          const std::int64_t w_size = batch > 0 ? (batch - 1) * w_step + columns : 1;
          auto x = std::vector<float>(std::size_t(x_size)), w = std::vector<float>(std::size_t(w_size));
          for (float& v : x) v = uniform(rng);
          for (float& v : w) v = uniform(rng);
          const auto product = [&](int r, int c, std::int64_t t) {
            return double(x[std::size_t(t * x_step + r * row_step + c)]) * w[std::size_t(t * w_step + c)];
          };
          check_diagonal_sums(device, run,
                              DiagonalCheck<Rows, Lanes>{nullptr, nullptr, nullptr, columns, batch, split, row_step,
                                                         x_step, w_step},
                              x, w, batch, product,
                              "batch " + std::to_string(batch) + " split " + std::to_string(split) + " row_step " +
                                  std::to_string(row_step));
        }
}

// DiagonalCheck<Rows, Lanes>'s sliding-window product against float64: windows of 3, 5 and 7 taps, rows 1 and 2
// taps apart, the columns of check_diagonal_fragment.
template <int Rows, int Lanes, class Run>
void check_sliding_window(const Device& device, Run run) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  for (std::int64_t columns : diagonal_columns<Lanes>())
    for (int taps : {3, 5, 7})
      for (int ratio : {1, 2}) {
        const std::int64_t step = unaligned_step<Lanes>(43), w_step = unaligned_step<Lanes>(41);
        const std::int64_t inputs = ratio * (Rows - 1) + taps;
        // x and w end at their last element read (the sanitizers catch a read past them)
        auto x = std::vector<float>(std::size_t((inputs - 1) * step + columns));
        auto w = std::vector<float>(std::size_t((taps - 1) * w_step + columns));
        for (float& v : x) v = uniform(rng);
        for (float& v : w) v = uniform(rng);
        const auto product = [&](int r, int c, std::int64_t t) {
          return double(x[std::size_t((ratio * r + t) * step + c)]) * w[std::size_t(t * w_step + c)];
        };
        check_diagonal_sums(device, run,
                            DiagonalCheck<Rows, Lanes>{nullptr, nullptr, nullptr, columns, 0, 0, 0, step, w_step, taps,
                                                       ratio},
                            x, w, taps, product, "taps " + std::to_string(taps) + " ratio " + std::to_string(ratio));
      }
}

// DiagonalCheck<Rows, Lanes>'s product over batches against float64: 0, 1 and 3 batches of 0, 1 and 5 products,
// the batches further apart than a batch's products (a depthwise window's rows), the columns of
// check_diagonal_fragment.
template <int Rows, int Lanes, class Run>
void check_fma_batches(const Device& device, Run run) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  for (std::int64_t columns : diagonal_columns<Lanes>())
    for (std::int64_t batches : {0, 1, 3})
      for (std::int64_t batch : {0, 1, 5}) {
        const std::int64_t row_step = 40, x_step = unaligned_step<Lanes>(45), w_step = unaligned_step<Lanes>(41);
        const std::int64_t x_batch = unaligned_step<Lanes>(301), w_batch = unaligned_step<Lanes>(211);
        // x and w end at their last element read (the sanitizers catch a read past them)
        const bool reads = batches > 0 && batch > 0;
        const std::int64_t x_size =
            reads ? (batches - 1) * x_batch + (batch - 1) * x_step + (Rows - 1) * row_step + columns : 1;
        const std::int64_t w_size = reads ? (batches - 1) * w_batch + (batch - 1) * w_step + columns : 1;
        auto x = std::vector<float>(std::size_t(x_size)), w = std::vector<float>(std::size_t(w_size));
        for (float& v : x) v = uniform(rng);
        for (float& v : w) v = uniform(rng);
        const auto product = [&](int r, int c, std::int64_t t) {   // t: batch t / batch, product t % batch
          const std::int64_t u = t / batch, s = t % batch;
          return double(x[std::size_t(u * x_batch + s * x_step + r * row_step + c)]) *
                 w[std::size_t(u * w_batch + s * w_step + c)];
        };
        DiagonalCheck<Rows, Lanes> kernel{nullptr, nullptr, nullptr, columns, batch, 0, row_step, x_step, w_step};
        kernel.batches = batches, kernel.x_batch = x_batch, kernel.w_batch = w_batch;
        std::string what = "batches ";   // (one + chain of temporaries set off GCC 12's -Wrestrict false alarm)
        what += std::to_string(batches) + " of " + std::to_string(batch);
        check_diagonal_sums(device, run, kernel, x, w, batches * batch, product, what);
      }
}

// Every diagonal-fragment check (check_diagonal_fragment, check_sliding_window, check_fma_batches) for 1 and 3
// rows and 1 and 4 columns an item, on `device` through `run` (the back end's run_diagonal_check_*).
template <class Run>
void check_diagonal_products(const Device& device, Run run) {
  check_diagonal_fragment<1, 1>(device, run);
  check_diagonal_fragment<1, 4>(device, run);
  check_diagonal_fragment<3, 1>(device, run);
  check_diagonal_fragment<3, 4>(device, run);
  check_sliding_window<1, 1>(device, run);
  check_sliding_window<1, 4>(device, run);
  check_sliding_window<3, 1>(device, run);
  check_sliding_window<3, 4>(device, run);
  check_fma_batches<1, 1>(device, run);
  check_fma_batches<1, 4>(device, run);
  check_fma_batches<3, 1>(device, run);
  check_fma_batches<3, 4>(device, run);
}

// DividerCheck over 7 groups against the host's / and %, for divisors from 1 to 2^62; the elements past the
// groups' outputs must keep their poison (a packed block's groups past the launch's must not run).
template <class Run>
void check_divider(const Device& device, Run run) {
  constexpr std::int64_t groups = 7, outputs = groups * 24 * 2, poison = -77;
  Queue q(device);
  for (std::int64_t d : {std::int64_t(1), std::int64_t(2), std::int64_t(3), std::int64_t(7), std::int64_t(24),
                         std::int64_t(1000003), std::int64_t(2147483647), (std::int64_t(1) << 32) + 15,
                         std::int64_t(12345678901), (std::int64_t(1) << 62) - 1, std::int64_t(1) << 62}) {
    Buffer<std::int64_t> out(device, outputs + 5 * 24 * 2);
    q.fill(out.data(), poison, std::size_t(out.size()));
    run(q, groups, DividerCheck{out.data(), d});
    const std::vector<std::int64_t> got = out.download(q);
    for (std::int64_t g = 0; g < groups; ++g)
      for (int i = 0; i < 24; ++i) {
        const std::int64_t n = DividerCheck::numerator(g, i), at = (g * 24 + i) * 2;
        ASSERT_EQ(got[std::size_t(at)], n / d) << n << " / " << d;
        ASSERT_EQ(got[std::size_t(at + 1)], n % d) << n << " % " << d;
      }
    for (std::size_t at = outputs; at < got.size(); ++at) ASSERT_EQ(got[at], poison) << "element " << at;
  }
}

}  // namespace portkern::testing
