# The conv2d operation's part of the build (included from the top-level CMakeLists.txt once every target
# exists): library sources, CUDA sources, CLI sources, tests.
target_sources(portkern PRIVATE
  src/conv2d/desc.cpp
  src/conv2d/rule.cpp
  src/conv2d/api.cpp
  src/conv2d/pool_api.cpp
  src/conv2d/tiled_config.cpp
  src/conv2d/kernels_cpu.cpp)
if(PORTKERN_HAVE_CUDA)
  target_sources(portkern PRIVATE src/conv2d/kernels_cuda.cu)
endif()

target_sources(portkern_cli PRIVATE
  tools/cli/cmd_bench_conv2d.cpp
  tools/bench/conv2d_bench.cpp
  tools/bench/conv_layers.cpp
  tools/bench/conv2d_operands.cpp
  tools/bench/conv2d_tuner.cpp
  tools/bench/vendor_conv2d_cpu.cpp
  tools/bench/vendor_conv2d_cuda.cpp)
# cuDNN, for the GPU benchmark's comparison only (optional: without it the rows have no GPU vendor).
if(PORTKERN_HAVE_CUDA)
  find_library(CUDNN_LIB cudnn HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/lib)
  find_path(CUDNN_INCLUDE cudnn.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  if(CUDNN_LIB AND CUDNN_INCLUDE)
    target_link_libraries(portkern_cli PRIVATE ${CUDNN_LIB})
    target_include_directories(portkern_cli PRIVATE ${CUDNN_INCLUDE})
    target_compile_definitions(portkern_cli PRIVATE PORTKERN_HAVE_CUDNN=1)
  endif()
  message(STATUS "portkern: cuDNN ${CUDNN_LIB}")
endif()

if(PORTKERN_TESTS)
  target_sources(portkern_tests PRIVATE tests/test_conv2d.cpp)
  target_sources(portkern_gpu_tests PRIVATE tests/gpu/test_cuda_conv2d.cpp)
endif()
