#include "cli/options.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "portkern/blas.hpp"
#include "portkern/error.hpp"
#include "portkern/runtime/device.hpp"

namespace portkern::cli {

const CLI::Validator positive_finite(
    [](std::string& text) -> std::string {
      double value = 0;
      if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value <= 0)
        return "'" + text + "' must be a finite number > 0";
      return {};
    },
    "POSITIVE");
const CLI::Validator positive_integer(
    [](std::string& text) -> std::string {
      std::int64_t value = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 1)
        return "'" + text + "' must be an integer in [1, 2^63 - 1]";
      return {};
    },
    "POSITIVE");

std::string join(const std::vector<std::string>& names) {
  std::string all;
  for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
  return all;
}

void usage_error(const std::string& option, const std::string& message) { throw CLI::ValidationError(option, message); }

std::string writable_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (path.empty()) return "an empty path";
  if (fs::is_directory(path, error)) return "'" + path + "' is a folder";
  const fs::path parent = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  if (!fs::exists(parent, error)) {   // created when the file is written: the nearest existing folder must allow it
    fs::path folder = parent;
    while (!fs::exists(folder, error) && folder.has_parent_path() && folder.parent_path() != folder)
      folder = folder.parent_path();
    if (!fs::is_directory(folder, error)) return "'" + folder.string() + "' is not a folder";
    if (access(folder.c_str(), W_OK | X_OK) != 0)
      return "cannot create a folder in '" + folder.string() + "': " + std::strerror(errno);
    return {};
  }
  if (!fs::is_directory(parent, error)) return "'" + parent.string() + "' is not a folder";
  const bool existed = fs::exists(path, error);
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot write '" + path + "': " + std::strerror(errno);
  close(fd);
  if (!existed) unlink(path.c_str());
  return {};
}

void check_gemm_family(const std::string& option, const std::string& device, const std::string& family, bool all) {
  const Device d = Device::parse(device);
  std::vector<std::string> families;
  for (const GemmFamily& f : gemm_families(d)) families.push_back(f.name);
  if (all) families.push_back("all");
  if (std::find(families.begin(), families.end(), family) == families.end())
    usage_error(option, "'" + family + "' is not a GEMM family on " + d.name() + " (one of " + join(families) + ")");
}

CLI::Option* add_device_option(CLI::App& command, std::string& device, const std::string& help) {
  return command.add_option("--device", device, help)
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& name) -> std::string {
            try {
              Device::parse(name);
              return {};
            } catch (const Error& e) {
              return "'" + name + "': " + e.what();
            }
          },
          "DEVICE"));
}

CLI::Option* add_threads_option(CLI::App& command, int& threads) {
  return command.add_option("--threads", threads, "CPU threads (0: all)")->check(CLI::Range(0, max_threads));
}

CLI::Option* add_precision_option(CLI::App& command, std::string& precision) {
  return command
      .add_option("--precision", precision,
                  "Float products: accurate (fp32 accuracy, 3xTF32 tensor cores where they pay), ieee (fp32 FMA "
                  "only) or tf32 (operands rounded to TF32, as PyTorch's allow_tf32)")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            return parse_precision(value) ? "" : "'" + value + "' is not a precision (accurate, ieee or tf32)";
          },
          "PRECISION"))
      ->capture_default_str();
}

CLI::Option* add_output_option(CLI::App& command, const std::string& name, std::string& path, const std::string& help) {
  return command.add_option(name, path, help)->check(CLI::Validator(writable_file, "FILE"));
}

}  // namespace portkern::cli
