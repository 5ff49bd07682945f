// flip against its reference: every subset of dimensions of odd 1-4-D shapes, extents of 1, rows packed
// several to a group, an empty tensor, and bad arguments.
#include "op_testing.hpp"
#include "ops/flip/reference.hpp"
#include "portkern/ops/flip.hpp"

namespace portkern::testing {
namespace {

template <class T>
void check_flip(const Device& device, std::vector<std::int64_t> shape, std::vector<int> dims) {
  Queue q(device);
  std::int64_t numel = 1;
  for (auto e : shape) numel *= e;
  const auto host = random_vector<T>(std::size_t(numel), 7);
  auto in = to_device(q, host);
  auto out = poisoned<T>(q, numel, poison<T>);
  ops::flip(q, shape, dims, in.data(), out.data());
  auto got = out.download(q);
  got.resize(std::size_t(numel));
  std::ostringstream what;
  for (auto e : shape) what << e << ' ';
  what << "dims";
  for (int d : dims) what << ' ' << d;
  EXPECT_TRUE(all_equal(got, ops::flip_impl::reference<T>(shape, dims, host))) << what.str();
}

PORTKERN_OP_TEST(Flip, EverySubsetOfDimensions) {
  // {3, 7, 256}, {5, 768}: rows a multiple of the group's 256 items and shorter than its chunk, packed
  // several to a group (also across a partial last group); 5000: a row of two chunks.
  const std::vector<std::vector<std::int64_t>> shapes = {{1},         {1031},      {5000},     {7, 1},
                                                         {3, 1029},   {5, 768},    {3, 7, 256}, {5, 1, 13, 257},
                                                         {2, 3, 5, 7}};
  for (const auto& shape : shapes) {
    const int rank = int(shape.size());
    for (int mask = 0; mask < (1 << rank); ++mask) {
      std::vector<int> dims;
      for (int k = 0; k < rank; ++k)
        if (mask & (1 << k)) dims.push_back(k);
      check_flip<float>(device, shape, dims);
    }
  }
  // Rows that fill a group's elements exactly (1024 x 4, 2048 x 2, 4096: whole groups and whole chunks, no
  // checks) and rows that do not (1536 x 2, 768 x 5 of 4096: the CPU repeats a group's last run), with a
  // partial last group, reversed and not, in both element types.
  const std::vector<std::vector<std::int64_t>> packed = {{9, 1024}, {3, 2048}, {3, 4096}, {2, 8193},
                                                         {11, 1536}, {21, 768}};
  for (const auto& shape : packed)
    for (const std::vector<int>& dims : std::vector<std::vector<int>>{{0}, {1}, {0, 1}}) {
      check_flip<float>(device, shape, dims);
      check_flip<double>(device, shape, dims);
    }
  check_flip<double>(device, {17, 1025, 3}, {0, 1, 2});
  check_flip<double>(device, {4, 9, 11}, {2, 0});
}

PORTKERN_OP_TEST(Flip, EmptyTensorReturnsAtOnce) {
  Queue q(device);
  const std::vector<std::int64_t> shape = {4, 0, 3};
  const std::vector<int> dims = {0};
  ops::flip(q, shape, dims, static_cast<const float*>(nullptr), static_cast<float*>(nullptr));
}

PORTKERN_OP_TEST(Flip, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<float> in(device, 8), out(device, 8);
  const std::vector<std::int64_t> shape = {2, 4}, negative = {2, -4}, too_long(9, 1);
  const std::vector<int> ok = {1}, out_of_range = {2}, repeated = {1, 1};
  EXPECT_PORTKERN_ERROR(ops::flip(q, negative, ok, in.data(), out.data()), "shape[1] = -4");
  EXPECT_PORTKERN_ERROR(ops::flip(q, too_long, ok, in.data(), out.data()), "shape.size() = 9");
  EXPECT_PORTKERN_ERROR(ops::flip(q, shape, out_of_range, in.data(), out.data()), "dims[0] = 2");
  EXPECT_PORTKERN_ERROR(ops::flip(q, shape, repeated, in.data(), out.data()), "dims[1] = 1");
  EXPECT_PORTKERN_ERROR(ops::flip(q, shape, ok, static_cast<const float*>(nullptr), out.data()), "in");
}

}  // namespace
}  // namespace portkern::testing
