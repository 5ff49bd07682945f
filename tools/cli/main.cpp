// portkern: the command line — info, bench, report, tune, select.
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "portkern/error.hpp"

namespace portkern::cli {

void write_json(const std::string& path, const nlohmann::json& json) {
  std::ofstream out(path);
  if (!out) fail("portkern", "cannot write " + path);
  out << json.dump(2) << '\n';
  std::cerr << "wrote " << path << '\n';
}

}  // namespace portkern::cli

int main(int argc, char** argv) {
  CLI::App app{"portkern: performance-portable compute kernels for CPUs and NVIDIA GPUs"};
  app.require_subcommand(1);
  portkern::cli::add_info(app);
  portkern::cli::add_bench(app);
  portkern::cli::add_report(app);
  portkern::cli::add_tune(app);
  portkern::cli::add_select(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const portkern::Error& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
