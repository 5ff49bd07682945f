// flip: the spec's 1024^3 tensor reversed in all three dimensions, f32 and f64 (small: 256^3), plus one
// partial flip that keeps rows intact (the copy-like case).
#include <iostream>

#include "bench/memory_check.hpp"
#include "bench/ops/op_bench.hpp"
#include "ops/flip/backends.hpp"
#include "ops/flip/plan.hpp"
#include "portkern/ops/flip.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace flip_impl = portkern::ops::flip_impl;

// out against the definition, in parallel over the outer two dimensions (the bench's shapes are 3-D; the
// tests check every rank against ops/flip/reference.hpp).
template <class T>
bool matches(const std::vector<std::int64_t>& shape, const std::vector<int>& dims, const std::vector<T>& in,
             const std::vector<T>& out) {
  bool f[3] = {};
  for (int d : dims) f[d] = true;
  const std::int64_t a = shape[0], b = shape[1], c = shape[2];
  std::int64_t bad = 0;
#pragma omp parallel for collapse(2) reduction(+ : bad)
  for (std::int64_t i = 0; i < a; ++i)
    for (std::int64_t j = 0; j < b; ++j) {
      const std::int64_t si = f[0] ? a - 1 - i : i, sj = f[1] ? b - 1 - j : j;
      for (std::int64_t k = 0; k < c; ++k)
        bad += out[std::size_t((i * b + j) * c + k)] != in[std::size_t((si * b + sj) * c + (f[2] ? c - 1 - k : k))];
    }
  return bad == 0;
}

template <class T>
OpResult run_flip(OpContext& ctx, std::vector<std::int64_t> shape, std::vector<int> dims) {
  Queue& q = ctx.queue;
  std::int64_t numel = 1;
  for (auto e : shape) numel *= e;
  std::vector<T> host(static_cast<std::size_t>(numel));
#pragma omp parallel for
  for (std::int64_t i = 0; i < numel; ++i) host[std::size_t(i)] = T(i % 1000003);   // in[i] = i, as the spec
  Buffer<T> in(q.device(), numel), out(q.device(), numel);
  in.upload(q, host);
  std::string variant = std::string(sizeof(T) == 4 ? "f32 " : "f64 ");
  for (std::size_t k = 0; k < shape.size(); ++k) variant += (k ? "x" : "") + std::to_string(shape[k]);
  variant += " dims";
  for (int d : dims) variant += " " + std::to_string(d);
  const nlohmann::json params = {{"shape", shape}, {"dims", dims}, {"dtype", sizeof(T) == 4 ? "float32" : "float64"}};

  OpResult r;
  r.variant = variant;
  r.params = params;
  r.bytes = 2.0 * double(numel) * sizeof(T);
  portkern::ops::flip(q, shape, dims, in.data(), out.data());
  const auto got = out.download(q);
  r.max_error = matches(shape, dims, host, got) ? 0.0 : 1.0;   // a permutation: exact or wrong
  r.tolerance = 0;
  ctx.dump(variant, params, "in", host, shape);
  ctx.dump(variant, params, "out", got, shape);
  r.portable = ctx.time([&] { portkern::ops::flip(q, shape, dims, in.data(), out.data()); });
#if PORTKERN_HAVE_CUDA
  const auto plan = flip_impl::make_plan(shape, dims);
  auto native = [&] { flip_impl::native_cuda(q, plan, in.data(), out.data()); };
  if (ctx.on_gpu()) {   // the twin's output, over a poisoned buffer, checked as the portable one's
    q.fill(out.data(), T(-777), std::size_t(numel));
    native();
    if (!matches(shape, dims, host, out.download(q))) r.max_error = 1.0;
  }
  r.native = ctx.time_native(native);
#endif
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(flip, false) {
  using namespace portkern::bench::opsuite;
  const std::int64_t n = ctx.small ? 256 : 1024;
  // A row holds four tensors (host input, device input and output, the downloaded output): the spec's f64
  // tensor, 8.6 GB, needs 34 GB. Rows that do not fit the machine's memory are left out, and said so, rather
  // than the process killed for memory.
  std::vector<OpResult> rows;
  const auto fits = [&](std::size_t element_bytes, const char* name) {
    const double bytes = 4.0 * double(n) * double(n) * double(n) * double(element_bytes);
    if (portkern::bench::fits_memory(ctx.queue.device(), bytes)) return true;
    std::cerr << "flip: " << name << " " << n << "^3 left out: 4 tensors of " << bytes / 4e9 << " GB do not fit the memory of "
              << ctx.queue.device().name() << "\n";
    return false;
  };
  if (fits(sizeof(float), "f32")) rows.push_back(run_flip<float>(ctx, {n, n, n}, {0, 1, 2}));
  if (fits(sizeof(double), "f64")) rows.push_back(run_flip<double>(ctx, {n, n, n}, {0, 1, 2}));
  if (fits(sizeof(float), "f32")) rows.push_back(run_flip<float>(ctx, {n, n, n}, {0, 1}));
  return rows;
}
