#include "bench/net_bench.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>

#include "bench/table.hpp"
#include "bench/vendor_net.hpp"
#include "portkern/error.hpp"

namespace portkern::bench {

net::Engine net_engine(Queue& queue, const std::string& backend, Precision precision, net::LayerPick pick) {
  if (backend == "vendor") return vendor_net_engine(queue.device(), queue.cpu_threads(), precision);
  if (backend == "portable") queue.set_gemm_family("tiled");
  else if (backend != "deployed") throw Error("unknown network back end '" + backend + "'");
  return net::library_engine(precision, pick);
}

std::vector<float> random_input(std::size_t elements) {
  std::vector<float> input(elements);
  std::mt19937 rng(7);
  std::normal_distribution<float> normal{0.f, 1.f};
  for (float& v : input) v = normal(rng);
  return input;
}

std::vector<double> time_forward(Queue& queue, net::Network& network, int repeats) {
  for (int i = 0; i < 2; ++i) network.forward();
  queue.wait();
  std::vector<double> ms;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    network.forward();
    queue.wait();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return ms;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

nlohmann::json bench_networks(const Device& device, const NetBenchOptions& options) {
  nlohmann::json rows = nlohmann::json::array();
  for (const std::string& name : options.models) {
    const net::Model model = net::model_by_name(name);
    const net::Weights weights = net::random_weights(model);
    const std::vector<float> input =
        random_input(std::size_t(options.batch * model.image * model.image * model.channels));
    for (const std::string& backend : net_backends) {
      nlohmann::json row = {{"model", model.name}, {"batch", options.batch}, {"gemm", backend}};
      if (backend != "vendor") row["pick"] = net::name(options.pick);
      try {
        Queue q(device, options.threads);
        const net::Engine engine = net_engine(q, backend, Precision::accurate, options.pick);
        const auto start = std::chrono::steady_clock::now();
        net::Network network(q, model, weights, options.batch, engine);
        row["prepare_ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        q.copy(network.input(), input.data(), input.size());
        const std::vector<double> ms = time_forward(q, network, options.repeats);
        row["engine"] = backend == "vendor" ? engine.name : "portkern " + backend;
        row["batch_ms"] = median(ms);
        row["batch_ms_all"] = ms;
        row["gflop"] = network.gflop();
      } catch (const Error& e) {   // a back end this build or device lacks: said in the row, the rest go on
        row["error"] = e.what();
      }
      rows.push_back(row);
    }
  }
  return rows;
}

void print_networks(const nlohmann::json& rows) {
  Table table({"model", "batch", "back end", "engine", "ms per batch", "GFLOP/s", "runs (ms)"});
  for (const auto& r : rows) {
    if (r.contains("error")) {
      table.add({r["model"], std::to_string(r["batch"].get<std::int64_t>()), r["gemm"], r["error"], "-", "-", "-"});
      continue;
    }
    std::string runs;
    for (const auto& ms : r["batch_ms_all"]) runs += (runs.empty() ? "" : " ") + fixed(ms.get<double>(), 2);
    table.add({r["model"], std::to_string(r["batch"].get<std::int64_t>()), r["gemm"], r["engine"],
               fixed(r["batch_ms"].get<double>(), 3),
               fixed(r["gflop"].get<double>() / r["batch_ms"].get<double>() * 1e3, 1), runs});
  }
  table.print(std::cout);
}

}  // namespace portkern::bench
