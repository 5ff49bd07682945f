// The `portkern` command's sub-commands; each registers itself on the application.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace portkern::cli {

void add_info(CLI::App& app);
void add_bench(CLI::App& app);
void add_report(CLI::App& app);
void add_tune(CLI::App& app);
void add_select(CLI::App& app);
void add_run(CLI::App& app);
void add_bench_conv2d(CLI::App& bench);   // bench's conv2d sub-command
void add_bench_ops(CLI::App& bench);      // bench's ops sub-command

// Writes `json` to `path`, pretty-printed.
void write_json(const std::string& path, const nlohmann::json& json);

}  // namespace portkern::cli
