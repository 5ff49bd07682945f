// accuracy against its exact reference: prime class counts (scalar path), classes % 4 == 0 (vector path
// with several phases), the CPU's whole steps of columns with and without a partial last one, an unaligned
// scores pointer, heavy ties (scores on a grid of 4 values, so the column-order tie rule decides), k = 1 and
// k = classes, labels at both ends and out of range, NaN, and bad arguments.
#include <cmath>

#include "op_testing.hpp"
#include "ops/accuracy/reference.hpp"
#include "portkern/ops/accuracy.hpp"

namespace portkern::testing {
namespace {

namespace impl = ops::accuracy_impl;

struct Data {
  std::vector<float> scores;
  std::vector<int> labels;
};

Data make_data(std::int64_t rows, std::int64_t classes, unsigned seed, bool ties) {
  Data d;
  d.scores = random_vector<float>(std::size_t(rows * classes), seed);
  if (ties)
    for (auto& x : d.scores) x = std::round(x * 2) / 2;   // 5 values: {-1, -0.5, 0, 0.5, 1}
  std::mt19937 rng(seed + 1);
  d.labels.resize(std::size_t(rows));
  for (auto& y : d.labels) y = int(rng() % std::uint32_t(classes));
  return d;
}

int run(const Device& device, std::int64_t rows, std::int64_t classes, std::int64_t k, const Data& d,
        std::int64_t shift = 0) {
  Queue q(device);
  std::vector<float> shifted(std::size_t(shift), 0.f);
  shifted.insert(shifted.end(), d.scores.begin(), d.scores.end());
  auto scores = to_device(q, shifted);
  auto labels = to_device(q, d.labels);
  auto count = poisoned<int>(q, 1, -777);
  ops::accuracy(q, rows, classes, k, scores.data() + shift, labels.data(), count.data());
  return count.download(q)[0];
}

void check(const Device& device, std::int64_t rows, std::int64_t classes, std::int64_t k, const Data& d,
           std::int64_t shift = 0) {
  const int expected = impl::reference(rows, classes, k, d.scores, d.labels);
  EXPECT_EQ(run(device, rows, classes, k, d, shift), expected)
      << rows << " x " << classes << " k " << k << " shift " << shift;
}

PORTKERN_OP_TEST(Accuracy, MatchesReference) {
  for (bool ties : {false, true}) {
    const auto prime = make_data(37, 1031, 1, ties);        // scalar path
    for (std::int64_t k : {1, 2, 10, 517, 1031}) check(device, 37, 1031, k, prime);
    const auto wide = make_data(9, 4100, 2, ties);          // vector path, 2 phases, 1 tail vector
    for (std::int64_t k : {1, 5, 2050}) check(device, 9, 4100, k, wide);
    check(device, 9, 4100, 3, wide, 1);                     // unaligned: scalar path
    const auto narrow = make_data(5, 3, 3, ties);           // fewer classes than items
    for (std::int64_t k : {1, 2, 3}) check(device, 5, 3, k, narrow);
    const auto steps = make_data(7, 2048, 4, ties);         // the CPU's whole steps of 1024 only
    for (std::int64_t k : {1, 10, 1024}) check(device, 7, 2048, k, steps);
    auto one_more = make_data(6, 1025, 5, ties);            // one step and a last one of 1 column
    one_more.labels = {1024, 0, 1023, 1024, 512, 1};        // labels in the last step, at both ends
    for (std::int64_t k : {1, 3, 600}) check(device, 6, 1025, k, one_more);
  }
}

PORTKERN_OP_TEST(Accuracy, TieRuleUsesColumnOrder) {
  // Row 0: all equal, label 2 -> rank 3. Row 1: all equal, label 0 -> rank 1. Row 2: label 3 beaten by 1.
  Data d{{1, 1, 1, 1, 1, 1, 1, 1, 0.5f, 2, 0.5f, 0.5f}, {2, 0, 3}};
  EXPECT_EQ(run(device, 3, 4, 1, d), 1);   // only row 1
  EXPECT_EQ(run(device, 3, 4, 2, d), 1);   // row 2: rank = 1 (the 2) + 3 (ties at columns 0, 2, 3) = 4
  EXPECT_EQ(run(device, 3, 4, 3, d), 2);
  EXPECT_EQ(run(device, 3, 4, 4, d), 3);
}

PORTKERN_OP_TEST(Accuracy, BadLabelsAndNaN) {
  Data d = make_data(6, 8, 4, false);
  d.labels[0] = -1;
  d.labels[1] = 8;
  d.scores[2 * 8 + std::size_t(d.labels[2])] = NAN;   // NaN label score: rank 0, counted as correct
  d.scores[3 * 8 + std::size_t((d.labels[3] + 1) % 8)] = NAN;   // NaN elsewhere: never ahead
  for (std::int64_t k : {1, 4, 8}) check(device, 6, 8, k, d);
  EXPECT_LE(run(device, 6, 8, 8, d), 4);   // the two bad labels never count
}

PORTKERN_OP_TEST(Accuracy, NoRowsGiveZero) {
  Queue q(device);
  auto count = poisoned<int>(q, 1, -777);
  ops::accuracy(q, 0, 10, 3, nullptr, nullptr, count.data());
  EXPECT_EQ(count.download(q)[0], 0);
}

PORTKERN_OP_TEST(Accuracy, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<float> scores(device, 12);
  Buffer<int> labels(device, 3), count(device, 1);
  EXPECT_PORTKERN_ERROR(ops::accuracy(q, 3, 4, 0, scores.data(), labels.data(), count.data()), "top_k = 0");
  EXPECT_PORTKERN_ERROR(ops::accuracy(q, 3, 4, 5, scores.data(), labels.data(), count.data()), "top_k = 5");
  EXPECT_PORTKERN_ERROR(ops::accuracy(q, 3, 0, 1, scores.data(), labels.data(), count.data()), "classes = 0");
  EXPECT_PORTKERN_ERROR(ops::accuracy(q, -2, 4, 1, scores.data(), labels.data(), count.data()), "rows = -2");
  EXPECT_PORTKERN_ERROR(ops::accuracy(q, 3, 4, 1, nullptr, labels.data(), count.data()), "scores");
  EXPECT_PORTKERN_ERROR(ops::accuracy(q, 3, 4, 1, scores.data(), labels.data(), nullptr), "count");
}

}  // namespace
}  // namespace portkern::testing
