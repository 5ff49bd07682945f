// The process's BLAS error handlers, found when an error is reported, and the library's own messages when
// there are none (see error_reporting.hpp).
#include "blas_abi/error_reporting.hpp"

#include <dlfcn.h>

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>

// Weak undefined references, never definitions. They make the linker export a program's own xerbla_ /
// cblas_xerbla to the dynamic symbol table when the program links this library (otherwise a handler
// defined in an executable is invisible to dlsym), and they are null where nothing defines them.
extern "C" {
__attribute__((weak, visibility("default"))) void xerbla_(const char* routine, const int* info, std::size_t length);
__attribute__((weak, visibility("default"))) void cblas_xerbla(int info, const char* routine, const char* form, ...);
}

namespace portkern::blas_abi {

namespace {

using XerblaFn = void (*)(const char*, const int*, std::size_t);
using CblasXerblaFn = void (*)(int, const char*, const char*, ...);

// The first definition in the process's global scope now (the program, then libraries in load order,
// then those loaded later with RTLD_GLOBAL); else what the weak reference was bound to when this library
// was loaded (which also sees this library's own dependencies when it was dlopen'ed with RTLD_LOCAL).
template <class Fn>
Fn process_handler(const char* symbol, Fn bound_at_load) {
  if (void* found = dlsym(RTLD_DEFAULT, symbol)) return reinterpret_cast<Fn>(found);
  return bound_at_load;
}

}  // namespace

void report_argument_error(const char* routine, int info) {
  if (const XerblaFn handler = process_handler<XerblaFn>("xerbla_", &xerbla_ ? xerbla_ : nullptr))
    return handler(routine, &info, std::strlen(routine));
  // The reference XERBLA's message (its STOP left out): the name trimmed, the position in two columns.
  const int name_length = static_cast<int>(std::strcspn(routine, " "));
  std::fprintf(stderr, " ** On entry to %.*s parameter number %2d had an illegal value\n", name_length, routine, info);
}

void report_cblas_argument_error(int info, const char* routine, const char* form, int value) {
  if (const CblasXerblaFn handler = process_handler<CblasXerblaFn>("cblas_xerbla", &cblas_xerbla ? cblas_xerbla : nullptr))
    return handler(info, routine, form, value);
  // The reference cblas_xerbla's message (its exit(-1) left out).
  std::fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info, routine);
  std::fprintf(stderr, form, value);
}

void report_failure(const char* routine, const char* what) noexcept {
  std::fprintf(stderr, "libportkern_blas: %s did not complete: %s\n", routine, what);
}

}  // namespace portkern::blas_abi
