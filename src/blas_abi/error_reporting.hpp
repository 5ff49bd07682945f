// How libportkern_blas.so reports errors to the program that calls it.
//
// Argument errors go to the process's own BLAS error handler, looked up at each report: `xerbla_` for the
// Fortran routines, `cblas_xerbla` for the CBLAS ones, wherever they are defined (the program, a BLAS or
// LAPACK library, numpy's module when loaded globally). The library defines neither symbol, so loading it
// (LD_PRELOAD included) never replaces the handler that the rest of the process's BLAS and LAPACK call.
// Only when the process has no handler at all does it print the reference's message on stderr itself, and
// then the call returns: the reference handlers stop the program (Fortran STOP, exit(-1)), which a library
// loaded into someone else's process must not do.
//
// Failures that are not BLAS argument errors (out of memory, a null matrix pointer, any exception of the
// implementation) are not the handler's business: they are reported as one line on stderr, and the call
// returns to the program.
#pragma once

#include <cxxabi.h>

#include <exception>

namespace portkern::blas_abi {

// The Fortran convention: `routine` is the name padded to 6 characters ("SGEMM "), `info` the position of
// the first illegal argument.
void report_argument_error(const char* routine, int info);

// The CBLAS convention: the position, the routine ("cblas_sgemm"), a printf format for one extra line
// (may be empty) and the int it prints.
void report_cblas_argument_error(int info, const char* routine, const char* form, int value);

// Anything else that stopped a call: "libportkern_blas: <routine> did not complete: <what>".
void report_failure(const char* routine, const char* what) noexcept;

// Runs `body` (which returns the argument error it found, value-initialised if none) and keeps every
// exception inside the library: a failure is reported and counts as no argument error. Thread
// cancellation's unwinding is let through.
template <class Body>
auto without_exceptions(const char* routine, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (abi::__forced_unwind&) {   // pthread_cancel unwinding the thread: must go on
    throw;
  } catch (const std::exception& e) {
    report_failure(routine, e.what());
  } catch (...) {
    report_failure(routine, "an exception of unknown type");
  }
  return {};
}

}  // namespace portkern::blas_abi
