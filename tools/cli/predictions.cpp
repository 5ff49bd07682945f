#include "cli/predictions.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "portkern/error.hpp"

namespace portkern::cli {

std::vector<std::string> read_class_names(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) fail(path, "a folder, not a file of class names");
  std::ifstream in(path);
  if (!in) fail(path, "cannot read the class names");
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.starts_with('#')) continue;
    names.push_back(line);
  }
  if (in.bad()) fail(path, "reading the class names failed");
  if (names.empty()) fail(path, "no class names in the file");
  return names;
}

std::string default_class_names_file() {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  std::vector<fs::path> candidates;
  if (!error) {
    const fs::path bin = executable.parent_path();
    candidates.push_back(bin / "../share/portkern/imagenet_classes.txt");
    candidates.push_back(bin / "../data/net/imagenet_classes.txt");
  }
  candidates.push_back(fs::path(PORTKERN_SOURCE_DIR) / "data/net/imagenet_classes.txt");
  for (const fs::path& p : candidates)
    if (fs::is_regular_file(p, error)) return p.lexically_normal().string();
  return {};
}

std::vector<Prediction> top_predictions(const float* logits, std::int64_t classes, int k) {
  const double largest = *std::max_element(logits, logits + classes);
  double sum = 0;
  for (std::int64_t i = 0; i < classes; ++i) sum += std::exp(double(logits[i]) - largest);
  std::vector<int> order(static_cast<std::size_t>(classes));
  std::iota(order.begin(), order.end(), 0);
  k = int(std::min<std::int64_t>(k, classes));
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int a, int b) {
    return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
  });
  std::vector<Prediction> top;
  for (int i = 0; i < k; ++i) {
    const int c = order[std::size_t(i)];
    top.push_back({c, std::exp(double(logits[c]) - largest) / sum, logits[c]});
  }
  return top;
}

std::string describe(const std::vector<Prediction>& predictions, const std::vector<std::string>& names) {
  std::string text;
  for (const Prediction& p : predictions) {
    char probability[32];
    std::snprintf(probability, sizeof probability, "%.3f", p.probability);
    text += (text.empty() ? "" : ", ") + std::to_string(p.index) + " ";
    if (std::size_t(p.index) < names.size()) text += names[std::size_t(p.index)] + " ";
    text += probability;
  }
  return text;
}

}  // namespace portkern::cli
