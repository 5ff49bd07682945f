// portkern::gemm: BLAS argument checks, quick returns, the deployment's choice (or the caller's), dispatch
// to the family on the queue's back end.
#include <algorithm>
#include <string>
#include <type_traits>

#include "gemm/checks.hpp"
#include "gemm/deployment.hpp"
#include "gemm/fused.hpp"
#include "gemm/registry.hpp"
#include "gemm/scale.hpp"
#include "portkern/bfloat16.hpp"
#include "portkern/float16.hpp"
#include "portkern/blas.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/runtime/device_class.hpp"

namespace portkern {

namespace gemm_impl {

template <class T, class In>
void check_gemm_arguments(const Queue& queue, bool ta, bool tb, const GemmArgs<T, In>& p, const char* fn) {
  require(p.m >= 0, fn, "m", p.m, ">= 0");
  require(p.n >= 0, fn, "n", p.n, ">= 0");
  require(p.k >= 0, fn, "k", p.k, ">= 0");
  const std::int64_t rows_a = std::max<std::int64_t>(1, ta ? p.k : p.m);
  const std::int64_t rows_b = std::max<std::int64_t>(1, tb ? p.n : p.k);
  require(p.lda >= rows_a, fn, "lda", p.lda, at_least(ta ? "max(1, k)" : "max(1, m)", rows_a));
  require(p.ldb >= rows_b, fn, "ldb", p.ldb, at_least(tb ? "max(1, n)" : "max(1, k)", rows_b));
  require(p.ldc >= std::max<std::int64_t>(1, p.m), fn, "ldc", p.ldc, at_least("max(1, m)", std::max<std::int64_t>(1, p.m)));
  require(p.batch >= 0, fn, "batch", p.batch, ">= 0");
  if (p.batch > 1) {
    require(p.stride_a >= 0, fn, "stride_a", p.stride_a, ">= 0");
    require(p.stride_b >= 0, fn, "stride_b", p.stride_b, ">= 0");
    const std::int64_t c_size = checked_mul(p.ldc, p.n, fn, "ldc * n");
    require(p.stride_c >= c_size, fn, "stride_c", p.stride_c, at_least("ldc * n (outputs must not overlap)", c_size));
  }
  if (p.m == 0 || p.n == 0 || p.batch == 0) return;   // nothing is read or written
  // The elements (and bytes) each operand spans over the batch fit in 64 bits: no index can wrap.
  checked_bytes(checked_matrix_extent(p.m, p.n, p.ldc, p.stride_c, p.batch, fn, "c"), sizeof(T), fn, "c");
  checked_bytes(checked_matrix_extent(ta ? p.k : p.m, ta ? p.m : p.k, p.lda, p.stride_a, p.batch, fn, "a"), sizeof(In), fn, "a");
  checked_bytes(checked_matrix_extent(tb ? p.n : p.k, tb ? p.k : p.n, p.ldb, p.stride_b, p.batch, fn, "b"), sizeof(In), fn, "b");
  queue.check_pointer(p.c, fn, "c");
  if (p.k > 0 && p.alpha != T(0)) {
    queue.check_pointer(p.a, fn, "a");
    queue.check_pointer(p.b, fn, "b");
  }
  if (p.epilogue.bias) queue.check_pointer(p.epilogue.bias, fn, "epilogue.bias");
  if (p.epilogue.residual) queue.check_pointer(p.epilogue.residual, fn, "epilogue.residual");
}
template void check_gemm_arguments(const Queue&, bool, bool, const GemmArgs<float>&, const char*);
template void check_gemm_arguments(const Queue&, bool, bool, const GemmArgs<double>&, const char*);
template void check_gemm_arguments(const Queue&, bool, bool, const GemmArgs<float, bfloat16>&, const char*);
template void check_gemm_arguments(const Queue&, bool, bool, const GemmArgs<float, float16>&, const char*);

}  // namespace gemm_impl

namespace {

constexpr const char* fn = "portkern::gemm";

// A caller's choice must be a configuration of a registry family that applies here (registry.hpp says why not).
void check_forced(const Device& device, const deploy::Problem& problem, const GemmSelection& s, Precision precision) {
  const std::string why_not = gemm_impl::gemm_not_applicable(device, problem, s.family, s.config, precision);
  if (!why_not.empty()) fail(fn, why_not);
}

// Runs the chosen family; returns whether it applied p.epilogue.
template <class T>
bool dispatch(Queue& queue, const GemmSelection& s, bool ta, bool tb, const gemm_impl::GemmArgs<T>& p) {
  const gemm_impl::FamilyEntry* entry = gemm_impl::find_gemm_family(s.family);
  if (!entry || !entry->runs_on(queue.device()))   // a deployment names only registry families of its back end
    fail(fn, "family '" + s.family + "' does not run on " + queue.device().name());
  entry->run<T>()(queue, s.config, ta, tb, p);
  return entry->fuses_epilogue;
}

// The checks, quick returns, choice and dispatch of every GEMM; returns whether p.epilogue was applied.
template <class T>
bool run_gemm(Queue& queue, bool ta, bool tb, gemm_impl::GemmArgs<T> p, const GemmChoice& force) {
  // fp64 is IEEE whatever the precision: its products take the default deployment, as cuBLAS's math modes
  // leave DGEMM alone, and every configuration, tensor-core ones included, computes it with fp64 FMA.
  constexpr bool fp64 = std::is_same_v<T, double>;
  const Precision precision = fp64 ? Precision::accurate : force.precision;
  p.precision = precision;
  gemm_impl::check_gemm_arguments(queue, ta, tb, p, fn);
  if (p.m == 0 || p.n == 0 || p.batch == 0) return true;
  if (p.k == 0 || p.alpha == T(0)) {
    if (p.beta != T(1))
      gemm_impl::scale(queue, gemm_impl::ScaleMatrix<T>{p.m, p.n, p.beta, p.c, p.ldc, p.stride_c}, p.batch);
    return false;
  }
  const deploy::Problem problem{p.m, p.n, p.k, p.batch, ta, tb};
  GemmSelection choice;
  if (!force.config.empty()) {   // a configuration names its family: "tiled/r4a1c4_wg16x16_global"
    choice.config = force.config;
    choice.family = force.family.empty() ? force.config.substr(0, force.config.find('/')) : force.family;
    check_forced(queue.device(), problem, choice, fp64 ? Precision::tf32 : precision);   // tf32: allows any
  } else {
    choice = gemm_impl::select_for(queue.device(), problem, force.family.empty() ? queue.gemm_family() : force.family,
                                   false, precision);
  }
  return dispatch(queue, choice, ta, tb, p);
}

}  // namespace

std::string gemm_device_class(const Device& device) { return std::string(device_class(device).name); }

namespace {
template <class D>
GemmDeployment describe_deployment() {
  GemmDeployment d{std::string(D::device_class), detail::precision_of<D>(), {}, {}};
  for (std::string_view family : D::families) {
    d.families.emplace_back(family);
    d.configs.emplace_back();
    for (std::string_view config : D::configs_of(family)) d.configs.back().emplace_back(config);
  }
  return d;
}
}  // namespace

GemmDeployment gemm_deployment(const Device& device, Precision precision) {
  return gemm_deployment_of_class(gemm_device_class(device), precision);
}

GemmDeployment gemm_deployment_of_class(const std::string& device_class, Precision precision) {
  return gemm_impl::GemmDeployments::with(device_class, precision,
                                          []<class D>() { return describe_deployment<D>(); });
}

std::vector<GemmFamily> gemm_families(const Device& device) {
  std::vector<GemmFamily> families;
  for (const gemm_impl::FamilyEntry* entry : gemm_impl::gemm_family_entries())
    if (entry->runs_on(device)) families.push_back({std::string(entry->name), entry->space(), entry->tuning_part(device)});
  return families;
}

std::string gemm_not_applicable(const Device& device, const deploy::Problem& problem, const std::string& family,
                                const std::string& config, Precision precision) {
  return gemm_impl::gemm_not_applicable(device, problem, family, config, precision);
}

Arithmetic gemm_arithmetic(const std::string& config, Precision precision) {
  const gemm_impl::FamilyEntry* entry = gemm_impl::find_gemm_family(config.substr(0, config.find('/')));
  if (!entry || !entry->in_space(config))
    fail("portkern::gemm_arithmetic", "unknown configuration '" + config + "'");
  return entry->arithmetic_of(config, precision);
}

GemmSelection select_gemm(const Device& device, const deploy::Problem& problem, const std::string& family,
                          Precision precision) {
  return gemm_impl::select_for(device, problem, family, true, precision);
}

template <class T>
void gemm_strided_batched(Queue& queue, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                          T alpha, const T* a, std::int64_t lda, std::int64_t stride_a, const T* b, std::int64_t ldb,
                          std::int64_t stride_b, T beta, T* c, std::int64_t ldc, std::int64_t stride_c,
                          std::int64_t batch, const GemmChoice& force) {
  run_gemm(queue, trans_a == Op::trans, trans_b == Op::trans,
           gemm_impl::GemmArgs<T>{m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc, stride_c, batch},
           force);
}

namespace gemm_impl {
bool gemm_with_epilogue(Queue& queue, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                        float alpha, const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta,
                        float* c, std::int64_t ldc, const GemmEpilogue<float>& epilogue, const GemmChoice& force) {
  GemmArgs<float> p{m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1};
  p.epilogue = epilogue;
  return run_gemm(queue, trans_a == Op::trans, trans_b == Op::trans, p, force);
}
}  // namespace gemm_impl

template <class T>
void gemm(Queue& queue, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
          std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc, const GemmChoice& force) {
  gemm_strided_batched(queue, trans_a, trans_b, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, force);
}

// Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: swap the operands and m, n.
template <class T>
void gemm(Queue& queue, Layout layout, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
          T alpha, const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
          const GemmChoice& force) {
  if (layout == Layout::col_major) return gemm(queue, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, force);
  gemm(queue, trans_b, trans_a, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc, force);
}

#define PORTKERN_INSTANTIATE_GEMM(T)                                                                                \
  template void gemm<T>(Queue&, Op, Op, std::int64_t, std::int64_t, std::int64_t, T, const T*, std::int64_t,      \
                        const T*, std::int64_t, T, T*, std::int64_t, const GemmChoice&);                          \
  template void gemm<T>(Queue&, Layout, Op, Op, std::int64_t, std::int64_t, std::int64_t, T, const T*,            \
                        std::int64_t, const T*, std::int64_t, T, T*, std::int64_t, const GemmChoice&);            \
  template void gemm_strided_batched<T>(Queue&, Op, Op, std::int64_t, std::int64_t, std::int64_t, T, const T*,    \
                                        std::int64_t, std::int64_t, const T*, std::int64_t, std::int64_t, T, T*, \
                                        std::int64_t, std::int64_t, std::int64_t, const GemmChoice&);
PORTKERN_INSTANTIATE_GEMM(float)
PORTKERN_INSTANTIATE_GEMM(double)

}  // namespace portkern
