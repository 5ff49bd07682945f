# The DNN operators' part of the build (seed 004). Each operator lives in src/ops/<op>/ and brings its
# sources by name pattern, so adding an operator touches no shared file:
#   src/ops/<op>/*.cpp          library (argument checks, CPU instantiation)
#   src/ops/<op>/*.cu           CUDA instantiation of the portable kernel and the native twin
#   tests/ops/test_<op>.cpp     compiled into both test programs (CPU, and GPU with PORTKERN_OPS_ON_GPU)
#   tools/bench/ops/<op>.cpp    its part of `portkern bench ops`
file(GLOB portkern_ops_cpu CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/ops/*/*.cpp)
target_sources(portkern PRIVATE ${portkern_ops_cpu})
if(PORTKERN_HAVE_CUDA)
  file(GLOB portkern_ops_cuda CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/ops/*/*.cu)
  target_sources(portkern PRIVATE ${portkern_ops_cuda})
endif()

file(GLOB portkern_ops_bench CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tools/bench/ops/*.cpp)
target_sources(portkern_cli PRIVATE tools/cli/cmd_bench_ops.cpp ${portkern_ops_bench})

if(PORTKERN_TESTS)
  file(GLOB portkern_ops_tests CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/ops/test_*.cpp)
  target_sources(portkern_tests PRIVATE ${portkern_ops_tests})
  target_sources(portkern_gpu_tests PRIVATE ${portkern_ops_tests})
  target_compile_definitions(portkern_gpu_tests PRIVATE PORTKERN_OPS_ON_GPU=1)
  target_include_directories(portkern_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests/ops)
  target_include_directories(portkern_gpu_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests/ops)
endif()
