// What a generated deployment header (deploy/<device-class>/<op>.hpp) needs: the problem it decides on and
// a record of the path it took through its decision tree, so `portkern select` can show why.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace portkern::deploy {

// A GEMM-shaped problem: C (m x n) = op(A) (m x k) * op(B) (k x n), `batch` times.
struct Problem {
  std::int64_t m = 1, n = 1, k = 1, batch = 1;
  bool trans_a = false, trans_b = false;
};

// A convolution (NHWC input, RSCK filter; see portkern/dnn.hpp): what a conv2d deployment decides on.
struct ConvProblem {
  std::int64_t batch = 1, in_h = 1, in_w = 1, in_c = 1, out_h = 1, out_w = 1, out_c = 1;
  std::int64_t window_h = 1, window_w = 1, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
};

// The tests a decision tree made, in order, e.g. "log2_m=9.61>7.50 log2_k=3.00<=4.25".
class Path {
 public:
  void note(std::string_view feature, double value, double threshold, bool less_equal) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s%.*s=%.2f%s%.2f", text_.empty() ? "" : " ", int(feature.size()),
                  feature.data(), value, less_equal ? "<=" : ">", threshold);
    text_ += buf;
  }
  const std::string& str() const { return text_; }

 private:
  std::string text_;
};

// One node of a generated tree: is `value` <= `threshold`? Records the test when a path is asked for.
inline bool le(Path* path, std::string_view feature, double value, double threshold) {
  const bool result = value <= threshold;
  if (path) path->note(feature, value, threshold, result);
  return result;
}

}  // namespace portkern::deploy
