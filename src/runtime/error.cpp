#include "portkern/error.hpp"

namespace portkern {

void fail(std::string_view function, std::string_view message) {
  std::string text(function);
  text += ": ";
  text += message;
  throw Error(text);
}

}  // namespace portkern
