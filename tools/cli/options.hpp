// The options several sub-commands share, with the checks that run while the command line is parsed (before
// anything is measured): a device name, a thread count, an output file that can be written, and numbers that
// must be positive. A rejected option ends the command with one `error:` line and exit 2.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace portkern::cli {

// The most CPU threads a command accepts.
inline constexpr int max_threads = 1024;

// --device: "cpu" or "cuda:N", checked by Device::parse.
CLI::Option* add_device_option(CLI::App& command, std::string& device, const std::string& help = "cpu or cuda:N");
// --threads: 0 (all cores) to max_threads.
CLI::Option* add_threads_option(CLI::App& command, int& threads);
// --precision: accurate (the default), ieee or tf32 (portkern/precision.hpp).
CLI::Option* add_precision_option(CLI::App& command, std::string& precision);
// An output file (--json, --out): rejected unless it can be created or appended to (see writable_file).
CLI::Option* add_output_option(CLI::App& command, const std::string& name, std::string& path, const std::string& help);

// A finite number > 0 (CLI11's PositiveNumber lets NaN and infinity through) and a whole integer >= 1 (its
// message for integers quotes the range of a double).
extern const CLI::Validator positive_finite;
extern const CLI::Validator positive_integer;

// Why `path` cannot be written as an output file ("" when it can): a missing folder is fine when it can be
// created; a path under a regular file, a folder, or a file the file system refuses (read-only, no
// permission) is not. Tries the open without truncating, and removes a file it created.
std::string writable_file(const std::string& path);

// Ends the command as a usage error (exit 2): "error: <option>: <message>".
[[noreturn]] void usage_error(const std::string& option, const std::string& message);

// Usage error unless `family` is a GEMM family of the device's deployment (or "all" where `all` is allowed).
void check_gemm_family(const std::string& option, const std::string& device, const std::string& family, bool all);

// "a, b, c"
std::string join(const std::vector<std::string>& names);

}  // namespace portkern::cli
