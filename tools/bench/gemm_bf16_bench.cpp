#include "bench/gemm_bf16_bench.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "bench/contest.hpp"
#include "bench/device_info.hpp"
#include "bench/progress.hpp"
#include "bench/vendor_figures.hpp"
#include "portkern/blas.hpp"
#include "portkern/error.hpp"

#if PORTKERN_HAVE_DNNL
#include <omp.h>

#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace portkern::bench {

namespace {

using i64 = std::int64_t;

// One problem's column-major operands (batch items back to back), random in [-1, 1], rounded to bfloat16.
struct Bf16Operands {
  GemmShape s;
  i64 lda, ldb, ldc;
  std::vector<bfloat16> a, b;
  std::vector<float> c;

  explicit Bf16Operands(const GemmShape& shape)
      : s(shape), lda(s.trans_a ? s.k : s.m), ldb(s.trans_b ? s.n : s.k), ldc(s.m) {
    std::mt19937 rng(unsigned(std::uint64_t(s.m) * 31 + std::uint64_t(s.n) * 17 + std::uint64_t(s.k)));
    std::uniform_real_distribution<float> uniform(-1, 1);
    a.resize(std::size_t(s.m * s.k * s.batch));
    b.resize(std::size_t(s.k * s.n * s.batch));
    c.resize(std::size_t(s.m * s.n * s.batch));
    for (auto& x : a) x = bfloat16(uniform(rng));
    for (auto& x : b) x = bfloat16(uniform(rng));
  }

  // The largest |C - ref| / sum |a b| over 64 sampled outputs, against float64 (NaN when C holds one).
  double max_rel_error() const {
    std::mt19937 rng(7);
    double worst = 0;
    for (int sample = 0; sample < 64; ++sample) {
      const i64 p = rng() % s.batch, i = rng() % s.m, j = rng() % s.n;
      double sum = 0, magnitude = 0;
      for (i64 l = 0; l < s.k; ++l) {
        const double x = float(a[std::size_t(p * s.m * s.k + (s.trans_a ? i * lda + l : l * lda + i))]);
        const double y = float(b[std::size_t(p * s.k * s.n + (s.trans_b ? l * ldb + j : j * ldb + l))]);
        sum += x * y, magnitude += std::abs(x * y);
      }
      const double error = std::abs(double(c[std::size_t(p * s.m * s.n + j * ldc + i)]) - sum) / std::max(magnitude, 1e-300);
      if (!(error <= worst)) worst = error;
    }
    return worst;
  }
};

void run_portkern(Queue& q, Bf16Operands& o) {
  gemm_strided_batched(q, o.s.trans_a ? Op::trans : Op::none, o.s.trans_b ? Op::trans : Op::none, o.s.m, o.s.n,
                       o.s.k, 1.f, o.a.data(), o.lda, o.s.m * o.s.k, o.b.data(), o.ldb, o.s.k * o.s.n, 0.f,
                       o.c.data(), o.ldc, o.s.m * o.s.n, o.s.batch);
}

#if PORTKERN_HAVE_DNNL
// oneDNN is row-major: column-major C = op(A) op(B) is C^T (n x m) = op(B)^T (n x k) op(A)^T (k x m), each
// described by its strides over the same memory. One primitive per shape, made before timing.
struct OnednnBf16 {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul matmul;
  dnnl::memory src, weights, dst;

