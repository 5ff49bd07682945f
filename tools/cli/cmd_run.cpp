// portkern run MODEL --device D --batch N [--gemm deployed|portable|vendor] [--weights FILE] [--repeats R]
// [--layers] [--json FILE]: a whole network's inference (portkern/net.hpp). Prints the time per batch (the
// median of timed forward passes after warm-up), the logits' summary, and with --layers a per-layer table.
//   deployed: the library as deployed (every GEMM family); portable: the GEMMs through the single-source
//   family only; vendor: the same network on the vendor's primitives (oneDNN or cuDNN for the convolutions,
//   oneDNN/OpenBLAS or cuBLAS for the linear layers), with our bias / residual / ReLU pass after each.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <random>

#include "bench/table.hpp"
#include "bench/vendor_conv2d.hpp"
#include "bench/vendor_gemm.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "portkern/net.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::cli {

namespace {

// The vendor's primitives behind the network's engine: its fp32 ("ieee") calls only.
net::Engine vendor_engine(const Device& device, int threads) {
  auto convs = std::make_shared<std::vector<bench::VendorConv2d>>(bench::vendor_conv2d(device, threads));
  auto gemms = std::make_shared<std::vector<bench::VendorGemm>>(bench::vendor_gemms(device, threads));
  std::erase_if(*gemms, [](const bench::VendorGemm& g) { return g.precision != "ieee" || !g.sgemm; });
  if (convs->empty())
    throw Error("portkern run: --gemm vendor: this build has no vendor convolution for " + device.name());
  // The linear layers on the convolution's library where it has a GEMM (oneDNN: the stronger CPU anchor).
  std::stable_partition(gemms->begin(), gemms->end(),
                        [&](const bench::VendorGemm& g) { return g.name == convs->front().name; });
  net::Engine engine;
  engine.name = convs->front().name;
  engine.prepare_conv = [convs](Queue& q, const Conv2dDesc& desc, const float* input, const float* filter,
                                const float* residual, float* output) -> net::PreparedConv {
    Conv2dDesc plain = conv2d_complete(desc);
    plain.bias = nullptr, plain.relu = false;
    for (auto& call : convs->front().prepare_in_place(q, plain, input, filter, output)) {
      if (call.precision != "ieee") continue;
      const std::int64_t rows = plain.batch * plain.out_h * plain.out_w;
      return {[&q, call, rows, channels = plain.out_c, output, bias = desc.bias, residual, relu = desc.relu] {
                call.run();
                if (call.to_output) call.to_output();
                net::bias_residual_relu(q, rows, channels, output, bias, residual, relu);
              },
              call.impl};
    }
    throw Error("portkern run: --gemm vendor: " + convs->front().name + " has no fp32 call for a layer");
  };
  if (!gemms->empty()) {
    engine.name += " + " + gemms->front().name;
    engine.prepare_linear = [gemms](Queue& q, std::int64_t out, std::int64_t features, std::int64_t batch,
                                    const float* weights, const float* x, float* y) -> std::function<void()> {
      bench::GemmOperands<float> p;
      p.m = out, p.n = batch, p.k = features, p.alpha = 1.f, p.a = weights, p.lda = features, p.b = x, p.ldb = features,
      p.beta = 0.f, p.c = y, p.ldc = out, p.batch = 1, p.ta = true, p.tb = false;
      return [&q, p, sgemm = gemms->front().sgemm] { sgemm(q, p); };
    };
  }
  return engine;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

void add_run(CLI::App& app) {
  auto* run = app.add_subcommand("run", "Run a whole network (vgg16, resnet50): time per batch, per-layer times");
  static std::string model_name, device = "cpu", gemm = "deployed", weights_file, save_weights, input_file,
      save_logits, json;
  static std::int64_t batch = 1;
  static int threads = 0, repeats = 10;
  static bool layers = false;
  run->add_option("model", model_name, "vgg16 or resnet50")->required()->check(CLI::IsMember(net::model_names()));
  add_device_option(*run, device);
  run->add_option("--batch", batch, "Images per forward pass")->capture_default_str()->check(CLI::PositiveNumber);
  run->add_option("--gemm", gemm, "deployed, portable (the single-source family only) or vendor")
      ->capture_default_str()
      ->check(CLI::IsMember({"deployed", "portable", "vendor"}));
  run->add_option("--weights", weights_file, "A safetensors file with torchvision's names (default: random, seed 1)")
      ->check(CLI::ExistingFile);
  add_output_option(*run, "--save-weights", save_weights, "Write the weights used as safetensors");
  run->add_option("--repeats", repeats, "Timed forward passes (after two warm-up passes)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  run->add_option("--input", input_file,
                  "A safetensors file whose tensor 'input' is the batch, NHWC and normalised (default: random)")
      ->check(CLI::ExistingFile);
  add_output_option(*run, "--save-logits", save_logits, "Write the logits as safetensors (tensor 'logits')");
  add_threads_option(*run, threads);
  run->add_flag("--layers", layers, "Also time each layer (a pass that waits after every layer)");
  add_output_option(*run, "--json", json, "Also write the figures as JSON to this file");
  run->callback([] {
    const Device d = Device::parse(device);
    Queue q(d, threads);
    if (gemm == "portable") q.set_gemm_family("tiled");
    const net::Model model = net::model_by_name(model_name);
    std::cerr << "weights: " << (weights_file.empty() ? "random (seed 1)" : weights_file) << "\n";
    const net::Weights weights =
        weights_file.empty() ? net::random_weights(model) : net::load_safetensors(weights_file);
    if (!save_weights.empty()) net::save_safetensors(save_weights, weights);
    const net::Engine engine = gemm == "vendor" ? vendor_engine(d, q.cpu_threads()) : net::library_engine();
    const auto prepare_start = std::chrono::steady_clock::now();
    net::Network network(q, model, weights, batch, engine);
    const double prepare_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - prepare_start).count();

    // The input: a file's, or drawn from a fixed seed as a normalised image would be (mean 0, deviation 1).
    const std::vector<std::int64_t> input_shape{batch, model.image, model.image, model.channels};
    std::vector<float> image(std::size_t(batch * model.image * model.image * model.channels));
    if (!input_file.empty()) {
      const net::Weights file = net::load_safetensors(input_file);
      const auto it = file.find("input");
      if (it == file.end() || it->second.shape != input_shape)
        throw Error("portkern run: --input " + input_file + ": needs a tensor 'input' of shape [" +
                    std::to_string(batch) + ", " + std::to_string(model.image) + ", " + std::to_string(model.image) +
                    ", " + std::to_string(model.channels) + "] (batch, rows, columns, channels)");
      image = it->second.data;
    } else {
      std::mt19937 rng(7);
      std::normal_distribution<float> normal{0.f, 1.f};
      for (float& v : image) v = normal(rng);
    }
    q.copy(network.input(), image.data(), image.size());

    for (int i = 0; i < 2; ++i) network.forward();  // warm-up: caches, the vendors' first-call work
    q.wait();
    std::vector<double> ms;
    for (int i = 0; i < repeats; ++i) {
      const auto start = std::chrono::steady_clock::now();
      network.forward();
      q.wait();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    const double batch_ms = median(ms);
    const auto [lo, hi] = std::minmax_element(ms.begin(), ms.end());

    std::vector<float> logits(std::size_t(batch * model.classes));
    q.copy(logits.data(), network.logits(), logits.size());
    q.wait();
    if (!save_logits.empty()) net::save_safetensors(save_logits, {{"logits", {{batch, model.classes}, logits}}});
    std::vector<int> top(std::size_t(model.classes));
    for (std::size_t i = 0; i < top.size(); ++i) top[i] = int(i);
    std::partial_sort(top.begin(), top.begin() + 5, top.end(),
                      [&](int a, int b) { return logits[std::size_t(a)] > logits[std::size_t(b)]; });

    std::cout << model.name << " on " << d.name() << ", batch " << batch << ", "
              << (gemm == "vendor" ? engine.name : "portkern " + gemm) << ": " << std::fixed << std::setprecision(3)
              << batch_ms << " ms per batch (median of " << repeats << ", " << *lo << "-" << *hi << "), "
              << batch_ms / double(batch) << " ms per image, " << std::setprecision(1)
              << network.gflop() / batch_ms * 1e3 << " GFLOP/s over " << network.gflop() << " GFLOP\n"
              << "prepared in " << prepare_ms << " ms; activations " << double(network.activation_bytes()) / (1 << 20)
              << " MiB\nimage 0 top-5 classes:";
    for (int i = 0; i < 5; ++i)
      std::cout << " " << top[std::size_t(i)] << " (" << std::setprecision(3)
                << logits[std::size_t(top[std::size_t(i)])] << ")";
    std::cout << "\n";

    nlohmann::json result = {{"model", model.name},
                             {"device", d.name()},
                             {"batch", batch},
                             {"gemm", gemm},
                             {"engine", engine.name},
                             {"batch_ms", batch_ms},
                             {"batch_ms_all", ms},
                             {"gflop", network.gflop()},
                             {"prepare_ms", prepare_ms},
                             {"weights", weights_file.empty() ? "random seed 1" : weights_file},
                             {"logits_image0_top5", std::vector<int>(top.begin(), top.begin() + 5)}};
    if (layers) {
      const std::vector<net::LayerTime> times = network.forward_timed();
      bench::Table table({"layer", "what", "ms", "GFLOP/s"});
      nlohmann::json rows = nlohmann::json::array();
      double sum = 0;
      for (const auto& t : times) {
        sum += t.ms;
        std::ostringstream a, b;
        a << std::fixed << std::setprecision(3) << t.ms;
        b << std::fixed << std::setprecision(1) << (t.gflop > 0 ? t.gflop / t.ms * 1e3 : 0.0);
        table.add({t.name, t.what, a.str(), t.gflop > 0 ? b.str() : "-"});
        rows.push_back({{"layer", t.name}, {"what", t.what}, {"ms", t.ms}, {"gflop", t.gflop}});
      }
      table.print(std::cout);
      std::cout << "sum of layers " << std::setprecision(3) << sum << " ms (each waited for)\n";
      result["layers"] = rows;
    }
    if (!json.empty()) write_json(json, result);
  });
}

}  // namespace portkern::cli
