// Hand-written deployment of the device class cpu-generic (any CPU without AVX2: the plain C++ micro-kernels,
// src/gemm/cpu_packed/microkernel_generic.cpp). No machine of this class has been tuned: it is the AVX2 class's
// deployment (its rule and configurations, no other instantiations) under this class's name; cpu_packed/default
// runs the generic micro-kernels here.
#pragma once

#include <string_view>

#include "deploy/cpu-avx2/gemm.hpp"

namespace portkern::deploy::cpu_generic {

struct gemm : cpu_avx2::gemm {
  static constexpr std::string_view device_class = "cpu-generic";
};

}  // namespace portkern::deploy::cpu_generic
