#include "bench/gemm_half_bench.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <type_traits>

#include "bench/contest.hpp"
#include "bench/device_info.hpp"
#include "bench/progress.hpp"
#include "bench/vendor_figures.hpp"
#include "bench/vendor_gemm.hpp"
#include "portkern/blas.hpp"
#include "portkern/error.hpp"
#include "portkern/runtime/buffer.hpp"

#if PORTKERN_HAVE_CUDA
#include "gemm/cuda_wgmma/wgmma_gemm.hpp"
#endif

#if PORTKERN_HAVE_DNNL
#include <omp.h>

#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace portkern::bench {

namespace {

using i64 = std::int64_t;

// One problem's column-major operands (batch items back to back), random in [-1, 1], rounded to In.
template <class In>
struct HalfOperands {
  GemmShape s;
  i64 lda, ldb, ldc;
  std::vector<In> a, b;
  std::vector<float> c;

  explicit HalfOperands(const GemmShape& shape)
      : s(shape), lda(s.trans_a ? s.k : s.m), ldb(s.trans_b ? s.n : s.k), ldc(s.m) {
    std::mt19937 rng(unsigned(std::uint64_t(s.m) * 31 + std::uint64_t(s.n) * 17 + std::uint64_t(s.k)));
    std::uniform_real_distribution<float> uniform(-1, 1);
    a.resize(std::size_t(s.m * s.k * s.batch));
    b.resize(std::size_t(s.k * s.n * s.batch));
    c.resize(std::size_t(s.m * s.n * s.batch));
    for (auto& x : a) x = In(uniform(rng));
    for (auto& x : b) x = In(uniform(rng));
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

// The operands where the queue's device reads them: the host vectors themselves on the CPU, copies on a GPU.
template <class In>
struct Placed {
  Buffer<In> a_copy, b_copy;
  Buffer<float> c_copy;
  GemmOperands<float, In> g{};

  Placed(Queue& q, HalfOperands<In>& o) {
    const GemmShape& s = o.s;
    const In *a = o.a.data(), *b = o.b.data();
    float* c = o.c.data();
    if (!q.device().is_cpu()) {
      a_copy = Buffer<In>(q.device(), std::int64_t(o.a.size()), "bench A");
      b_copy = Buffer<In>(q.device(), std::int64_t(o.b.size()), "bench B");
      c_copy = Buffer<float>(q.device(), std::int64_t(o.c.size()), "bench C");
      a_copy.upload(q, std::span<const In>(o.a));
      b_copy.upload(q, std::span<const In>(o.b));
      a = a_copy.data(), b = b_copy.data(), c = c_copy.data();
    }
    static_cast<gemm_impl::GemmArgs<float, In>&>(g) = {s.m, s.n, s.k, 1.f, a, o.lda, s.m * s.k, b, o.ldb,
                                                              s.k * s.n, 0.f, c, o.ldc, s.m * s.n, s.batch};
    g.ta = s.trans_a, g.tb = s.trans_b;
  }

  void run_portkern(Queue& q) const {
    gemm_strided_batched(q, g.ta ? Op::trans : Op::none, g.tb ? Op::trans : Op::none, g.m, g.n, g.k, g.alpha, g.a,
                         g.lda, g.stride_a, g.b, g.ldb, g.stride_b, g.beta, g.c, g.ldc, g.stride_c, g.batch);
  }

  // C poisoned with NaN (what is left unwritten shows), one call, C back on the host.
  void poisoned_call(Queue& q, HalfOperands<In>& o, const std::function<void()>& call) {
    std::fill(o.c.begin(), o.c.end(), std::numeric_limits<float>::quiet_NaN());
    if (c_copy.size() == 0) return call();
    c_copy.upload(q, std::span<const float>(o.c));
    call();
    o.c = c_copy.download(q);
  }
};

// What portkern runs for these operands: the CPU's kernel set, or the GPU kernel.
template <class In>
std::string kernel_name(const Queue& q, [[maybe_unused]] const GemmOperands<float, In>& g) {
  if (q.device().is_cpu()) return std::is_same_v<In, bfloat16> ? gemm_bf16_kernel() : "fp32";
#if PORTKERN_HAVE_CUDA
  using gemm_impl::cuda_wgmma::Input;
  return gemm_impl::cuda_wgmma::kernel_for(q.device(), std::is_same_v<In, bfloat16> ? Input::bf16 : Input::f16,
                                           {g.ta, g.tb, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.stride_a, g.b, g.ldb,
                                            g.stride_b, g.beta, g.c, g.ldc, g.stride_c, g.batch});
#else
  return "none";
#endif
}

#if PORTKERN_HAVE_DNNL
// oneDNN is row-major: column-major C = op(A) op(B) is C^T (n x m) = op(B)^T (n x k) op(A)^T (k x m), each
// described by its strides over the same memory. One primitive per shape, made before timing.
template <class In>
struct OnednnHalf {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul matmul;
  dnnl::memory src, weights, dst;

  explicit OnednnHalf(HalfOperands<In>& o) {
    using dt = dnnl::memory::data_type;
    const GemmShape& s = o.s;
    auto desc = [&](i64 rows, i64 cols, i64 row_stride, i64 col_stride, dt type) {
      return dnnl::memory::desc({s.batch, rows, cols}, type, {rows * cols, row_stride, col_stride});
    };
    const dt input = std::is_same_v<In, bfloat16> ? dt::bf16 : dt::f16;
    const auto src_md = desc(s.n, s.k, s.trans_b ? 1 : o.ldb, s.trans_b ? o.ldb : 1, input);   // op(B)^T
    const auto wei_md = desc(s.k, s.m, s.trans_a ? 1 : o.lda, s.trans_a ? o.lda : 1, input);   // op(A)^T
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

// "bf16" or "fp16": the rows' precision and the family's name.
template <class In>
constexpr const char* dtype = std::is_same_v<In, bfloat16> ? "bf16" : "fp16";

template <class In>
nlohmann::json bench_shape(Queue& q, const GemmShape& s, const GemmBenchOptions& options,
                           const VendorHalfGemm<In>& gpu_vendor) {
  HalfOperands<In> o(s);
  Placed<In> placed(q, o);
  const double flops = 2.0 * s.m * s.n * s.k * s.batch;
  auto gflops_of = [&](double ms) { return flops / (ms * 1e-3) / 1e9; };
  auto error_of = [&](const std::function<void()>& call) {
    placed.poisoned_call(q, o, call);
    return o.max_rel_error();
  };
  const std::function<void()> ours = [&] { placed.run_portkern(q); };
  std::vector<Contender> contenders = {{ours, nullptr}};
  std::vector<VendorFigure> figures;
  if (gpu_vendor.run) {
    const std::function<void()> theirs = [&] { gpu_vendor.run(q, placed.g); };
    figures.push_back({gpu_vendor.name, dtype<In>, gpu_vendor.kernel, 0, 0, error_of(theirs)});
    contenders.push_back({theirs, nullptr});
  }
#if PORTKERN_HAVE_DNNL
  std::unique_ptr<OnednnHalf<In>> onednn;
  if (q.device().is_cpu()) {
    try {
      onednn = std::make_unique<OnednnHalf<In>>(o);
    } catch (const dnnl::error&) {   // this oneDNN has no matmul for the type on this CPU: no vendor row
    }
  }
  if (onednn) {
    const std::function<void()> theirs = [&, threads = q.cpu_threads()] { onednn->run(threads); };
    figures.push_back({"onednn", dtype<In>, onednn->impl(), 0, 0, error_of(theirs)});
    contenders.push_back({theirs, nullptr});
  }
#endif
  const double error = error_of(ours);
  const ContestResult result = contest(q, contenders, default_contest(q, options.quick));
  for (std::size_t i = 0; i < figures.size(); ++i) {
    figures[i].gflops = gflops_of(result.median_ms[1 + i]);
    figures[i].spread = result.spread[1 + i];
  }
  nlohmann::json row = {{"op", "gemm"}, {"m", s.m}, {"n", s.n}, {"k", s.k}, {"batch", s.batch},
                        {"trans_a", s.trans_a}, {"trans_b", s.trans_b}, {"precision", dtype<In>},
                        {"family", dtype<In>}, {"config", std::string(dtype<In>) + "/" + kernel_name(q, placed.g)},
                        {"gflops", gflops_of(result.median_ms[0])}, {"spread", result.spread[0]},
                        {"rounds", result.rounds}, {"max_rel_error", error}};
  add_vendor_figures(row, figures, dtype<In>);
  return row;
}

template <class In>
nlohmann::json bench_all(const Device& device, const GemmBenchOptions& options) {
  const nlohmann::json load_before = host_load();
  Queue q(device, options.threads);
  const VendorHalfGemm<In> gpu_vendor = device.is_cpu() ? VendorHalfGemm<In>{} : cuda_vendor_half_gemm<In>(device);
  nlohmann::json rows = nlohmann::json::array();
  Progress progress(options.shapes.size());
  for (const auto& s : options.shapes) {
    rows.push_back(bench_shape<In>(q, s, options, gpu_vendor));
    progress.step("m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) +
                  " batch=" + std::to_string(s.batch));
  }
  nlohmann::json dev = describe(device, false);
  if (device.is_cpu()) dev["threads"] = q.cpu_threads();
  nlohmann::json listed = nlohmann::json::array();
  if (!rows.empty())
    for (const auto& [name, ref] : rows[0]["refs"].items())
      listed.push_back({{"name", name}, {"precision", dtype<In>}, {"kernel", ref["impl"]}});
  return {{"device", dev}, {"vendors", listed}, {"load", {{"before", load_before}, {"after", host_load()}}}, {"rows", rows}};
}

}  // namespace

nlohmann::json bench_gemm_half(const Device& device, const GemmBenchOptions& options, const std::string& type) {
  if (type == "bf16") return bench_all<bfloat16>(device, options);
  if (type == "fp16") return bench_all<float16>(device, options);
  fail("portkern bench gemm", "--dtype '" + type + "' is not a 16-bit input type (bf16, fp16)");
}

}  // namespace portkern::bench
