// concat against its reference (exact: a copy): odd shapes on the scalar path, the 16-byte vector path,
// rows shorter and longer than a group's step, a partial last group, one empty input (null pointer), a
// misaligned pointer (scalar fallback), an empty output, and bad arguments.
#include "op_testing.hpp"
#include "ops/concat/reference.hpp"
#include "portkern/ops/concat.hpp"

namespace portkern::testing {
namespace {

void check_concat(const Device& device, std::int64_t outer, std::int64_t mid1, std::int64_t mid2, std::int64_t inner,
                  int misalign = 0) {
  Queue q(device);
  const std::int64_t n1 = outer * mid1 * inner, n2 = outer * mid2 * inner, n = n1 + n2;
  const auto h1 = random_vector<float>(std::size_t(n1), 3), h2 = random_vector<float>(std::size_t(n2), 4);
  std::vector<float> p1(std::size_t(misalign), 0.5f), p2 = p1;
  p1.insert(p1.end(), h1.begin(), h1.end());
  p2.insert(p2.end(), h2.begin(), h2.end());
  auto in1 = to_device(q, p1), in2 = to_device(q, p2);
  auto out = poisoned<float>(q, n + 1, poison<float>);
  ops::concat(q, outer, mid1, mid2, inner, mid1 ? in1.data() + misalign : nullptr,
              mid2 ? in2.data() + misalign : nullptr, out.data());
  auto got = out.download(q);
  EXPECT_TRUE(std::isnan(got[std::size_t(n)])) << "wrote past the end";
  got.resize(std::size_t(n));
  EXPECT_TRUE(all_equal(got, ops::concat_impl::reference(outer, mid1, mid2, inner, h1, h2)))
      << outer << ' ' << mid1 << ' ' << mid2 << ' ' << inner << " misalign " << misalign;
}

PORTKERN_OP_TEST(Concat, ScalarAndVectorPaths) {
  check_concat(device, 1, 1, 1, 1);
  check_concat(device, 3, 5, 7, 3);      // scalar: rows of 36, in1 part of 15
  check_concat(device, 7, 3, 2, 4);      // vectors, rows much shorter than a step
  check_concat(device, 2, 1, 3, 1);      // one-element rows of in1
  check_concat(device, 3, 2, 6, 4);      // len1 = 8, len2 = 24: vectors
  check_concat(device, 2, 3, 1, 2);      // len1 = 6: scalar
  check_concat(device, 3, 37, 70, 12);   // rows of 1284 > a step of 1024, partial last group
  check_concat(device, 2, 1031, 2, 1);   // long scalar rows
  check_concat(device, 3, 1, 1, 256);    // rows of 512: a whole number of steps on the CPU (aligned case)
  check_concat(device, 3, 75, 53, 4);    // ... with in1's part ending inside a step
  check_concat(device, 3, 257, 255, 1);  // ... one element of in1 in the second step
  check_concat(device, 5, 3, 5, 256);    // rows of 2048: aligned on CUDA too, a partial last group
  check_concat(device, 3, 5, 7, 4, 1);   // misaligned: scalar fallback
}

PORTKERN_OP_TEST(Concat, OneInputEmpty) {
  check_concat(device, 4, 0, 5, 8);
  check_concat(device, 4, 5, 0, 3);
}

PORTKERN_OP_TEST(Concat, EmptyOutputReturnsAtOnce) {
  Queue q(device);
  ops::concat(q, 0, 3, 4, 5, nullptr, nullptr, nullptr);
  ops::concat(q, 2, 0, 0, 5, nullptr, nullptr, nullptr);
  ops::concat(q, 2, 3, 4, 0, nullptr, nullptr, nullptr);
}

PORTKERN_OP_TEST(Concat, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<float> a(device, 64), b(device, 64), out(device, 128);
  EXPECT_PORTKERN_ERROR(ops::concat(q, -1, 2, 2, 2, a.data(), b.data(), out.data()), "outer = -1");
  EXPECT_PORTKERN_ERROR(ops::concat(q, 2, -2, 2, 2, a.data(), b.data(), out.data()), "mid1 = -2");
  EXPECT_PORTKERN_ERROR(ops::concat(q, 2, 2, -3, 2, a.data(), b.data(), out.data()), "mid2 = -3");
  EXPECT_PORTKERN_ERROR(ops::concat(q, 2, 2, 2, -4, a.data(), b.data(), out.data()), "inner = -4");
  EXPECT_PORTKERN_ERROR(ops::concat(q, 2, 2, 2, 2, nullptr, b.data(), out.data()), "in1");
  EXPECT_PORTKERN_ERROR(ops::concat(q, 2, 2, 2, 2, a.data(), nullptr, out.data()), "in2");
  EXPECT_PORTKERN_ERROR(ops::concat(q, 2, 2, 2, 2, a.data(), b.data(), nullptr), "out");
}

}  // namespace
}  // namespace portkern::testing
