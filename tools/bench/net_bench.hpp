// Whole networks timed (`portkern run`, and `portkern report`'s networks part): forward passes of a network
// prepared once (portkern/net.hpp), on one of three back ends —
//   deployed: the library as deployed; portable: every GEMM through the single-source family ("tiled");
//   vendor: the vendor's primitives (vendor_net.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "portkern/net.hpp"

namespace portkern::bench {

inline const std::vector<std::string> net_backends = {"deployed", "portable", "vendor"};

// The engine of `backend` for networks on `queue` at `precision` (portable sets the queue's GEMM family to
// "tiled"); `pick` says how the library's back ends choose each convolution's configuration (the vendor
// chooses its own).
net::Engine net_engine(Queue& queue, const std::string& backend, Precision precision = Precision::accurate,
                       net::LayerPick pick = net::LayerPick::timed);

// A batch drawn from a fixed seed as a normalised image would be (mean 0, deviation 1): `elements` floats.
std::vector<float> random_input(std::size_t elements);

// The milliseconds of `repeats` forward passes, each waited for, after two warm-up passes (caches, the
// vendors' first-call work).
std::vector<double> time_forward(Queue& queue, net::Network& network, int repeats);

double median(std::vector<double> values);

struct NetBenchOptions {
  std::vector<std::string> models = {"vgg16", "resnet50"};
  std::int64_t batch = 1;
  int repeats = 3;
  int threads = 0;
  net::LayerPick pick = net::LayerPick::timed;
};

// Every model on every back end, random weights (seed 1) and input: [{"model", "batch", "gemm", "pick", "engine",
// "batch_ms", "batch_ms_all", "gflop", "prepare_ms"}]. A back end the build lacks (no vendor library) is a row
// with "error" instead of times.
nlohmann::json bench_networks(const Device& device, const NetBenchOptions& options);
void print_networks(const nlohmann::json& rows);

}  // namespace portkern::bench
