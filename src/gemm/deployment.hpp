// GEMM's deployments, one per device class (deploy/<class>/gemm.hpp, generated or, until tuning, hand-written),
// chosen at run time by the device's class (portkern/runtime/device_class.hpp), and the selection through one:
// the family tree, then the family's own tree. Every class of a back end is compiled in, so the `tiled`
// configurations instantiated are the union of that back end's deployments.
#pragma once

#include <string>
#include <string_view>

#include "common/deployment_list.hpp"
#include "gemm/registry.hpp"
#include "deploy/cpu-avx2/gemm.hpp"
#include "deploy/cpu-avx512/gemm.hpp"
#include "deploy/cpu-generic/gemm.hpp"
#include "deploy/cuda-generic/gemm.hpp"
#include "deploy/cuda-generic/gemm_ieee.hpp"
#include "deploy/cuda-generic/gemm_tf32.hpp"
#include "deploy/cuda-sm90/gemm.hpp"
#include "deploy/cuda-sm90/gemm_ieee.hpp"
#include "deploy/cuda-sm90/gemm_tf32.hpp"
#include "portkern/blas.hpp"
#include "portkern/error.hpp"
#include "portkern/runtime/device_class.hpp"

namespace portkern::gemm_impl {

// Every device class's GEMM deployment (tests check that each class of the device-class table has one), and
// those for a precision where the default one would not do: the CPU's deployments compute IEEE products,
// which every precision allows; a GPU's default one may pick 3xTF32, which the ieee precision does not, and
// misses the TF32 fragments the tf32 precision runs faster.
using GemmDeployments =
    detail::DeploymentList<deploy::cpu_avx512::gemm, deploy::cpu_avx2::gemm, deploy::cpu_generic::gemm,
                           deploy::cuda_sm90::gemm, deploy::cuda_sm90::gemm_ieee, deploy::cuda_sm90::gemm_tf32,
                           deploy::cuda_generic::gemm,
                           deploy::cuda_generic::gemm_ieee, deploy::cuda_generic::gemm_tf32>;

// The `tiled` configurations each back end instantiates: those of all its classes' deployments.
struct CpuTiledConfigs {
  static constexpr std::string_view device_class = "cpu-*";
  static constexpr auto tiled =
      detail::union_of<deploy::cpu_avx512::gemm::tiled, deploy::cpu_avx2::gemm::tiled, deploy::cpu_generic::gemm::tiled>();
};
struct CudaTiledConfigs {
  static constexpr std::string_view device_class = "cuda-*";
  static constexpr auto tiled =
      detail::union_of<deploy::cuda_sm90::gemm::tiled, deploy::cuda_sm90::gemm_ieee::tiled,
                       deploy::cuda_sm90::gemm_tf32::tiled,
                       deploy::cuda_generic::gemm::tiled, deploy::cuda_generic::gemm_ieee::tiled,
                       deploy::cuda_generic::gemm_tf32::tiled>();
};
using CudaDeployment = CudaTiledConfigs;   // the name tiled_cuda.cu instantiates from

// The deployment D's pick; the path through its trees is recorded only `with_path` (select asks for it, a
// gemm call does not pay for formatting it).
template <class D>
GemmSelection select_with(const deploy::Problem& p, std::string family, bool with_path = true) {
  deploy::Path path;
  deploy::Path* const record = with_path ? &path : nullptr;
  if (family.empty()) family = std::string(D::families[D::select_family(p, record)]);
  const auto configs = D::configs_of(family);
  if (configs.empty()) {
    std::string deployed;
    for (std::string_view f : D::families) deployed += (deployed.empty() ? "" : ", ") + std::string(f);
    fail("portkern::select_gemm",
         "family '" + family + "' is not deployed for " + std::string(D::device_class) + " (one of " + deployed + ")");
  }
  const int index = D::select_in(family, p, record);
  return {std::string(D::device_class), family, std::string(configs[index]), path.str()};
}

// The pick of the deployment of `device`'s class for `precision`, chosen at run time
// (portkern/runtime/device_class.hpp). The default precision's pick is its default deployment's, unchecked (the
// tests check every deployment's lists against its precision). A class without a deployment of its own for
// another precision uses its default one, whose pick must then be one the precision allows. A matrix-vector product (m or n of 1) reads
// each matrix element once for two flops: memory-bound at every precision, it runs the default deployment's
// pick wherever the precision allows it (the tf32 deployment's trees, fitted with few such shapes, sent VGG-16's
// fc6, 4096 x 1 x 25088, to a TF32 block instead of the default pick's single-launch GEMV: VGG-16 took 0.90 ms
// per image at tf32, 0.73 at the default precision).
inline GemmSelection select_for(const Device& device, const deploy::Problem& p, const std::string& family,
                                bool with_path, Precision precision = Precision::accurate) {
  const std::string_view device_class = portkern::device_class(device).name;
  auto pick = [&](Precision at) {
    return GemmDeployments::with(device_class, at, [&]<class D>() { return select_with<D>(p, family, with_path); });
  };
  if (precision == Precision::accurate) return pick(precision);   // a gemm call's common case: nothing more
  auto arithmetic = [&](const GemmSelection& s) {   // an unknown family is dispatch's error to raise
    const FamilyEntry* entry = find_gemm_family(s.family);
    return entry ? entry->arithmetic_of(s.config, precision) : Arithmetic::ieee;
  };
  if (p.m == 1 || p.n == 1) {
    GemmSelection s = pick(Precision::accurate);
    if (allows(precision, arithmetic(s))) return s;
  }
  GemmSelection s = pick(precision);
  if (const Arithmetic a = arithmetic(s); !allows(precision, a))
    fail("portkern::select_gemm", "the " + std::string(device_class) + " deployment has no configuration" +
                                      (family.empty() ? "" : " of family '" + family + "'") + " for precision '" +
                                      std::string(name(precision)) + "' (its pick " + s.config + " computes with " +
                                      std::string(name(a)) + ")");
  return s;
}

}  // namespace portkern::gemm_impl
