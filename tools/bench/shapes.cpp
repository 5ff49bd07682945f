#include "bench/shapes.hpp"

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "portkern/error.hpp"

namespace portkern::bench {

namespace {
std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) {
    const auto first = cell.find_first_not_of(" \t\r"), last = cell.find_last_not_of(" \t\r");
    cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
  }
  return cells;
}
}  // namespace

std::string data_dir() {
  if (const char* dir = std::getenv("PORTKERN_DATA_DIR")) return dir;
  return PORTKERN_SOURCE_DIR "/data";
}

std::vector<GemmShape> read_gemm_shapes(const std::string& path) {
  const char* fn = "portkern::read_gemm_shapes";
  std::ifstream in(path);
  if (!in) fail(fn, "cannot read " + path);
  std::string line;
  std::map<std::string, std::size_t> column;
  while (std::getline(in, line) && (line.empty() || line[0] == '#')) {
  }
  const auto header = split(line);
  for (std::size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
  for (const char* needed : {"m", "k", "n", "batch"})
    if (!column.count(needed)) fail(fn, path + ": the header names no column '" + needed + "' (it needs m,k,n,batch)");
  std::vector<GemmShape> shapes;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    const auto cells = split(line);
    auto get = [&](const char* name, std::int64_t fallback) -> std::int64_t {
      const auto it = column.find(name);
      if (it == column.end()) return fallback;
      if (it->second >= cells.size() || cells[it->second].empty())
        fail(fn, path + ":" + std::to_string(number) + ": no value for " + name);
      return std::stoll(cells[it->second]);
    };
    GemmShape s{get("m", 1), get("n", 1), get("k", 1), get("batch", 1), get("trans_a", 0) != 0, get("trans_b", 0) != 0};
    if (s.m < 1 || s.n < 1 || s.k < 1 || s.batch < 1)
      fail(fn, path + ":" + std::to_string(number) + ": m, n, k and batch must be >= 1");
    shapes.push_back(s);
  }
  return shapes;
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
