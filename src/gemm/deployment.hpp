// Which generated (or, until tuning, hand-written) deployment each back end of this build uses, and the
// selection through it: the family tree, then the family's own tree.
#pragma once

#include <string>
#include <span>
#include <string_view>

#include "deploy/cuda-sm90/gemm.hpp"
#include "portkern/blas.hpp"
#include "portkern/error.hpp"

#if defined(__AVX512F__)
#include "deploy/cpu-avx512/gemm.hpp"
#else
#include "deploy/cpu-avx2/gemm.hpp"
#endif

namespace portkern::gemm_impl {

#if defined(__AVX512F__)
using CpuDeployment = deploy::cpu_avx512::gemm;
#else
using CpuDeployment = deploy::cpu_avx2::gemm;
#endif
using CudaDeployment = deploy::cuda_sm90::gemm;

// The configurations deployment D lists for `family` (empty when it has none), and its pick among them.
template <class D>
std::span<const std::string_view> deployed_configs(std::string_view family) {
#define PORTKERN_FAMILY_CONFIGS(name) \
  if constexpr (requires { D::name; }) \
    if (family == #name) return D::name;
  PORTKERN_FAMILY_CONFIGS(tiled)
  PORTKERN_FAMILY_CONFIGS(cpu_packed)
  PORTKERN_FAMILY_CONFIGS(cuda_native)
#undef PORTKERN_FAMILY_CONFIGS
  return {};
}

template <class D>
int select_in_family(std::string_view family, const deploy::Problem& p, deploy::Path* path) {
#define PORTKERN_FAMILY_SELECT(name) \
  if constexpr (requires { D::select_##name(p, path); }) \
    if (family == #name) return D::select_##name(p, path);
  PORTKERN_FAMILY_SELECT(tiled)
  PORTKERN_FAMILY_SELECT(cpu_packed)
  PORTKERN_FAMILY_SELECT(cuda_native)
#undef PORTKERN_FAMILY_SELECT
  return 0;
}

template <class D>
GemmSelection select_with(const deploy::Problem& p, std::string family) {
  deploy::Path path;
  if (family.empty()) family = std::string(D::families[D::select_family(p, &path)]);
  const auto configs = deployed_configs<D>(family);
  if (configs.empty())
    fail("portkern::select_gemm", "family '" + family + "' is not deployed for " + std::string(D::device_class));
  const int index = select_in_family<D>(family, p, &path);
  return {std::string(D::device_class), family, std::string(configs[index]), path.str()};
}

}  // namespace portkern::gemm_impl