  explicit OnednnBf16(Bf16Operands& o) {
    using dt = dnnl::memory::data_type;
    const GemmShape& s = o.s;
    auto desc = [&](i64 rows, i64 cols, i64 row_stride, i64 col_stride, dt type) {
      return dnnl::memory::desc({s.batch, rows, cols}, type, {rows * cols, row_stride, col_stride});
    };
    const auto src_md = desc(s.n, s.k, s.trans_b ? 1 : o.ldb, s.trans_b ? o.ldb : 1, dt::bf16);   // op(B)^T
    const auto wei_md = desc(s.k, s.m, s.trans_a ? 1 : o.lda, s.trans_a ? o.lda : 1, dt::bf16);   // op(A)^T
    const auto dst_md = desc(s.n, s.m, o.ldc, 1, dt::f32);
    pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(src_md, wei_md, dst_md), engine);
    matmul = dnnl::matmul(pd);
    src = dnnl::memory(src_md, engine, o.b.data());
    weights = dnnl::memory(wei_md, engine, o.a.data());
    dst = dnnl::memory(dst_md, engine, o.c.data());
  }
  void run(int threads) {
    omp_set_num_threads(threads);
    matmul.execute(stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}});
    stream.wait();
  }
  std::string impl() const {
    const dnnl_version_t* v = dnnl_version();
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
           " matmul " + pd.impl_info_str();
  }
};
#endif

nlohmann::json bench_shape(Queue& q, const GemmShape& s, const GemmBenchOptions& options) {
  Bf16Operands o(s);
  const double flops = 2.0 * s.m * s.n * s.k * s.batch;
  auto gflops_of = [&](double ms) { return flops / (ms * 1e-3) / 1e9; };
  auto error_of = [&](const std::function<void()>& call) {
    std::fill(o.c.begin(), o.c.end(), std::numeric_limits<float>::quiet_NaN());   // poison: unwritten shows
    call();
    return o.max_rel_error();
  };
  const std::function<void()> ours = [&] { run_portkern(q, o); };
  std::vector<Contender> contenders = {{ours, nullptr}};
  std::vector<VendorFigure> figures;
#if PORTKERN_HAVE_DNNL
  OnednnBf16 onednn(o);
  const std::function<void()> theirs = [&, threads = q.cpu_threads()] { onednn.run(threads); };
  figures.push_back({"onednn", "bf16", onednn.impl(), 0, 0, error_of(theirs)});
  contenders.push_back({theirs, nullptr});
#endif
  const double error = error_of(ours);
  const ContestResult result = contest(q, contenders, default_contest(q, options.quick));
  for (std::size_t i = 0; i < figures.size(); ++i) {
    figures[i].gflops = gflops_of(result.median_ms[1 + i]);
    figures[i].spread = result.spread[1 + i];
  }
  nlohmann::json row = {{"op", "gemm"}, {"m", s.m}, {"n", s.n}, {"k", s.k}, {"batch", s.batch},
                        {"trans_a", s.trans_a}, {"trans_b", s.trans_b}, {"precision", "bf16"},
                        {"family", "bf16"}, {"config", "bf16/" + gemm_bf16_kernel()},
                        {"gflops", gflops_of(result.median_ms[0])}, {"spread", result.spread[0]},
                        {"rounds", result.rounds}, {"max_rel_error", error}};
  add_vendor_figures(row, figures, "bf16");
  return row;
}

}  // namespace

nlohmann::json bench_gemm_bf16(const Device& device, const GemmBenchOptions& options) {
  if (!device.is_cpu()) fail("portkern bench gemm --dtype bf16", "runs on the CPU only, not on " + device.name());
  const nlohmann::json load_before = host_load();
  Queue q(device, options.threads);
  nlohmann::json rows = nlohmann::json::array();
  Progress progress(options.shapes.size());
  for (const auto& s : options.shapes) {
    rows.push_back(bench_shape(q, s, options));
    progress.step("m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) +
                  " batch=" + std::to_string(s.batch));
  }
  nlohmann::json dev = describe(device, false);
  dev["threads"] = q.cpu_threads();
  nlohmann::json listed = nlohmann::json::array();
  if (!rows.empty() && !rows[0]["refs"].empty())
    listed.push_back({{"name", "onednn"}, {"precision", "bf16"}, {"kernel", rows[0]["refs"]["onednn"]["impl"]}});
  return {{"device", dev}, {"vendors", listed}, {"load", {{"before", load_before}, {"after", host_load()}}}, {"rows", rows}};
}

}  // namespace portkern::bench
