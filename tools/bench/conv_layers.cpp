#include "bench/conv_layers.hpp"

#include <filesystem>

#include "bench/csv_reader.hpp"
#include "bench/shapes.hpp"
#include "portkern/error.hpp"

namespace portkern::bench {

std::string conv_shapes_path(const std::string& net) {
  if (net.find('/') != std::string::npos || net.ends_with(".csv")) return net;
  const std::string path = data_dir() + "/shapes/conv_" + net + ".csv";
  if (std::filesystem::exists(path)) return path;
  std::string nets;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir() + "/shapes", error)) {
    const std::string file = entry.path().filename().string();
    if (file.starts_with("conv_") && file.ends_with(".csv")) nets.append(file, 5, file.size() - 9).append(" ");
  }
  fail("portkern", "'" + net + "' is neither a network (" + nets + "in " + data_dir() + "/shapes) nor a CSV file");
}

std::vector<ConvLayer> read_conv_layers(std::istream& in, const std::string& source) {
  CsvReader csv(in, source);
  csv.require_columns({"layer", "window", "stride", "in_h", "in_w", "in_c", "out_h", "out_w", "out_k"});
  constexpr std::int64_t largest = (std::int64_t(1) << 31) - 1;
  std::vector<ConvLayer> layers;
  while (csv.next()) {
    auto size = [&](const char* column) { return csv.integer(column, 1, largest); };
    const ConvLayer layer{csv.text("layer"), size("window"), size("stride"), size("in_h"), size("in_w"),
                          size("in_c"),      size("out_h"),  size("out_w"),  size("out_k"),
                          csv.has("groups") ? size("groups") : 1};
    try {   // the descriptor's checks, the tensors' sizes in bytes included
      conv2d_complete(layer_desc(layer, 1));
    } catch (const Error& e) {
      csv.fail_here(std::string("layer '") + layer.name + "': " + e.what());
    }
    layers.push_back(layer);
  }
  if (layers.empty()) fail(source, "no layers in the file (only a header)");
  return layers;
}

std::vector<ConvLayer> read_conv_layers(const std::string& path) {
  std::ifstream in = open_shapes_file(path);
  return read_conv_layers(in, path);
}

std::string layer_label(const ConvLayer& l) {
  auto s = [](std::int64_t v) { return std::to_string(v); };
  return s(l.window) + "x" + s(l.window) + "/" + s(l.stride) + " " + s(l.in_h) + "x" + s(l.in_w) + "x" + s(l.in_c) +
         "->" + s(l.out_k) + (l.groups != 1 ? " g" + s(l.groups) : "");
}

Conv2dDesc layer_desc(const ConvLayer& l, std::int64_t batch) {
  Conv2dDesc d;
  d.batch = batch, d.in_h = l.in_h, d.in_w = l.in_w, d.in_c = l.in_c, d.out_c = l.out_k;
  d.window_h = d.window_w = l.window;
  d.stride_h = d.stride_w = l.stride;
  const std::int64_t pad = (l.in_h - l.window) / l.stride + 1 == l.out_h ? 0 : (l.window - 1) / 2;
  d.pad_top = d.pad_bottom = d.pad_left = d.pad_right = pad;
  d.out_h = l.out_h, d.out_w = l.out_w;
  d.groups = l.groups;
  return d;
}

}  // namespace portkern::bench
