// The `implicit` algorithm's instantiated configurations for the CPU back end.
#include "conv2d/implicit/instantiated.hpp"
#include "portkern/kernel/cpu.hpp"

namespace portkern::conv2d_impl {

bool run_implicit_cpu(const Queue& queue, std::string_view config, const ConvArgs& args) {
  return with_implicit_conv<implicit_cpu_instantiated>(
      config, args, [&](const auto& kernel) { kernel::cpu::launch(queue, kernel.groups(), kernel); });
}

}  // namespace portkern::conv2d_impl
