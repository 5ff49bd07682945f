// dense_embedding against its float64 reference: D of 1, 3 (scalar path), 4, 8, 130, 516 (vector path over
// more than one pass), 256, 257, 771 (the CPU's whole steps of a row, with and without a partial last one),
// empty batches, a single batch, offsets[0] > 0 and offsets[B] < total (the elements outside must keep their
// poison), misaligned pointers (scalar fallback), in place, no rows, bad offsets.
// Tolerance: out is one float rounding of a + b with |a + b| < 2, so |out - exact| <= 2^-23 ~ 1.2e-7.
#include <random>

#include "op_testing.hpp"
#include "ops/dense_embedding/reference.hpp"
#include "portkern/ops/dense_embedding.hpp"

namespace portkern::testing {
namespace {

constexpr double tolerance = 2e-7;

// offsets from row counts per batch, starting at `first` rows.
std::vector<std::int64_t> offsets_of(const std::vector<std::int64_t>& rows, std::int64_t dim, std::int64_t first = 0) {
  std::vector<std::int64_t> off = {first * dim};
  for (auto r : rows) off.push_back(off.back() + r * dim);
  return off;
}

void check_dense(const Device& device, const std::vector<std::int64_t>& rows, std::int64_t dim, std::int64_t first = 0,
                 std::int64_t tail = 0, std::int64_t misalign = 0, bool in_place = false) {
  Queue q(device);
  const auto off = offsets_of(rows, dim, first);
  const std::int64_t batches = std::int64_t(rows.size()), total = off.back() + tail;
  const auto input = random_vector<float>(std::size_t(total + misalign), unsigned(total + dim));
  const auto dense = random_vector<float>(std::size_t(batches * dim + misalign), unsigned(dim));
  auto d_off = to_device(q, off);
  auto d_in = to_device(q, input);
  auto d_dense = to_device(q, dense);
  auto d_out = poisoned<float>(q, total + misalign, poison<float>);
  float* out = in_place ? d_in.data() + misalign : d_out.data() + misalign;
  ops::dense_embedding(q, off, dim, total, d_off.data(), d_in.data() + misalign, d_dense.data() + misalign, out);
  auto got = (in_place ? d_in : d_out).download(q);
  got.erase(got.begin(), got.begin() + misalign);
  got.resize(std::size_t(total));
  const std::span<const float> x(input.data() + misalign, std::size_t(total));
  const std::vector<float> untouched = in_place ? std::vector<float>(x.begin(), x.end())
                                                : std::vector<float>(std::size_t(total), poison<float>);
  const auto want = ops::dense_embedding_impl::reference(
      off, dim, x, std::span<const float>(dense.data() + misalign, std::size_t(batches * dim)), untouched);
  EXPECT_TRUE(all_close(got, want, tolerance)) << "B " << batches << " D " << dim << " first " << first << " tail "
                                               << tail << " misalign " << misalign << (in_place ? " in place" : "");
}

PORTKERN_OP_TEST(DenseEmbedding, MatchesReference) {
  check_dense(device, {3, 1, 4}, 1);
  check_dense(device, {2, 0, 5, 0, 0, 1}, 3);
  check_dense(device, {7}, 4);
  check_dense(device, {1, 2, 3, 4, 5, 6, 7, 8, 9}, 8);
  check_dense(device, {0, 13, 2, 0}, 130);
  check_dense(device, {3, 5}, 516);
  check_dense(device, {2, 3}, 256);   // the CPU's steps of 256 elements: whole steps only
  check_dense(device, {1, 2}, 257);   // and a last step of 1 element
  check_dense(device, {4, 1}, 771);
  std::mt19937 rng(5);   // a ragged batch of 37 with lengths 1..37, as the spec draws them
  std::vector<std::int64_t> ragged(37);
  for (auto& r : ragged) r = std::int64_t(rng() % 37 + 1);
  check_dense(device, ragged, 12);
}

PORTKERN_OP_TEST(DenseEmbedding, OutsideTheOffsetsIsUntouched) {
  check_dense(device, {2, 3}, 8, 3, 19);
  check_dense(device, {4, 0, 1}, 5, 2, 7);
}

PORTKERN_OP_TEST(DenseEmbedding, MisalignedAndInPlace) {
  check_dense(device, {3, 2, 6}, 8, 0, 0, 1);
  check_dense(device, {3, 2, 6}, 16, 1, 5, 0, true);
  check_dense(device, {1, 4}, 7, 0, 3, 2, true);
}

PORTKERN_OP_TEST(DenseEmbedding, NoRowsReturnAtOnce) {
  Queue q(device);
  const std::vector<std::int64_t> none = {0}, empty_batches = {8, 8, 8};
  ops::dense_embedding(q, none, 4, 0, nullptr, nullptr, nullptr, nullptr);
  ops::dense_embedding(q, empty_batches, 4, 8, nullptr, nullptr, nullptr, nullptr);
}

PORTKERN_OP_TEST(DenseEmbedding, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<float> x(device, 64), dense(device, 64), out(device, 64);
  Buffer<std::int64_t> d_off(device, 8);
  const auto call = [&](std::vector<std::int64_t> off, std::int64_t dim, std::int64_t total) {
    ops::dense_embedding(q, off, dim, total, d_off.data(), x.data(), dense.data(), out.data());
  };
  EXPECT_PORTKERN_ERROR(call({}, 4, 64), "offsets.size() = 0");
  EXPECT_PORTKERN_ERROR(call({0, 8}, 0, 64), "dim = 0");
  EXPECT_PORTKERN_ERROR(call({0, 8}, 4, -1), "total = -1");
  EXPECT_PORTKERN_ERROR(call({-4, 8}, 4, 64), "offsets[0] = -4");
  EXPECT_PORTKERN_ERROR(call({0, 8, 4}, 4, 64), "offsets[2] = 4");
  EXPECT_PORTKERN_ERROR(call({0, 6}, 4, 64), "offsets[1] = 6");
  EXPECT_PORTKERN_ERROR(call({0, 8, 68}, 4, 64), "offsets[2] = 68");
  const std::vector<std::int64_t> ok = {0, 8};
  EXPECT_PORTKERN_ERROR(ops::dense_embedding(q, ok, 4, 64, d_off.data(), x.data(), nullptr, out.data()), "dense");
}

}  // namespace
}  // namespace portkern::testing
