// Fuzz target: the tuning dataset reader the tuner resumes from (parse_tuning_rows). Any text is either
// rows (keys, the length of the whole lines) or a portkern::Error about the header.
#include <cstdint>
#include <string>
#include <string_view>

#include "bench/tuning_csv.hpp"
#include "portkern/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const char* header : {"device,op,family,config,m,n,k,batch,trans_a,trans_b,gflops,time_ms,reps", "a,b,c,d"}) {
    try {
      const auto rows = portkern::bench::parse_tuning_rows(text, header, "fuzz.csv");
      if (rows.whole_bytes > text.size()) __builtin_trap();
      if (rows.whole_bytes > 0 && text[rows.whole_bytes - 1] != '\n') __builtin_trap();
    } catch (const portkern::Error&) {
    }
  }
  return 0;
}
