// The `implicit` algorithm's instantiated configurations for the CPU back end: one split of the depth (the
// threads have blocks enough on the layers of networks).
#include "conv2d/implicit/instantiated.hpp"
#include "portkern/kernel/cpu.hpp"

namespace portkern::conv2d_impl {

ImplicitRun run_implicit_cpu(Queue& queue, std::string_view config, const ConvArgs& args) {
  const bool found = with_implicit_conv<implicit_cpu_instantiated>(
      config, args, [&](const auto& kernel) { kernel::cpu::launch(queue, kernel.groups(), kernel); });
  return found ? ImplicitRun::done : ImplicitRun::not_instantiated;
}

}  // namespace portkern::conv2d_impl
