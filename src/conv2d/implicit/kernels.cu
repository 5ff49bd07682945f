// The `implicit` algorithm's instantiated configurations for the CUDA back end: the depth is split where the
// blocks alone would leave the GPU idle (Conv2dImplicit::planned); the splits add into a zeroed output.
#include "conv2d/implicit/instantiated.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::conv2d_impl {

ImplicitRun run_implicit_cuda(Queue& queue, std::string_view config, const ConvArgs& args) {
  ImplicitRun ran = ImplicitRun::not_instantiated;
  with_implicit_conv<implicit_cuda_instantiated>(config, args, [&](const auto& kernel) {
    using Kernel = std::decay_t<decltype(kernel)>;
    const Kernel planned = Kernel::planned(args, kernel::cuda::resident_groups<Kernel>(queue));
    if (planned.accumulates())
      queue.fill(args.output, 0.f, std::size_t(planned.pixels() * args.out_c));
    kernel::cuda::launch(queue, planned.groups(), planned);
    ran = planned.accumulates() ? ImplicitRun::epilogue_left : ImplicitRun::done;
  });
  return ran;
}

}  // namespace portkern::conv2d_impl
