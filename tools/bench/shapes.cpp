#include "bench/shapes.hpp"

#include <cstdlib>
#include <filesystem>

#include "portkern/error.hpp"

namespace portkern::bench {

std::string data_dir() {
  if (const char* dir = std::getenv("PORTKERN_DATA_DIR")) return dir;
  return PORTKERN_SOURCE_DIR "/data";
}

namespace {
constexpr const char* set_names[] = {"square", "pow2", "seed", "nets", "nets-quick"};
}

std::vector<GemmShape> gemm_shapes(const std::string& set_or_file, const Device& device) {
  for (const char* name : set_names)
    if (set_or_file == name) return gemm_set(set_or_file, device);
  if (!std::filesystem::exists(set_or_file))
    fail("portkern", "--shapes '" + set_or_file + "' is neither a set (square, pow2, seed, nets, nets-quick) nor a file");
  return read_gemm_shapes(set_or_file);
}

std::vector<GemmShape> gemm_set(const std::string& name, const Device& device) {
  std::vector<GemmShape> shapes;
  if (name == "square") {
    const std::int64_t largest = device.is_cuda() ? 8192 : 4096;
    for (std::int64_t s = 256; s <= largest; s *= 2) shapes.push_back({s, s, s, 1});
  } else if (name == "pow2") {
    for (std::int64_t m = 64; m <= 1024; m *= 2)
      for (std::int64_t n = 64; n <= 1024; n *= 2)
        for (std::int64_t k = 64; k <= 1024; k *= 2) shapes.push_back({m, n, k, 1});
  } else if (name == "seed") {
    shapes = read_gemm_shapes(data_dir() + "/shapes/gemm_seed.csv");
    if (device.is_cpu()) std::erase_if(shapes, [](const GemmShape& s) { return s.m * s.n * s.k > (std::int64_t(1) << 36); });
  } else if (name == "nets") {
    shapes = read_gemm_shapes(data_dir() + "/shapes/gemm_nets.csv");
  } else if (name == "nets-quick") {
    shapes = read_gemm_shapes(data_dir() + "/shapes/gemm_nets_quick.csv");
  } else {
    require(false, "portkern bench gemm", "--set", name, "one of square, pow2, seed, nets, nets-quick");
  }
  return shapes;
}

}  // namespace portkern::bench
