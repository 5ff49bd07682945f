// logprob against its float64 reference: vocabularies that are not multiples of 4 (vector path with a
// scalar tail), odd padding (scalar path), an unaligned logits pointer, several vector phases per row,
// the CPU's whole steps of columns with and without a partial last step, sequences of every length from 1
// to T, large logits (the max subtraction), out-of-range ids, NaN, and bad arguments.
#include <cmath>

#include "op_testing.hpp"
#include "ops/logprob/reference.hpp"
#include "portkern/ops/logprob.hpp"

namespace portkern::testing {
namespace {

namespace impl = ops::logprob_impl;

struct Case {
  std::int64_t batch, steps, vocab, padded;
  std::vector<int> lengths;
  float scale = 6.f, offset = 0.f;
  std::int64_t shift = 0;   // logits start this many floats into the buffer (misaligned when not % 4)
};

struct Data {
  std::vector<float> logits;
  std::vector<int> ids;
};

Data make_data(const Case& c, unsigned seed) {
  Data d;
  d.logits = random_vector<float>(std::size_t(c.batch * c.steps * c.padded), seed);
  for (auto& x : d.logits) x = x * c.scale + c.offset;
  std::mt19937 rng(seed + 1);
  d.ids.resize(std::size_t(c.batch * c.steps));
  for (auto& id : d.ids) id = int(rng() % std::uint32_t(c.vocab));
  return d;
}

// Tolerances: float32 log-sum-exp of values of magnitude <= ~10 is good to a few float ulps of the result
// (~1e-6 relative, sums over <= 5000 terms add ~1e-5 relative); cum adds <= T such terms.
void check(const Device& device, const Case& c, Data d) {
  Queue q(device);
  std::vector<float> shifted(std::size_t(c.shift), 0.f);
  shifted.insert(shifted.end(), d.logits.begin(), d.logits.end());
  auto logits = to_device(q, shifted);
  auto ids = to_device(q, d.ids);
  auto lengths = to_device(q, c.lengths);
  auto lp = poisoned<float>(q, c.batch * (c.steps - 1), poison<float>);
  auto cum = poisoned<float>(q, c.batch, poison<float>);
  ops::logprob(q, c.batch, c.steps, c.vocab, c.padded, logits.data() + c.shift, ids.data(), lengths.data(), lp.data(),
               cum.data());
  const auto ref = impl::reference(c.batch, c.steps, c.vocab, c.padded, d.logits, d.ids, c.lengths);
  auto got_lp = lp.download(q);
  got_lp.resize(ref.log_probs.size());
  auto got_cum = cum.download(q);
  got_cum.resize(ref.cum.size());
  const std::string what = "B " + std::to_string(c.batch) + " T " + std::to_string(c.steps) + " V " +
                           std::to_string(c.vocab) + " Vp " + std::to_string(c.padded) + " shift " + std::to_string(c.shift);
  EXPECT_TRUE(all_close(got_lp, ref.log_probs, 1e-4, 2e-5)) << what;
  EXPECT_TRUE(all_close(got_cum, ref.cum, 1e-3, 2e-5)) << what;
}

PORTKERN_OP_TEST(Logprob, MatchesReference) {
  check(device, {3, 5, 37, 40, {5, 1, 3}}, make_data({3, 5, 37, 40, {}}, 1));            // vector path + tail
  check(device, {2, 4, 1031, 1031, {4, 2}}, make_data({2, 4, 1031, 1031, {}}, 2));       // scalar path
  check(device, {2, 3, 5003, 5024, {3, 3}}, make_data({2, 3, 5003, 5024, {}}, 3));       // 2 vector phases
  check(device, {2, 3, 257, 260, {3, 2}, 6.f, 0.f, 1}, make_data({2, 3, 257, 260, {}}, 4));   // unaligned
  check(device, {1, 2, 1, 1, {2}}, make_data({1, 2, 1, 1, {}}, 5));                      // one word: lp = 0
  check(device, {1, 9, 3, 4, {9}}, make_data({1, 9, 3, 4, {}}, 6));                       // fewer columns than items
  // The CPU's steps of 2048 columns: whole steps only, one column past them, several steps plus a tail.
  check(device, {2, 3, 2048, 2048, {3, 2}}, make_data({2, 3, 2048, 2048, {}}, 10));
  check(device, {2, 3, 2049, 2052, {3, 3}}, make_data({2, 3, 2049, 2052, {}}, 11));
  check(device, {3, 4, 6151, 6152, {4, 2, 3}}, make_data({3, 4, 6151, 6152, {}}, 12));
}

PORTKERN_OP_TEST(Logprob, LargeLogitsAreStable) {
  const Case c{2, 4, 999, 1024, {4, 4}, 30.f, 1000.f};   // exp(1000) overflows without the max subtraction
  check(device, c, make_data(c, 7));
}

PORTKERN_OP_TEST(Logprob, SingleStepWritesOnlyZeroSums) {
  const Case c{3, 1, 10, 12, {1, 1, 1}};
  check(device, c, make_data(c, 8));
}

PORTKERN_OP_TEST(Logprob, BadIdsAndNaNGiveNaN) {
  const Case c{2, 4, 64, 64, {4, 4}};
  Data d = make_data(c, 9);
  d.ids[2] = 64;     // b 0, predicts at t = 1: out of range
  d.ids[6] = -1;     // b 1, t = 1
  d.logits[std::size_t((1 * 4 + 2) * 64 + 5)] = NAN;   // b 1, t = 2
  check(device, c, d);   // the reference has the same NaNs (all_close matches NaN with NaN)
  Queue q(device);
  auto logits = to_device(q, d.logits);
  auto ids = to_device(q, d.ids);
  auto lengths = to_device(q, c.lengths);
  auto lp = poisoned<float>(q, 6, 0.f);
  auto cum = poisoned<float>(q, 2, 0.f);
  ops::logprob(q, 2, 4, 64, 64, logits.data(), ids.data(), lengths.data(), lp.data(), cum.data());
  const auto got = lp.download(q);
  EXPECT_TRUE(std::isnan(got[1]) && std::isnan(got[4]) && std::isnan(got[5]) && !std::isnan(got[0]));
}

PORTKERN_OP_TEST(Logprob, EmptyBatchReturnsAtOnce) {
  Queue q(device);
  ops::logprob(q, 0, 4, 10, 12, nullptr, nullptr, nullptr, nullptr, nullptr);
}

PORTKERN_OP_TEST(Logprob, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<float> logits(device, 2 * 3 * 8), lp(device, 4), cum(device, 2);
  Buffer<int> ids(device, 6);
  auto zero = to_device(q, std::vector<int>{3, 0});
  auto long_ = to_device(q, std::vector<int>{4, 3});
  auto fine = to_device(q, std::vector<int>{3, 2});
  EXPECT_PORTKERN_ERROR(ops::logprob(q, 2, 3, 8, 8, logits.data(), ids.data(), zero.data(), lp.data(), cum.data()),
                        "lengths[1] = 0");
  EXPECT_PORTKERN_ERROR(ops::logprob(q, 2, 3, 8, 8, logits.data(), ids.data(), long_.data(), lp.data(), cum.data()),
                        "lengths[0] = 4");
  EXPECT_PORTKERN_ERROR(ops::logprob(q, -1, 3, 8, 8, logits.data(), ids.data(), fine.data(), lp.data(), cum.data()),
                        "batch = -1");
  EXPECT_PORTKERN_ERROR(ops::logprob(q, 2, 0, 8, 8, logits.data(), ids.data(), fine.data(), lp.data(), cum.data()),
                        "steps = 0");
  EXPECT_PORTKERN_ERROR(ops::logprob(q, 2, 3, 0, 8, logits.data(), ids.data(), fine.data(), lp.data(), cum.data()),
                        "vocab = 0");
  EXPECT_PORTKERN_ERROR(ops::logprob(q, 2, 3, 9, 8, logits.data(), ids.data(), fine.data(), lp.data(), cum.data()),
                        "padded_vocab = 8");
  EXPECT_PORTKERN_ERROR(ops::logprob(q, 2, 3, 8, 8, nullptr, ids.data(), fine.data(), lp.data(), cum.data()),
                        "logits");
}

}  // namespace
}  // namespace portkern::testing
