#include "bench/ops/onednn.hpp"

#include <omp.h>

#include <cstring>

#if PORTKERN_HAVE_DNNL
#include <dnnl_debug.h>
#endif

namespace portkern::bench::opsuite::onednn {

#if PORTKERN_HAVE_DNNL

std::string version() {
  const dnnl_version_t* v = dnnl_version();
  std::string isa = dnnl_cpu_isa2str(dnnl_get_effective_cpu_isa());   // "cpu_isa_avx512_core_amx"
  if (isa.rfind("cpu_isa_", 0) == 0) isa.erase(0, 8);
  return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
         ", ISA " + isa;
}

namespace {

// A call slower than this (oneDNN's reference kernels at the default sizes take 5-30 s) is timed once, after
// its checked run, instead of the seven runs of ctx.time.
constexpr double slow_ms = 1000;

const dnnl::engine& cpu_engine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

}  // namespace

Call::Call(int threads, VendorResult& report) : report(report), threads_(threads), stream_(cpu_engine()) {}

const dnnl::engine& Call::engine() const { return cpu_engine(); }

dnnl::memory Call::memory(const dnnl::memory::desc& desc, const void* data) const {
  return dnnl::memory(desc, cpu_engine(), const_cast<void*>(data));
}

dnnl::memory Call::output(const dnnl::memory::desc& desc, void* data) {
  outputs_.push_back(memory(desc, data));
  return outputs_.back();
}

dnnl::memory Call::reordered(dnnl::memory from, const dnnl::memory::desc& desc) {
  if (from.get_desc() == desc) return from;
  dnnl::memory to(desc, cpu_engine());
  dnnl::reorder(from, to).execute(stream_, from, to);
  stream_.wait();
  return to;
}

void Call::add(const dnnl::primitive& primitive, const std::string& impl, Args args) {
  steps_.emplace_back(primitive, std::move(args));
  if (report.impl.find(impl) == std::string::npos) report.impl += (report.impl.empty() ? "" : " + ") + impl;
}

// All-ones bytes are a NaN in f32 and in f16.
void Call::poison_outputs() const {
  for (const auto& out : outputs_) std::memset(out.get_data_handle(), 0xff, out.get_desc().get_size());
}

void Call::run() {
  omp_set_num_threads(threads_);
  for (auto& [primitive, args] : steps_) primitive.execute(stream_, args);
  stream_.wait();
}

std::optional<VendorResult> compare(const OpContext& ctx, const OpResult& row,
                                    const std::function<void(Call&)>& prepare, const std::function<double()>& error) {
  if (ctx.on_gpu()) return std::nullopt;
  VendorResult report;
  report.name = "onednn";
  report.tolerance = row.tolerance;
  report.bytes = row.bytes;
  try {
    Call call(ctx.queue.cpu_threads(), report);
    prepare(call);
    call.poison_outputs();
    const double checked_ms = time_once(ctx.queue, [&] { call.run(); });
    report.max_error = error();
    if (checked_ms > slow_ms) {   // the checked run was the warm-up
      const double ms = time_once(ctx.queue, [&] { call.run(); });
      report.time = Measurement{ms, ms, 1, 1};
    } else {
      report.time = ctx.time([&] { call.run(); });
    }
  } catch (const dnnl::error& e) {
    report.time.reset();
    const std::string reason = std::string("unavailable: ") + e.what() + " (" + dnnl_status2str(e.status) + ")";
    report.note = report.note.empty() ? reason : reason + "; " + report.note;
  }
  return report;
}

#else

std::string version() { return ""; }

#endif

}  // namespace portkern::bench::opsuite::onednn
