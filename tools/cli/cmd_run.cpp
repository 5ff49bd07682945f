// portkern run MODEL --device D --batch N [--gemm deployed|portable|vendor] [--precision accurate|ieee|tf32]
// [--weights FILE] [--repeats R]
// [--image FILE... [--resize N] | --input FILE] [--labels FILE] [--layers] [--json FILE]: a whole network's
// inference (portkern/net.hpp). Prints the time per batch (the median of timed forward passes after warm-up),
// the top-5 classes of each image with their softmax probabilities (and names, from the ImageNet class list
// shipped in data/net/ or --labels), and with --layers a per-layer table.
//   deployed: the library as deployed (every GEMM family); portable: the GEMMs through the single-source
//   family only; vendor: the same network on the vendor's primitives (oneDNN or cuDNN for the convolutions,
//   oneDNN/OpenBLAS or cuBLAS for the linear layers), with our bias / residual / ReLU pass after each.
//   --precision (portkern/precision.hpp) holds for every convolution and linear layer, the vendor's too (its
//   TF32 calls at tf32).
// --image decodes PNG and JPEG files and preprocesses them as torchvision's ImageNet weights do
// (tools/image/imagenet_transform.hpp); the batch is the images given.
#include <chrono>
#include <iomanip>
#include <iostream>

#include "bench/net_bench.hpp"
#include "bench/table.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/predictions.hpp"
#include "portkern/error.hpp"
#include "portkern/net.hpp"
#include "portkern/runtime/buffer.hpp"
#ifdef PORTKERN_HAVE_IMAGE
#include "image/imagenet_transform.hpp"
#endif

