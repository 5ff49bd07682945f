// The deployed `tiled` configurations, instantiated for CUDA. A configuration whose local tiles exceed the
// 48 KiB of static shared memory a block may declare is not instantiated: asking for it is an Error.
#include <type_traits>

#include "gemm/deployment.hpp"
#include "gemm/ladder.hpp"
#include "gemm/tiled_runner.hpp"
#if PORTKERN_TUNING
#include "gemm/tiled_tuning.hpp"
#endif
#include "portkern/kernel/cuda.cuh"

namespace portkern::gemm_impl {

template <class T>
void run_tiled_cuda(const Queue& queue, std::string_view config, bool trans_a, bool trans_b, const GemmArgs<T>& args) {
  const bool found = with_tiled_config<CudaDeployment::tiled>(config, [&]<TiledConfig P>() {
    if constexpr (tiled_local_bytes<T>(P) <= 48 * 1024) {
      launch_tiled<P, T>(trans_a, trans_b, args, [&](const auto& kernel) {
        kernel::cuda::launch(queue, kernel.groups(args), kernel);
      });
    } else {
      fail("portkern::gemm", "configuration '" + std::string(config) + "' needs " +
                                 std::to_string(tiled_local_bytes<T>(P)) + " bytes of local memory, more than 49152");
    }
  });
  if (found) return;
  if constexpr (std::is_same_v<T, float>) {   // the optimisation ladder's steps (float, no transposes)
    if (!trans_a && !trans_b && with_tiled_config<ladder_configs>(config, [&]<TiledConfig P>() {
          static_assert(tiled_local_bytes<float>(P) <= 48 * 1024, "a ladder step must fit static shared memory");
          const GemmTiled<P, float, false, false> kernel{args};
          kernel::cuda::launch(queue, kernel.groups(args), kernel);
        }))
      return;
  }
#if PORTKERN_TUNING
  if constexpr (std::is_same_v<T, float>)
    if (!trans_a && !trans_b && tuning::run_tiled_cuda(config, queue, args)) return;
#endif
  tiled_config_missing(config, CudaDeployment::device_class);
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
