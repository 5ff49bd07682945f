// The same kernels for the CUDA back end: kernels.cpp compiled by nvcc (launchable.hpp instantiates for the
// back end the file is compiled for).
#include "kernels.cpp"
