// mask: the spec's int32 [512][512][512] tensor (M = N = B = 512; small: 128^3) for each of the six kinds;
// lengths[j] = rand() % (M / 2), centers[j] = rand() % M, radius M / 4, in = rand() % (M * N) (the C
// library's rand after srand(0)), fill -1. The whole output is verified exactly against the reference.
#include <cstdlib>

#include "bench/ops/op_bench.hpp"
#include "ops/mask/backends.hpp"
#include "ops/mask/reference.hpp"
#include "portkern/ops/mask.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace mask_impl = portkern::ops::mask_impl;
using portkern::ops::MaskKind;

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(mask, false) {
  using namespace portkern::bench::opsuite;
  using portkern::Buffer;
  portkern::Queue& q = ctx.queue;
  const std::int64_t m = ctx.small ? 128 : 512, n = m, b = m, numel = b * n * m, radius = m / 4;
  const std::int32_t fill = -1;
  std::srand(0);
  std::vector<std::int32_t> host(static_cast<std::size_t>(numel)), lengths(static_cast<std::size_t>(n)),
      centers(static_cast<std::size_t>(n));
  for (auto& v : lengths) v = std::rand() % std::int32_t(m / 2);
  for (auto& v : centers) v = std::rand() % std::int32_t(m);
  for (auto& v : host) v = std::rand() % std::int32_t(m * n);
  Buffer<std::int32_t> in(q.device(), numel), out(q.device(), numel), len_d(q.device(), n), ctr_d(q.device(), n);
  in.upload(q, host);
  len_d.upload(q, lengths);
  ctr_d.upload(q, centers);
  std::vector<OpResult> results;
  for (int k = 0; k <= int(MaskKind::lower_diag); ++k) {
    const auto kind = MaskKind(k);
    const bool uses_rows = kind == MaskKind::sequence || kind == MaskKind::window;
    const std::int32_t* per_row = kind == MaskKind::sequence ? len_d.data() : ctr_d.data();
    const auto& per_row_host = kind == MaskKind::sequence ? lengths : centers;
    const std::string variant = std::string("i32 ") + portkern::ops::mask_kind_name(kind) + " " + std::to_string(b) +
                                "x" + std::to_string(n) + "x" + std::to_string(m);
    const nlohmann::json params = {{"kind", portkern::ops::mask_kind_name(kind)}, {"batch", b}, {"rows", n},
                                   {"cols", m}, {"radius", radius}, {"fill", fill}};
    OpResult r;
    r.variant = variant;
    r.params = params;
    r.bytes = 8.0 * double(numel) + (uses_rows ? 4.0 * double(n) : 0.0);
    portkern::ops::mask(q, kind, b, n, m, in.data(), out.data(), fill, per_row, radius);
    const auto got = out.download(q);
    const auto want = mask_impl::reference(kind, b, n, m, host, fill, per_row_host, radius);
    r.max_error = got == want ? 0.0 : 1.0;
    r.tolerance = 0;
    ctx.dump(variant, params, "in", host, {b, n, m});
    if (uses_rows) ctx.dump(variant, params, "per_row", per_row_host, {n});
    ctx.dump(variant, params, "out", got, {b, n, m});
    r.portable = ctx.time([&] { portkern::ops::mask(q, kind, b, n, m, in.data(), out.data(), fill, per_row, radius); });
#if PORTKERN_HAVE_CUDA
    const mask_impl::Problem p{kind, b, n, m, fill, per_row, radius};
    auto native = [&] { mask_impl::native_cuda(q, p, in.data(), out.data()); };
    if (ctx.on_gpu()) {   // the twin's output, over a poisoned buffer, checked as the portable one's
      q.fill(out.data(), std::int32_t(-777), std::size_t(numel));
      native();
      if (out.download(q) != want) r.max_error = 1.0;
    }
    r.native = ctx.time_native(native);
#endif
    results.push_back(std::move(r));
  }
  return results;
}
