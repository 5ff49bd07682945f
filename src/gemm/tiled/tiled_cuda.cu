// The deployed `tiled` configurations, instantiated for CUDA. A block may declare at most 48 KiB of static
// shared memory: a configuration whose tiles exceed it in this precision (8 x 8 items of 8 x 8 in double,
// double-buffered) runs with its K-tile halved until they fit, the same register tiling and group shape;
// one that cannot fit even so is an Error. The staged mode keeps its tiles in dynamic shared memory (checked at
// launch against the device's limit, kernel/cuda.cuh).
#include <type_traits>

#include "gemm/deployment.hpp"
#include "gemm/tiled/tiled_runner.hpp"
#if PORTKERN_TUNING
#include "gemm/tiled/tiled_tuning.hpp"
#endif
#include "portkern/kernel/cuda.cuh"

namespace portkern::gemm_impl {

inline constexpr std::int64_t static_shared_limit = 48 * 1024;

template <class T>
constexpr TiledConfig fit_static_shared(TiledConfig p) {
  while (tiled_local_bytes<T>(p) > static_shared_limit && p.k_tile / 2 >= p.a && (p.k_tile / 2) % p.a == 0)
    p.k_tile /= 2;
  return p;
}

template <class T>
void run_tiled_cuda(const Queue& queue, std::string_view config, bool trans_a, bool trans_b, const GemmArgs<T>& args) {
  run_tiled<CudaDeployment, false>(
      config, trans_a, trans_b, args,
      [&]<class Kernel>(const Kernel& kernel) {
        constexpr TiledConfig fitted = fit_static_shared<T>(Kernel::config);
        if constexpr (tiled_local_bytes<T>(fitted) <= static_shared_limit) {
          using Fitting = TiledKernel<fitted, T, Kernel::trans_a, Kernel::trans_b>;
          launch_gemm<kernel::cuda::Backend>(queue, Fitting{kernel.args}, kernel::cuda::resident_groups<Fitting>(queue));
        } else {
          fail("portkern::gemm", "configuration '" + std::string(config) + "' needs " +
                                     std::to_string(tiled_local_bytes<T>(fitted)) +
                                     " bytes of local memory, more than 49152");
        }
      },
      [&](std::string_view name, bool ta, bool tb, const auto& float_args) {
#if PORTKERN_TUNING
        return tuning::run_tiled_cuda(name, queue, ta, tb, float_args);
#else
        (void)name, (void)ta, (void)tb, (void)float_args;
        return false;
#endif
      });
}

template void run_tiled_cuda<float>(const Queue&, std::string_view, bool, bool, const GemmArgs<float>&);
template void run_tiled_cuda<double>(const Queue&, std::string_view, bool, bool, const GemmArgs<double>&);

}  // namespace portkern::gemm_impl

#include "gemm/scale.hpp"

namespace portkern::gemm_impl {

template <class T>
void scale_cuda(const Queue& queue, const ScaleMatrix<T>& kernel, std::int64_t batch) {
  kernel::cuda::launch(queue, kernel.groups(batch), kernel);
}
template void scale_cuda<float>(const Queue&, const ScaleMatrix<float>&, std::int64_t);
template void scale_cuda<double>(const Queue&, const ScaleMatrix<double>&, std::int64_t);

}  // namespace portkern::gemm_impl
