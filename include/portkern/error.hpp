// portkern::Error: the one exception type the library throws. Its message names the function, the argument
// and the offending value, BLAS-style, e.g.
//   portkern::gemm: argument lda = 3 must be >= max(1, m) = 5
//   portkern::Queue::copy: CUDA error 'out of memory' (cudaMemcpyAsync)
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace portkern {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws Error("<function>: <message>").
[[noreturn]] void fail(std::string_view function, std::string_view message);

// Throws unless `ok`: "<function>: argument <argument> = <value> must be <requirement>".
template <class Value>
void require(bool ok, std::string_view function, std::string_view argument, const Value& value,
             std::string_view requirement) {
  if (ok) return;
  std::ostringstream message;
  message << "argument " << argument << " = " << value << " must be " << requirement;
  fail(function, message.str());
}

}  // namespace portkern
