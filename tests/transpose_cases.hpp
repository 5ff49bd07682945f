// The transpose's test cases, run on any device: odd and prime shapes, padded leading dimensions, outputs
// poisoned, exact comparison (a transpose moves values).
#pragma once

#include "testing.hpp"

namespace portkern::testing {

inline void check_transpose(const Device& device, std::int64_t rows, std::int64_t cols, std::int64_t pad_in,
                            std::int64_t pad_out) {
  Queue q(device);
  const std::int64_t ld_in = cols + pad_in, ld_out = rows + pad_out;
  const auto host_in = random_vector<float>(std::size_t(rows * ld_in), unsigned(rows * 7919 + cols));
  Buffer<float> in(device, rows * ld_in), out(device, cols * ld_out);
  in.upload(q, host_in);
  q.fill(out.data(), poison<float>, out.size());
  transpose(q, rows, cols, in.data(), ld_in, out.data(), ld_out);
  const auto got = out.download(q);
  for (std::int64_t c = 0; c < cols; ++c) {
    for (std::int64_t r = 0; r < rows; ++r)
      ASSERT_EQ(got[c * ld_out + r], host_in[r * ld_in + c]) << "rows " << rows << " cols " << cols << " at " << r << "," << c;
    for (std::int64_t r = rows; r < ld_out; ++r) ASSERT_TRUE(std::isnan(got[c * ld_out + r])) << "padding written";
  }
}

inline void check_transpose_shapes(const Device& device) {
  const std::int64_t shapes[][2] = {{1, 1}, {1, 37}, {37, 1}, {31, 33}, {32, 32}, {97, 131}, {257, 64}, {1000, 3}};
  for (auto [rows, cols] : shapes) {
    check_transpose(device, rows, cols, 0, 0);
    check_transpose(device, rows, cols, 5, 3);
  }
}

inline void check_transpose_errors(const Device& device) {
  Queue q(device);
  Buffer<float> a(device, 64), b(device, 64);
  EXPECT_PORTKERN_ERROR(transpose(q, -1, 4, a.data(), 4, b.data(), 4), "argument rows = -1");
  EXPECT_PORTKERN_ERROR(transpose(q, 4, -2, a.data(), 4, b.data(), 4), "argument cols = -2");
  EXPECT_PORTKERN_ERROR(transpose(q, 4, 8, a.data(), 7, b.data(), 4), "argument ld_in = 7 must be >= max(1, cols) = 8");
  EXPECT_PORTKERN_ERROR(transpose(q, 8, 4, a.data(), 4, b.data(), 7), "argument ld_out = 7 must be >= max(1, rows) = 8");
  EXPECT_PORTKERN_ERROR(transpose(q, 4, 4, nullptr, 4, b.data(), 4), "argument in = nullptr");
  EXPECT_PORTKERN_ERROR(transpose(q, 4, 4, a.data(), 4, nullptr, 4), "argument out = nullptr");
  transpose(q, 0, 4, nullptr, 4, nullptr, 1);   // empty: returns at once
}

}  // namespace portkern::testing
