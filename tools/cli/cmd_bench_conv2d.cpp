// portkern bench conv2d: registered once the convolution exists.
#include "cli/commands.hpp"

namespace portkern::cli {

void add_bench_conv2d(CLI::App&) {}

}  // namespace portkern::cli
