// gd against its float64 reference over several iterations (x carried by both), on small gisette-like data
// sets with row counts / columns that are not multiples of 8 groups or 32 lanes, empty rows and columns,
// long rows (many lanes' worth of nonzeros), rows of whole CPU blocks of nonzeros, determinism (two runs
// bit-identical), the host transpose, and bad arguments.
#include "op_testing.hpp"
#include "ops/gd/dataset.hpp"
#include "ops/gd/reference.hpp"
#include "portkern/ops/gd.hpp"

namespace portkern::testing {
namespace {

struct DeviceProblem {
  Buffer<std::int64_t> row_ptr, t_row_ptr;
  Buffer<std::int32_t> col_idx, t_col_idx;
  Buffer<float> values, t_values, labels;
  ops::GdMatrix A;
};

DeviceProblem upload(Queue& q, const ops::gd_impl::Dataset& d) {
  const auto t = ops::gd_transpose(d.rows, d.cols, d.row_ptr, d.col_idx, d.values);
  DeviceProblem p{to_device(q, d.row_ptr), to_device(q, t.row_ptr), to_device(q, d.col_idx), to_device(q, t.col_idx),
                  to_device(q, d.values),  to_device(q, t.values),  to_device(q, d.labels), {}};
  p.A = {d.rows, d.cols, std::int64_t(d.values.size()), p.row_ptr.data(), p.col_idx.data(), p.values.data(),
         p.t_row_ptr.data(), p.t_col_idx.data(), p.t_values.data()};
  return p;
}

// Tolerances: after a few steps |x| ~ 1, |z| <= |x| (unit rows); float z, r, the sums over <= 600 terms
// and the update carry ~1e-6 relative error per step, compounding over 6 steps: 1e-5 on x (absolute, plus
// relative) and on the objective. The error is a count: exact except for rows whose z is within float
// rounding of 0 (counted by the reference).
void check_gd(const Device& device, std::int64_t rows, std::int64_t cols, std::int64_t min_nnz, std::int64_t max_nnz,
              int steps, float lambda = 1e-4f, float alpha = 10.f) {
  Queue q(device);
  const auto d = ops::gd_impl::make_dataset(rows, cols, min_nnz, max_nnz, 5);
  auto p = upload(q, d);
  auto x = poisoned<float>(q, cols, 0.f);
  auto stats = poisoned<float>(q, 2, poison<float>);
  auto work = poisoned<float>(q, ops::gd_workspace_size(rows, cols), poison<float>);
  std::vector<double> xr(std::size_t(cols), 0.0);
  for (int s = 0; s < steps; ++s) {
    ops::gd_step(q, p.A, p.labels.data(), lambda, alpha, x.data(), stats.data(), work.data());
    const auto want = ops::gd_impl::reference_step(rows, cols, d.row_ptr, d.col_idx, d.values, d.labels, lambda, alpha, xr);
    const auto got = stats.download(q);
    const std::string what = "m " + std::to_string(rows) + " n " + std::to_string(cols) + " step " + std::to_string(s);
    EXPECT_NEAR(got[0], want.objective, 1e-5 * (1 + want.objective)) << what;
    EXPECT_LE(std::abs(got[1] - want.error), (double(want.near_zero) + 0.5) / double(rows) + 1e-7) << what;
    auto gx = x.download(q);
    gx.resize(std::size_t(cols));
    EXPECT_TRUE(all_close(gx, xr, 1e-5, 1e-5)) << what;
  }
}

PORTKERN_OP_TEST(Gd, SeveralStepsOddSizes) {
  check_gd(device, 1, 1, 1, 1, 3);
  check_gd(device, 97, 53, 3, 40, 6);       // ragged rows, < 32 lanes and > 32 lanes
  check_gd(device, 203, 1031, 150, 600, 4);   // long rows (up to 19 nonzeros per lane), a few empty columns
  check_gd(device, 19, 300, 128, 128, 3);     // the CPU's blocks of 128 nonzeros: one whole block per row
  check_gd(device, 26, 400, 256, 257, 3);     // two whole blocks, with or without one nonzero more
}

PORTKERN_OP_TEST(Gd, EmptyRowsAndColumns) {
  check_gd(device, 41, 300, 0, 3, 4);      // many empty rows (z = 0) and empty columns (decay only)
  check_gd(device, 13, 5, 0, 5, 3, 0.5f, 1.f);   // strong regularisation
}

PORTKERN_OP_TEST(Gd, Deterministic) {
  Queue q(device);
  const auto d = ops::gd_impl::make_dataset(301, 257, 50, 200, 9);
  auto p = upload(q, d);
  auto work = poisoned<float>(q, ops::gd_workspace_size(301, 257), poison<float>);
  std::vector<std::vector<float>> xs, ss;
  for (int run = 0; run < 2; ++run) {
    auto x = poisoned<float>(q, 257, 0.f);
    auto stats = poisoned<float>(q, 2, poison<float>);
    for (int s = 0; s < 3; ++s) ops::gd_step(q, p.A, p.labels.data(), 1e-4f, 10.f, x.data(), stats.data(), work.data());
    xs.push_back(x.download(q));
    ss.push_back(stats.download(q));
  }
  EXPECT_TRUE(all_equal(xs[0], xs[1]));
  EXPECT_TRUE(all_equal(ss[0], ss[1]));
}

PORTKERN_OP_TEST(Gd, TransposeAndBadArguments) {
  // [[1 0 2] [0 0 0] [0 3 0]] -> columns {0: (0, 1)}, {1: (2, 3)}, {2: (0, 2)}
  const std::vector<std::int64_t> rp = {0, 2, 2, 3};
  const std::vector<std::int32_t> ci = {0, 2, 1};
  const std::vector<float> v = {1, 2, 3};
  const auto t = ops::gd_transpose(3, 3, rp, ci, v);
  EXPECT_EQ(t.row_ptr, (std::vector<std::int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(t.col_idx, (std::vector<std::int32_t>{0, 2, 0}));
  EXPECT_EQ(t.values, (std::vector<float>{1, 3, 2}));
  const std::vector<std::int32_t> bad_col = {0, 3, 1};
  EXPECT_PORTKERN_ERROR(ops::gd_transpose(3, 3, rp, bad_col, v), "col_idx[1] = 3");
  const std::vector<std::int64_t> bad_rp = {0, 2, 1, 3};
  EXPECT_PORTKERN_ERROR(ops::gd_transpose(3, 3, bad_rp, ci, v), "row_ptr[2] = 1");

  Queue q(device);
  Buffer<float> f(device, 16);
  Buffer<std::int64_t> i64(device, 4);
  Buffer<std::int32_t> i32(device, 4);
  ops::GdMatrix A{3, 3, 3, i64.data(), i32.data(), f.data(), i64.data(), i32.data(), f.data()};
  auto call = [&](ops::GdMatrix a, float* x) { ops::gd_step(q, a, f.data(), 1e-4f, 10.f, x, f.data(), f.data()); };
  ops::GdMatrix no_rows = A, no_cols = A, negative = A, no_ptr = A;
  no_rows.rows = 0;
  no_cols.cols = 0;
  negative.nnz = -1;
  no_ptr.t_row_ptr = nullptr;
  EXPECT_PORTKERN_ERROR(call(no_rows, f.data()), "A.rows = 0");
  EXPECT_PORTKERN_ERROR(call(no_cols, f.data()), "A.cols = 0");
  EXPECT_PORTKERN_ERROR(call(negative, f.data()), "A.nnz = -1");
  EXPECT_PORTKERN_ERROR(call(no_ptr, f.data()), "A.t_row_ptr");
  EXPECT_PORTKERN_ERROR(call(A, nullptr), "x");
}

}  // namespace
}  // namespace portkern::testing
