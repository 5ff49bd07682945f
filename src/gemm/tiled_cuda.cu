// The deployed `tiled` configurations, instantiated for CUDA. A configuration whose local tiles exceed the
// 48 KiB of static shared memory a block may declare is not instantiated: asking for it is an Error.
#include <type_traits>

#include "gemm/deployment.hpp"
#include "gemm/tiled_runner.hpp"
#if PORTKERN_TUNING
#include "gemm/tiled_tuning.hpp"
#endif
#include "portkern/kernel/cuda.cuh"

namespace portkern::gemm_impl {

template <class T>
void run_tiled_cuda(const Queue& queue, std::string_view config, bool trans_a, bool trans_b, const GemmArgs<T>& args) {
  run_tiled<CudaDeployment>(
      config, trans_a, trans_b, args,
      [&](const auto& kernel) {
        constexpr std::int64_t bytes = tiled_local_bytes<T>(std::decay_t<decltype(kernel)>::config);
        if constexpr (bytes <= 48 * 1024)
          kernel::cuda::launch(queue, kernel.groups(args), kernel);
        else
          fail("portkern::gemm", "configuration '" + std::string(config) + "' needs " + std::to_string(bytes) +
                                     " bytes of local memory, more than 49152");
      },
      [&](std::string_view name, const auto& float_args) {
#if PORTKERN_TUNING
        return tuning::run_tiled_cuda(name, queue, float_args);
#else
        (void)name, (void)float_args;
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