namespace portkern::cli {

namespace {

// The images decoded and preprocessed into one NHWC batch, in the order given.
std::vector<float> image_batch(const std::vector<std::string>& files, const net::Model& model,
                               std::int64_t resize) {
#ifdef PORTKERN_HAVE_IMAGE
  std::vector<float> batch;
  batch.reserve(std::size_t(files.size()) * std::size_t(model.image * model.image * model.channels));
  for (const std::string& file : files) {
    try {
      const std::vector<float> one = image::imagenet_input(image::read_image(file), resize, model.image);
      batch.insert(batch.end(), one.begin(), one.end());
    } catch (const Error& e) {
      throw Error(std::string("portkern run: --image ") + e.what());
    }
  }
  return batch;
#else
  (void)files, (void)model, (void)resize;
  throw Error("portkern run: --image: this build reads no image files (libpng and libjpeg were not found when "
              "it was configured; Debian: libpng-dev libjpeg62-turbo-dev)");
#endif
}

// The class names: --labels, else the shipped ImageNet list when the model has its 1000 classes, else none.
std::vector<std::string> class_names(const std::string& labels, const net::Model& model) {
  const std::string file = labels.empty() && model.classes == 1000 ? default_class_names_file() : labels;
  if (file.empty()) {
    std::cerr << "note: no class names found (--labels FILE): classes are printed as indices\n";
    return {};
  }
  std::vector<std::string> names;
  try {
    names = read_class_names(file);
  } catch (const Error& e) {
    throw Error(std::string("portkern run: --labels ") + e.what());
  }
  if (std::int64_t(names.size()) != model.classes)
    throw Error("portkern run: --labels " + file + ": " + std::to_string(names.size()) + " class names, but " +
                model.name + " has " + std::to_string(model.classes) + " classes");
  return names;
}

}  // namespace

void add_run(CLI::App& app) {
  auto* run = app.add_subcommand("run", "Run a whole network (vgg16, resnet50): time per batch, per-layer times");
  static std::string model_name, device = "cpu", gemm = "deployed", weights_file, save_weights, input_file,
      save_input, save_logits, labels, json;
  static std::vector<std::string> images;
  static std::int64_t batch = 1, resize = 256;
  static int threads = 0, repeats = 10;
  static bool layers = false;
  run->add_option("model", model_name, "vgg16 or resnet50")->required()->check(CLI::IsMember(net::model_names()));
  add_device_option(*run, device);
  auto* batch_option = run->add_option("--batch", batch, "Images per forward pass (default: 1, or the --image count)")
                           ->check(positive_integer);
  run->add_option("--gemm", gemm, "deployed, portable (the single-source family only) or vendor")
      ->capture_default_str()
      ->check(CLI::IsMember(bench::net_backends));
  static std::string precision = "accurate", pick = "timed";
  add_precision_option(*run, precision);
  run->add_option("--pick", pick,
                  "How the library chooses each convolution's configuration: timed (each configuration the deployment "
                  "ships timed once at load, the fastest kept) or tree (the deployment's decision trees)")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            try {
              net::parse_layer_pick(value);
              return "";
            } catch (const Error& e) {
              return e.what();
            }
          },
          "PICK"));
  run->add_option("--weights", weights_file, "A safetensors file with torchvision's names (default: random, seed 1)")
      ->check(CLI::ExistingFile);
  add_output_option(*run, "--save-weights", save_weights, "Write the weights used as safetensors");
  run->add_option("--repeats", repeats, "Timed forward passes (after two warm-up passes)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  auto* image_option =
      run->add_option("--image", images,
                      "PNG or JPEG files, one batch entry each, preprocessed as torchvision's ImageNet weights are "
                      "(resize the shorter side, bilinear with antialiasing; center crop; normalise)");
  run->add_option("--resize", resize,
                  "With --image: the shorter side before the center crop (256; 232 for ResNet-50's IMAGENET1K_V2)")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t(1), std::int64_t(65536)))
      ->needs(image_option);
  run->add_option("--input", input_file,
                  "A safetensors file whose tensor 'input' is the batch, NHWC and normalised (default: random)")
      ->check(CLI::ExistingFile)
      ->excludes(image_option);
  add_output_option(*run, "--save-input", save_input, "Write the input batch as safetensors (tensor 'input', NHWC)");
  run->add_option("--labels", labels,
                  "Class names, one a line (default: the ImageNet list in data/net/, when found)");
  add_output_option(*run, "--save-logits", save_logits, "Write the logits as safetensors (tensor 'logits')");
  add_threads_option(*run, threads);
  run->add_flag("--layers", layers, "Also time each layer (median over --repeats passes that wait after every layer)");
  add_output_option(*run, "--json", json, "Also write the figures as JSON to this file");
  run->callback([batch_option] {
    const net::Model model = net::model_by_name(model_name);
    if (!images.empty()) {
      if (batch_option->count() == 0) batch = std::int64_t(images.size());
      else if (batch != std::int64_t(images.size()))
        usage_error("--batch", std::to_string(batch) + " differs from the " + std::to_string(images.size()) +
                                   " --image files (the batch is the images: leave --batch out)");
      if (resize < model.image)
        usage_error("--resize", std::to_string(resize) + " is smaller than the " + std::to_string(model.image) +
                                    "-pixel crop " + model.name + " takes");
    }
    const std::vector<std::string> names = class_names(labels, model);
    // The input: the images, a file's batch, or drawn from a fixed seed as a normalised image would be.
    const std::vector<std::int64_t> input_shape{batch, model.image, model.image, model.channels};
    std::vector<float> input;
    if (!images.empty()) {
      input = image_batch(images, model, resize);
    } else if (!input_file.empty()) {
      const net::Weights file = net::load_safetensors(input_file);
      const auto it = file.find("input");
      if (it == file.end() || it->second.shape != input_shape)
        throw Error("portkern run: --input " + input_file + ": needs a tensor 'input' of shape [" +
                    std::to_string(batch) + ", " + std::to_string(model.image) + ", " + std::to_string(model.image) +
                    ", " + std::to_string(model.channels) + "] (batch, rows, columns, channels)");
      input = it->second.data;
    } else {
      input = bench::random_input(std::size_t(batch * model.image * model.image * model.channels));
    }
    if (!save_input.empty()) net::save_safetensors(save_input, {{"input", {input_shape, input}}});

    const Device d = Device::parse(device);
    Queue q(d, threads);
    std::cerr << "weights: " << (weights_file.empty() ? "random (seed 1)" : weights_file) << "\n";
    if (weights_file.empty() && !images.empty())
      std::cerr << "note: random weights: the classes below mean nothing (--weights FILE: torchvision's, as "
                   "tools/net/torch_net.py writes them)\n";
    const net::Weights weights =
        weights_file.empty() ? net::random_weights(model) : net::load_safetensors(weights_file);
    if (!save_weights.empty()) net::save_safetensors(save_weights, weights);
    const net::Engine engine = bench::net_engine(q, gemm, *parse_precision(precision), net::parse_layer_pick(pick));
    const auto prepare_start = std::chrono::steady_clock::now();
    net::Network network(q, model, weights, batch, engine);
    const double prepare_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - prepare_start).count();
    q.copy(network.input(), input.data(), input.size());

    const std::vector<double> ms = bench::time_forward(q, network, repeats);
    const double batch_ms = bench::median(ms);
    const auto [lo, hi] = std::minmax_element(ms.begin(), ms.end());

    std::vector<float> logits(std::size_t(batch * model.classes));
    q.copy(logits.data(), network.logits(), logits.size());
    q.wait();
    if (!save_logits.empty()) net::save_safetensors(save_logits, {{"logits", {{batch, model.classes}, logits}}});

    std::cout << model.name << " on " << d.name() << ", batch " << batch << ", "
              << (gemm == "vendor" ? engine.name : "portkern " + gemm + " (" + pick + " pick)") << ", precision "
              << precision << ": "
              << std::fixed << std::setprecision(3)
              << batch_ms << " ms per batch (median of " << repeats << ", " << *lo << "-" << *hi << "), "
              << batch_ms / double(batch) << " ms per image, " << std::setprecision(1)
              << network.gflop() / batch_ms * 1e3 << " GFLOP/s over " << network.gflop() << " GFLOP\n"
              << "prepared in " << prepare_ms << " ms; activations " << double(network.activation_bytes()) / (1 << 20)
              << " MiB\n";
    // The top-5 of every image given, else of the first batch entry.
    nlohmann::json top5 = nlohmann::json::array();
    const std::int64_t shown = images.empty() ? 1 : batch;
    for (std::int64_t b = 0; b < shown; ++b) {
      const auto top = top_predictions(logits.data() + b * model.classes, model.classes, 5);
      const std::string what = images.empty() ? std::to_string(b) : images[std::size_t(b)];
      std::cout << "image " << what << ": " << describe(top, names) << "\n";
      nlohmann::json classes = nlohmann::json::array();
      for (const Prediction& p : top) {
        classes.push_back({{"class", p.index}, {"probability", p.probability}, {"logit", p.logit}});
        if (!names.empty()) classes.back()["name"] = names[std::size_t(p.index)];
      }
      top5.push_back({{"image", what}, {"top5", classes}});
    }

    nlohmann::json result = {{"model", model.name},
                             {"device", d.name()},
                             {"batch", batch},
                             {"gemm", gemm},
                             {"pick", gemm == "vendor" ? "vendor" : pick},
                             {"engine", engine.name},
                             {"precision", precision},
                             {"batch_ms", batch_ms},
                             {"batch_ms_all", ms},
                             {"gflop", network.gflop()},
                             {"prepare_ms", prepare_ms},
                             {"weights", weights_file.empty() ? "random seed 1" : weights_file},
                             {"input", !images.empty() ? "images" : input_file.empty() ? "random seed 7" : input_file},
                             {"predictions", top5}};
    if (layers) {
      // each layer's median over as many layer-by-layer passes as --repeats asks (one pass is noisy)
      std::vector<net::LayerTime> times = network.forward_timed();
      std::vector<std::vector<double>> samples(times.size());
      for (int pass = 0; pass < repeats; ++pass) {
        const std::vector<net::LayerTime> again = pass == 0 ? times : network.forward_timed();
        for (std::size_t i = 0; i < times.size(); ++i) samples[i].push_back(again[i].ms);
      }
      for (std::size_t i = 0; i < times.size(); ++i) times[i].ms = bench::median(samples[i]);
      bench::Table table({"layer", "what", "ms", "GFLOP/s"});
      nlohmann::json rows = nlohmann::json::array();
      double sum = 0;
      for (const auto& t : times) {
        sum += t.ms;
        table.add({t.name, t.what, bench::fixed(t.ms, 3), t.gflop > 0 ? bench::fixed(t.gflop / t.ms * 1e3, 1) : "-"});
        rows.push_back({{"layer", t.name}, {"what", t.what}, {"ms", t.ms}, {"gflop", t.gflop}});
      }
      table.print(std::cout);
      std::cout << "sum of layers " << std::setprecision(3) << sum << " ms (each the median of " << repeats
                << " passes, waited for)\n";
      result["layers"] = rows;
    }
    if (!json.empty()) write_json(json, result);
  });
}

}  // namespace portkern::cli
