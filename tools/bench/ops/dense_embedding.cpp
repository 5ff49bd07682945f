// dense_embedding: the spec's B = 256 batches of rand() % B + 1 rows (fixed-seed mt19937 here), a table of
// nrows = 100000 rows (the input buffer; rows past offsets[B] stay untouched), D in {768, 2048, 12288},
// values uniform in [-1, 1]. Small: B = 64, nrows = 5000. Checked against the float64 reference on the rows
// the offsets cover (one float rounding: tolerance 2^-23 ~ 1.2e-7 for |sum| < 2; 2e-7 used).
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "bench/ops/op_bench.hpp"
#include "ops/dense_embedding/backends.hpp"
#include "ops/dense_embedding/plan.hpp"
#include "portkern/ops/dense_embedding.hpp"
#include "portkern/runtime/buffer.hpp"

PORTKERN_OP_BENCH(dense_embedding, false) {
  using namespace portkern::bench::opsuite;
  using namespace portkern;
  namespace impl = portkern::ops::dense_embedding_impl;
  Queue& q = ctx.queue;
  const std::int64_t batches = ctx.small ? 64 : 256, nrows = ctx.small ? 5000 : 100000;
  std::mt19937 rng(static_cast<unsigned>(batches));
  std::vector<std::int64_t> lengths(static_cast<std::size_t>(batches));
  for (auto& l : lengths) l = std::int64_t(rng() % std::uint32_t(batches) + 1);
  std::int64_t used_rows = 0;
  for (auto l : lengths) used_rows += l;

  std::vector<OpResult> results;
  for (const std::int64_t dim : {768, 2048, 12288}) {
    std::vector<std::int64_t> offsets = {0};
    for (auto l : lengths) offsets.push_back(offsets.back() + l * dim);
    const std::int64_t total = nrows * dim, used = offsets.back();
    std::uniform_real_distribution<float> value(-1.f, 1.f);
    std::vector<float> input(static_cast<std::size_t>(used)), dense(static_cast<std::size_t>(batches * dim));
    for (auto& x : input) x = value(rng);
    for (auto& x : dense) x = value(rng);
    Buffer<float> d_in(q.device(), total), d_dense(q.device(), batches * dim), d_out(q.device(), total);
    Buffer<std::int64_t> d_off(q.device(), batches + 1);
    d_in.upload(q, input);   // rows past `used` are never read
    d_dense.upload(q, dense);
    d_off.upload(q, offsets);
    const std::string variant = "f32 B" + std::to_string(batches) + " rows" + std::to_string(used_rows) + " D" +
                                std::to_string(dim);
    const nlohmann::json params = {{"batches", batches}, {"dim", dim}, {"nrows", nrows}, {"lengths", lengths}};
    const auto call = [&] {
      ops::dense_embedding(q, offsets, dim, total, d_off.data(), d_in.data(), d_dense.data(), d_out.data());
    };
    OpResult r;
    r.variant = variant;
    r.params = params;
    r.bytes = 4.0 * (2.0 * double(used) + double(batches * dim));
    const auto error = [&] {
      auto got = d_out.download(q);
      double e = 0;
      for (std::int64_t b = 0; b < batches; ++b)
        for (std::int64_t i = offsets[std::size_t(b)]; i < offsets[std::size_t(b) + 1]; ++i) {
          const double d = std::abs(double(got[std::size_t(i)]) -
                                    (double(input[std::size_t(i)]) + double(dense[std::size_t(b * dim + i % dim)])));
          if (std::isnan(d)) return double(INFINITY);   // poison left: fail
          e = std::max(e, d);
        }
      return e;
    };
    q.fill(d_out.data(), std::numeric_limits<float>::quiet_NaN(), std::size_t(total));
    call();
    r.max_error = error();
    r.tolerance = 2e-7;
    if (!ctx.dump_dir.empty()) {
      auto got = d_out.download(q);
      got.resize(std::size_t(used));
      ctx.dump(variant, params, "input", input, {used});
      ctx.dump(variant, params, "offsets", offsets, {batches + 1});
      ctx.dump(variant, params, "dense", dense, {batches, dim});
      ctx.dump(variant, params, "out", got, {used});
    }
    r.portable = ctx.time(call);
#if PORTKERN_HAVE_CUDA
    const auto plan = impl::make_plan(batches, dim, 0, used, true);   // Buffer memory is 256-byte aligned
    if (ctx.on_gpu()) {   // the twin must agree too
      q.fill(d_out.data(), std::numeric_limits<float>::quiet_NaN(), std::size_t(total));
      impl::native_cuda(q, plan, d_off.data(), d_in.data(), d_dense.data(), d_out.data());
      r.max_error = std::max(r.max_error, error());   // the twin must agree too
    }
    r.native = ctx.time_native([&] {
      impl::native_cuda(q, plan, d_off.data(), d_in.data(), d_dense.data(), d_out.data());
    });
#endif
    results.push_back(std::move(r));
  }
  return results;
}
