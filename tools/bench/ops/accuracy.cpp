// accuracy: the spec's 8192 x 10000 scores, k = 10 (327.7 MB), plus k = 1; small: 1024 x 10000.
// Scores uniform [0, 1) (a fixed-seed xorshift: 24-bit grid, so ties occur), labels uniform in [0, D).
// The count is checked exactly against the reference on all rows. The timed call includes the count's
// zeroing fill, as the original's memset in its timed loop; the native twin's timing includes it too.
#include <cstdint>
#include <random>

#include "bench/ops/op_bench.hpp"
#include "ops/accuracy/backends.hpp"
#include "ops/accuracy/reference.hpp"
#include "portkern/ops/accuracy.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace impl = portkern::ops::accuracy_impl;

OpResult run_accuracy(OpContext& ctx, std::int64_t rows, std::int64_t classes, std::int64_t k) {
  Queue& q = ctx.queue;
  std::vector<float> scores(std::size_t(rows * classes));
  std::uint64_t state = 123;
  for (auto& x : scores) {
    state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
    x = float(double((state * 0x2545F4914F6CDD1Dull) >> 40) / 16777216.0);
  }
  std::mt19937 rng(123);
  std::vector<int> labels(static_cast<std::size_t>(rows));
  for (auto& y : labels) y = int(rng() % std::uint32_t(classes));
  Buffer<float> d_scores(q.device(), rows * classes);
  Buffer<int> d_labels(q.device(), rows), count(q.device(), 1);
  d_scores.upload(q, scores);
  d_labels.upload(q, labels);

  OpResult r;
  r.variant = "f32 " + std::to_string(rows) + "x" + std::to_string(classes) + " k" + std::to_string(k);
  r.params = {{"rows", rows}, {"classes", classes}, {"top_k", k}};
  r.bytes = double(rows) * double(classes) * 4 + double(rows) * 4 + 4;
  auto call = [&] { portkern::ops::accuracy(q, rows, classes, k, d_scores.data(), d_labels.data(), count.data()); };
  call();
  const std::vector<int> got = {count.download(q)[0]};
  const int expected = impl::reference(rows, classes, k, scores, labels);
  r.max_error = std::abs(double(got[0] - expected));   // exact count
  r.tolerance = 0;
  ctx.dump(r.variant, r.params, "scores", scores, {rows, classes});
  ctx.dump(r.variant, r.params, "labels", labels, {rows});
  ctx.dump(r.variant, r.params, "count", got, {1});
  r.portable = ctx.time(call);
#if PORTKERN_HAVE_CUDA
  impl::Args a;
  a.rows = rows, a.classes = classes, a.top_k = k, a.scores = d_scores.data(), a.labels = d_labels.data(),
  a.count = count.data();
  a.vectorized = reinterpret_cast<std::uintptr_t>(a.scores) % 16 == 0 && classes % 4 == 0;
  auto native = [&] {
    q.fill(count.data(), 0, 1);
    impl::native_cuda(q, a);
  };
  if (ctx.on_gpu()) {   // the twin's count checked as the portable one's
    native();
    r.max_error = std::max(r.max_error, std::abs(double(count.download(q)[0] - expected)));
  }
  r.native = ctx.time_native(native);
#endif
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(accuracy, false) {
  using namespace portkern::bench::opsuite;
  const std::int64_t rows = ctx.small ? 1024 : 8192;
  return {run_accuracy(ctx, rows, 10000, 10), run_accuracy(ctx, rows, 10000, 1)};
}
