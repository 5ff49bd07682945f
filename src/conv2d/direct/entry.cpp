// The `direct` algorithm's registry entry (registry.hpp): one kernel, any descriptor (dilation and groups included).
#include "conv2d/call.hpp"
#include "conv2d/direct/direct.hpp"
#include "conv2d/registry.hpp"

namespace portkern::conv2d_impl {

extern const AlgorithmEntry direct_entry;
const AlgorithmEntry direct_entry{
    "direct",
    PORTKERN_CONV2D_NAMES("direct/default"),
    PORTKERN_CONV2D_BUILT("direct/default"),
    [](const Device&) { return std::string("direct/default"); },
    [](const Conv2dDesc&) { return std::string(); },
    [](Queue& queue, std::string_view, const ConvArgs& a) { launch(queue, Conv2dDirect<64>{a}); }};

}  // namespace portkern::conv2d_impl
