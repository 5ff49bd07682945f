// oneDNN's convolution primitive (C API, oneDNN 2.x): NHWC source and destination, weights in the layout
// the primitive asks for (format_tag any), reordered once from RSCK (hwio) before timing; algorithm `auto`
// so that oneDNN uses whichever implementation it considers best; fp32.
#include <omp.h>

#include <memory>

#include "bench/vendor_conv2d.hpp"
#include "portkern/error.hpp"

#if PORTKERN_HAVE_DNNL
#include <dnnl.h>
#endif

namespace portkern::bench {

#if PORTKERN_HAVE_DNNL
namespace {

void check(dnnl_status_t status, const char* call) {
  if (status != dnnl_success) fail("oneDNN", std::string(call) + " failed with status " + std::to_string(int(status)));
}
#define DNNL_CHECK(...) check((__VA_ARGS__), #__VA_ARGS__)

// One prepared layer: the primitive, its memories and the reordered weights; released with the last call.
struct DnnlLayer {
  dnnl_engine_t engine = nullptr;
  dnnl_stream_t stream = nullptr;
  dnnl_primitive_desc_t pd = nullptr;
  dnnl_primitive_t conv = nullptr;
  dnnl_memory_t src = nullptr, weights = nullptr, dst = nullptr;
  ~DnnlLayer() {
    if (src) dnnl_memory_destroy(src);
    if (weights) dnnl_memory_destroy(weights);
    if (dst) dnnl_memory_destroy(dst);
    if (conv) dnnl_primitive_destroy(conv);
    if (pd) dnnl_primitive_desc_destroy(pd);
    if (stream) dnnl_stream_destroy(stream);
    if (engine) dnnl_engine_destroy(engine);
  }
  void run() {
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
    DNNL_CHECK(dnnl_primitive_execute(conv, stream, 3, args));
    DNNL_CHECK(dnnl_stream_wait(stream));
  }
};

std::vector<VendorConvCall> prepare_onednn(int threads, const Conv2dDesc& desc, const float* input,
                                           const float* filter, float* output) {
  omp_set_num_threads(threads);
  const Conv2dDesc d = conv2d_complete(desc);
  auto layer = std::make_shared<DnnlLayer>();
  DNNL_CHECK(dnnl_engine_create(&layer->engine, dnnl_cpu, 0));
  DNNL_CHECK(dnnl_stream_create(&layer->stream, layer->engine, dnnl_stream_default_flags));
  const dnnl_dims_t src_dims = {d.batch, d.in_c, d.in_h, d.in_w}, dst_dims = {d.batch, d.out_c, d.out_h, d.out_w};
  // Weights: OIHW, or with groups GOIHW (O and I per group); ours are RSCK, with groups R S C/G (G K/G): hwigo.
  const bool grouped = d.groups != 1;
  const dnnl_dims_t w_dims = {d.out_c, d.in_c, d.window_h, d.window_w},
                    gw_dims = {d.groups, d.out_c / d.groups, d.in_c / d.groups, d.window_h, d.window_w};
  dnnl_memory_desc_t src_md, dst_md, w_any, w_user;
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&src_md, 4, src_dims, dnnl_f32, dnnl_nhwc));
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&dst_md, 4, dst_dims, dnnl_f32, dnnl_nhwc));
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&w_any, grouped ? 5 : 4, grouped ? gw_dims : w_dims, dnnl_f32,
                                          dnnl_format_tag_any));
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&w_user, grouped ? 5 : 4, grouped ? gw_dims : w_dims, dnnl_f32,
                                          grouped ? dnnl_hwigo : dnnl_hwio));
  const dnnl_dims_t strides = {d.stride_h, d.stride_w}, dilates = {d.dilation_h - 1, d.dilation_w - 1};
  const dnnl_dims_t pad_l = {d.pad_top, d.pad_left}, pad_r = {d.pad_bottom, d.pad_right};
  dnnl_convolution_desc_t conv_d;
  DNNL_CHECK(dnnl_dilated_convolution_forward_desc_init(&conv_d, dnnl_forward_inference, dnnl_convolution_auto,
                                                        &src_md, &w_any, nullptr, &dst_md, strides, dilates, pad_l,
                                                        pad_r));
  DNNL_CHECK(dnnl_primitive_desc_create(&layer->pd, &conv_d, nullptr, layer->engine, nullptr));
  const char* impl = nullptr;
  dnnl_primitive_desc_query(layer->pd, dnnl_query_impl_info_str, 0, &impl);
  DNNL_CHECK(dnnl_primitive_create(&layer->conv, layer->pd));
  const dnnl_memory_desc_t* w_md = dnnl_primitive_desc_query_md(layer->pd, dnnl_query_weights_md, 0);
  DNNL_CHECK(dnnl_memory_create(&layer->src, &src_md, layer->engine, const_cast<float*>(input)));
  DNNL_CHECK(dnnl_memory_create(&layer->dst, &dst_md, layer->engine, output));
  DNNL_CHECK(dnnl_memory_create(&layer->weights, w_md, layer->engine, DNNL_MEMORY_ALLOCATE));
  // The weights' reorder from RSCK happens once, here, outside the timing.
  dnnl_memory_t user = nullptr;
  DNNL_CHECK(dnnl_memory_create(&user, &w_user, layer->engine, const_cast<float*>(filter)));
  dnnl_primitive_desc_t reorder_pd = nullptr;
  dnnl_primitive_t reorder = nullptr;
  DNNL_CHECK(dnnl_reorder_primitive_desc_create(&reorder_pd, &w_user, layer->engine, w_md, layer->engine, nullptr));
  DNNL_CHECK(dnnl_primitive_create(&reorder, reorder_pd));
  dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, user}, {DNNL_ARG_TO, layer->weights}};
  DNNL_CHECK(dnnl_primitive_execute(reorder, layer->stream, 2, args));
  DNNL_CHECK(dnnl_stream_wait(layer->stream));
  dnnl_primitive_destroy(reorder);
  dnnl_primitive_desc_destroy(reorder_pd);
  dnnl_memory_destroy(user);
  const auto run = [layer, threads] {
    omp_set_num_threads(threads);
    layer->run();
  };
  return {{"onednn", "ieee", impl ? impl : "", run, nullptr, nullptr}};
}

}  // namespace
#endif

std::vector<VendorConv2d> cpu_vendor_conv2d(int threads) {
  std::vector<VendorConv2d> vendors;
#if PORTKERN_HAVE_DNNL
  // oneDNN's primitive reads and writes the NHWC tensors in place: one preparation serves both.
  const VendorConv2d::Prepare prepare = [threads](Queue&, const Conv2dDesc& d, const float* in, const float* f,
                                                  float* out) { return prepare_onednn(threads, d, in, f, out); };
  vendors.push_back({"onednn", prepare, prepare});
#endif
  (void)threads;
  return vendors;
}

}  // namespace portkern::bench
