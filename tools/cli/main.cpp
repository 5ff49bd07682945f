// portkern: the command line — info, bench, report, tune, select. Nothing escapes main: a rejected command
// line ends with one `error:` line and exit 2, any failure (bad input file, out of memory, a file that
// cannot be written) with one `error:` line and exit 1.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>

#include "cli/commands.hpp"
#include "portkern/error.hpp"

namespace portkern::cli {

namespace {

// A result file as records: one top-level key a line, and an array of objects (a benchmark's rows) one element a
// line, so that files stay small (an indented row takes three times the bytes) and diffs show rows.
std::string as_records(const nlohmann::json& json) {
  if (!json.is_object()) return json.dump();
  std::string text = "{";
  const char* separator = "\n";
  for (const auto& [key, value] : json.items()) {
    text.append(separator).append(nlohmann::json(key).dump()).append(":");
    separator = ",\n";
    const bool rows = value.is_array() && !value.empty() &&
                      std::all_of(value.begin(), value.end(), [](const nlohmann::json& v) { return v.is_object(); });
    if (!rows) {
      text += value.dump();
      continue;
    }
    const char* row_separator = "[\n";
    for (const auto& row : value) text.append(row_separator).append(row.dump()), row_separator = ",\n";
    text += "\n]";
  }
  return text + "\n}";
}

}  // namespace

void write_json(const std::string& path, const nlohmann::json& json) {
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  std::ofstream out(path);
  if (!out) fail("portkern", "cannot write " + path);
  out << as_records(json) << '\n';
  out.close();
  if (!out) fail("portkern", "writing " + path + " failed");
  std::cerr << "wrote " << path << '\n';
}

}  // namespace portkern::cli

namespace {

int run(int argc, char** argv) {
  CLI::App app{"portkern: performance-portable compute kernels for CPUs and NVIDIA GPUs"};
  app.require_subcommand(1);
  portkern::cli::add_info(app);
  portkern::cli::add_bench(app);
  portkern::cli::add_report(app);
  portkern::cli::add_tune(app);
  portkern::cli::add_select(app);
  portkern::cli::add_run(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {   // --help
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error: " << e.what() << " (see " << argv[0] << " --help)\n";
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const portkern::Error& e) {
    std::cerr << "error: " << e.what() << '\n';
  } catch (const std::bad_alloc&) {
    std::cerr << "error: out of memory\n";
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "error: " << e.what() << '\n';
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "error: an unknown exception\n";
  }
  return 1;
}
