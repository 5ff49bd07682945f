// Device naming, enumeration, and the per-device caches of properties and measured ceilings.
#include "portkern/runtime/device.hpp"

#include <charconv>
#include <map>
#include <mutex>

#include "portkern/error.hpp"
#include "runtime/cpu/cpu_backend.hpp"
#include "runtime/cuda/cuda_backend.hpp"

namespace portkern {

namespace {
// One entry per device, filled on first use: reading properties can cost milliseconds, ceilings a second.
template <class Value, class Make>
const Value& cached(const Device& device, Make make) {
  static std::mutex mutex;
  static std::map<std::pair<int, int>, Value> cache;
  const std::pair<int, int> key{int(device.backend()), device.index()};
  std::lock_guard lock(mutex);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, make()).first;
  return it->second;
}
}  // namespace

int cuda_device_count() {
  static const int count = detail::cuda::device_count();
  return count;
}

Device Device::cuda(int index) {
  const int count = cuda_device_count();
  require(index >= 0 && index < count, "portkern::Device::cuda", "index", index,
          count == 0 ? std::string("a GPU, but none is present") : "< " + std::to_string(count) + " (the GPUs present)");
  return Device(Backend::cuda, index);
}

Device Device::parse(std::string_view name) {
  if (name == "cpu") return cpu();
  if (name == "cuda" || name == "gpu") return cuda(0);
  if (name.starts_with("cuda:")) {
    const std::string_view digits = name.substr(5);
    int index = -1;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (error == std::errc() && end == digits.data() + digits.size()) return cuda(index);
  }
  require(false, "portkern::Device::parse", "name", std::string(name), "\"cpu\" or \"cuda:N\"");
  return cpu();
}

std::string Device::name() const { return is_cpu() ? "cpu" : "cuda:" + std::to_string(index_); }

const DeviceProperties& Device::properties() const {
  return cached<DeviceProperties>(*this, [&] {
    return is_cpu() ? detail::cpu::properties() : detail::cuda::properties(index_);
  });
}

const Ceilings& measure_ceilings(const Device& device) {
  return cached<Ceilings>(device, [&] {
    return device.is_cpu() ? detail::cpu::measure_ceilings() : detail::cuda::measure_ceilings(device.index());
  });
}

std::vector<Device> devices() {
  std::vector<Device> all{Device::cpu()};
  for (int i = 0; i < cuda_device_count(); ++i) all.push_back(Device::cuda(i));
  return all;
}

}  // namespace portkern
