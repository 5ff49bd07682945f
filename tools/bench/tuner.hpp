// `portkern tune gemm`: measures every configuration of a family on every shape (seed 001's data
// collection) and appends long-format CSV rows
//   device,op,family,config,m,n,k,batch,trans_a,trans_b,gflops,time_ms,reps
// (op "gemm": fp32, the precision the tuner measures.) Resumable: rows already in the file are skipped, each row is flushed as soon as it is measured. A
// configuration that throws or computes a wrong result is recorded with gflops 0 and reps 0.
#pragma once

#include <string>
#include <vector>

#include "bench/shapes.hpp"
#include "portkern/runtime/device.hpp"

namespace portkern::bench {

struct TuneOptions {
  std::string family = "tiled";   // a registry family that runs on the device (gemm_families), or "all"
  std::string configs = "default";   // "default" (the family's tuning part), "full" (its space) or a substring of names
  std::vector<GemmShape> shapes;
  std::string out;                // CSV file (appended)
  double time_ms = 0;             // per sample; 0: 20 on the CPU, 2 on a GPU
  int pause_ms = -1;              // between configurations; -1: 5 on the CPU, 0 on a GPU
  int threads = 0;
  double max_mflop = 0;           // skip shapes of more MFLOP than this (0: none); fits a time budget
};

// The configurations of the registry's families to measure on `device`: each family's own space (tiled's is
// instantiated beyond the deployment only in a tuning build), whatever the current deployment ships.
std::vector<std::pair<std::string, std::string>> tuning_configs(const Device& device, const TuneOptions& options);

void tune_gemm(const Device& device, const TuneOptions& options);

// The default dataset path: data/tuning/<device-class>/gemm-<family>.csv
std::string default_tuning_csv(const Device& device, const std::string& family);

}  // namespace portkern::bench
