// oneDNN beside the portable kernel in `bench ops` (CPU only, in builds that found oneDNN): the boilerplate of
// a vendor comparison, written once. A benchmark describes oneDNN's form of its row's work as a Call: memories
// over the same host arrays the portable kernel reads (on the CPU a Buffer is host memory), the outputs it
// writes, and the primitives, created once; compare() then poisons the outputs with NaN, runs the call once,
// takes the benchmark's error of what it wrote, and times it:
//
//   #if PORTKERN_HAVE_DNNL
//   r.vendor = onednn::compare(ctx, r, [&](onednn::Call& call) {
//     const dnnl::memory::desc data({n, c, h, w}, onednn::f32, onednn::tag::nchw);
//     auto src = call.memory(data, in.data()), dst = call.output(data, out.data());
//     call.add<dnnl::shuffle_forward>({{dnnl::prop_kind::forward_inference, data, 1, int(c / groups)}, call.engine()},
//                                     {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
//   }, [&] { return max error of out; });
//   #endif
//
// Only the primitives' execute() and the stream's wait() are timed: by ctx.time, as the portable call, or,
// for a call that took more than a second in its checked run, by one more run alone. The thread count is
// the queue's: oneDNN runs on OpenMP here, as portkern's CPU back end, and each run sets
// omp_set_num_threads to it. A dnnl::error (an unimplemented data type or layout, say) is caught: the row's
// vendor then has no time, and its note gives the reason. On a GPU compare() returns nothing.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bench/ops/op_bench.hpp"

#if PORTKERN_HAVE_DNNL
#include <dnnl.hpp>
#endif

namespace portkern::bench::opsuite::onednn {

// "oneDNN 2.6.3, ISA avx512_core_amx" (the library found and the instruction set its kernels may use);
// empty in a build without oneDNN.
std::string version();

#if PORTKERN_HAVE_DNNL
using tag = dnnl::memory::format_tag;
constexpr auto f32 = dnnl::memory::data_type::f32;
constexpr auto f16 = dnnl::memory::data_type::f16;

class Call {
 public:
  using Args = std::unordered_map<int, dnnl::memory>;

  // `report` (what compare() returns) gathers the implementations added and what the benchmark says.
  Call(int threads, VendorResult& report);
  const dnnl::engine& engine() const;

  // A memory over host data (no copy); an output is also poisoned with NaN before the checked run.
  dnnl::memory memory(const dnnl::memory::desc& desc, const void* data) const;
  dnnl::memory output(const dnnl::memory::desc& desc, void* data);
  // `from` in the layout `desc`: a copy reordered now, outside the timing (`from` itself if already so).
  dnnl::memory reordered(dnnl::memory from, const dnnl::memory::desc& desc);

  // Appends a primitive to run; its implementation joins report.impl.
  template <class Primitive>
  void add(const typename Primitive::primitive_desc& pd, Args args) {
    add(Primitive(pd), pd.impl_info_str(), std::move(args));
  }
  void add(const dnnl::primitive& primitive, const std::string& impl, Args args);

  void poison_outputs() const;
  void run();

  // Where the benchmark says what differs in oneDNN's form of the work from the defaults compare() puts
  // here (the row's tolerance and bytes): a note, its own bytes or tolerance.
  VendorResult& report;

 private:
  int threads_;
  dnnl::stream stream_;
  std::vector<std::pair<dnnl::primitive, Args>> steps_;
  std::vector<dnnl::memory> outputs_;
};

// oneDNN's measurement for a row: `prepare` builds the call, `error` returns the max error of what it wrote
// against the row's float64 reference. Nothing on a GPU.
std::optional<VendorResult> compare(const OpContext& ctx, const OpResult& row,
                                    const std::function<void(Call&)>& prepare, const std::function<double()>& error);
#endif

}  // namespace portkern::bench::opsuite::onednn
