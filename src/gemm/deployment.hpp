// Which generated (or, until tuning, hand-written) deployment each back end of this build uses, and the
// selection through it: the family tree, then the family's own tree.
#pragma once

#include <string>
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

template <class D>
GemmSelection select_with(const deploy::Problem& p, std::string family) {
  deploy::Path path;
  if (family.empty()) family = std::string(D::families[D::select_family(p, &path)]);
  const auto configs = D::configs_of(family);
  if (configs.empty()) {
    std::string deployed;
    for (std::string_view f : D::families) deployed += (deployed.empty() ? "" : ", ") + std::string(f);
    fail("portkern::select_gemm",
         "family '" + family + "' is not deployed for " + std::string(D::device_class) + " (one of " + deployed + ")");
  }
  const int index = D::select_in(family, p, &path);
  return {std::string(D::device_class), family, std::string(configs[index]), path.str()};
}

}  // namespace portkern::gemm_impl
