// safetensors files (https://huggingface.co/docs/safetensors): an 8-byte little-endian header length, a JSON
// header {"name": {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}, then the tensors'
// bytes. Read through a memory map; F32, F16 and BF16 become float32.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/half.hpp"
#include "portkern/net.hpp"

namespace portkern::net {

namespace {

constexpr const char* load_fn = "portkern::net::load_safetensors";

// A read-only memory map of a whole file, unmapped when it ends.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) fail(load_fn, "cannot open '" + path + "': " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      ::close(fd);
      fail(load_fn, "cannot read the size of '" + path + "'");
    }
    bytes_ = std::size_t(st.st_size);
    if (bytes_ > 0) data_ = ::mmap(nullptr, bytes_, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (data_ == MAP_FAILED) fail(load_fn, "cannot map '" + path + "': " + std::strerror(errno));
  }
  ~MappedFile() {
    if (data_ && data_ != MAP_FAILED) ::munmap(data_, bytes_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const unsigned char* bytes() const { return static_cast<const unsigned char*>(data_); }
  std::size_t size() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

float bf16_to_float(std::uint16_t bits) { return std::bit_cast<float>(std::uint32_t(bits) << 16); }

}  // namespace

std::int64_t HostTensor::elements() const {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n = checked_mul(n, d, "portkern::net::HostTensor", "the product of its shape");
  return n;
}

Weights load_safetensors(const std::string& path) {
  static_assert(std::endian::native == std::endian::little, "safetensors data is little-endian");
  const MappedFile file(path);
  auto bad = [&](const std::string& why) { fail(load_fn, "'" + path + "' is not a safetensors file: " + why); };
  if (file.size() < 8) bad("shorter than its 8-byte header length");
  std::uint64_t header_bytes = 0;
  std::memcpy(&header_bytes, file.bytes(), 8);
  if (header_bytes > file.size() - 8) bad("its header length " + std::to_string(header_bytes) + " exceeds the file");
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(file.bytes() + 8, file.bytes() + 8 + header_bytes);
  } catch (const nlohmann::json::exception& e) {
    bad(std::string("its header is not JSON: ") + e.what());
  }
  if (!header.is_object()) bad("its header is not a JSON object");
  const unsigned char* data = file.bytes() + 8 + header_bytes;
  const std::uint64_t data_bytes = file.size() - 8 - header_bytes;
  Weights weights;
  for (const auto& [name, entry] : header.items()) {
    if (name == "__metadata__") continue;
    auto bad_tensor = [&](const std::string& why) { fail(load_fn, "'" + path + "', tensor '" + name + "': " + why); };
    try {
      const std::string dtype = entry.at("dtype").get<std::string>();
      const auto offsets = entry.at("data_offsets").get<std::vector<std::uint64_t>>();
      HostTensor t;
      t.shape = entry.at("shape").get<std::vector<std::int64_t>>();
      for (std::int64_t d : t.shape)
        if (d < 0) bad_tensor("negative dimension " + std::to_string(d));
      const std::int64_t n = t.elements();
      const std::size_t element = dtype == "F32" ? 4 : dtype == "F16" || dtype == "BF16" ? 2 : 0;
      if (element == 0) bad_tensor("dtype " + dtype + " is not supported (F32, F16 or BF16)");
      if (offsets.size() != 2 || offsets[0] > offsets[1] || offsets[1] > data_bytes)
        bad_tensor("data_offsets outside the file's " + std::to_string(data_bytes) + " bytes of data");
      const std::int64_t bytes = checked_mul(n, std::int64_t(element), load_fn, "the bytes of tensor '" + name + "'");
      if (offsets[1] - offsets[0] != std::uint64_t(bytes))
        bad_tensor("holds " + std::to_string(offsets[1] - offsets[0]) + " bytes, its shape and dtype need " +
                   std::to_string(bytes));
      t.data.resize(std::size_t(n));
      const unsigned char* src = data + offsets[0];
      if (element == 4) {
        std::memcpy(t.data.data(), src, std::size_t(n) * 4);
      } else {
        for (std::int64_t i = 0; i < n; ++i) {
          std::uint16_t bits;
          std::memcpy(&bits, src + 2 * i, 2);
          t.data[std::size_t(i)] = dtype == "BF16" ? bf16_to_float(bits) : kernel::to_float(half{bits});
        }
      }
      weights.emplace(name, std::move(t));
    } catch (const nlohmann::json::exception& e) {
      bad_tensor(std::string("malformed header entry: ") + e.what());
    }
  }
  return weights;
}

void save_safetensors(const std::string& path, const Weights& weights) {
  const char* fn = "portkern::net::save_safetensors";
  nlohmann::json header = nlohmann::json::object();
  std::uint64_t offset = 0;
  for (const auto& [name, t] : weights) {
    require(std::int64_t(t.data.size()) == t.elements(), fn, "weights['" + name + "'].data.size()", t.data.size(),
            "the product of its shape, " + std::to_string(t.elements()));
    const std::uint64_t bytes = t.data.size() * 4;
    header[name] = {{"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  header["__metadata__"] = {{"format", "pt"}, {"written_by", "portkern"}};
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the data starts 8-byte aligned
  std::ofstream out(path, std::ios::binary);
  if (!out) fail(fn, "cannot create '" + path + "'");
  const std::uint64_t length = text.size();
  out.write(reinterpret_cast<const char*>(&length), 8);
  out.write(text.data(), std::streamsize(text.size()));
  for (const auto& [name, t] : weights)
    out.write(reinterpret_cast<const char*>(t.data.data()), std::streamsize(t.data.size() * 4));
  if (!out) fail(fn, "cannot write '" + path + "'");
}

}  // namespace portkern::net
