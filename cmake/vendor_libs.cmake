# Vendor libraries portkern is compared with (never used by the library itself): OpenBLAS and oneDNN on the
# CPU, cuDNN on the GPU (cuBLAS comes with the CUDA toolkit). All optional: a benchmark row without its vendor
# says so. The interface target portkern_vendors carries them, and PORTKERN_HAVE_<LIB> is defined for the code
# that compares.
add_library(portkern_vendors INTERFACE)

# portkern_vendor(<LIB> <library names> <header> [<path suffixes and hints>...])
function(portkern_vendor lib names header)
  find_library(PORTKERN_${lib}_LIB NAMES ${names} HINTS ${ARGN})
  find_path(PORTKERN_${lib}_INCLUDE NAMES ${header} PATH_SUFFIXES ${ARGN} HINTS ${ARGN})
  if(PORTKERN_${lib}_LIB AND PORTKERN_${lib}_INCLUDE)
    target_link_libraries(portkern_vendors INTERFACE ${PORTKERN_${lib}_LIB})
    target_include_directories(portkern_vendors INTERFACE ${PORTKERN_${lib}_INCLUDE})
    target_compile_definitions(portkern_vendors INTERFACE PORTKERN_HAVE_${lib}=1)
  endif()
  message(STATUS "portkern: ${lib} ${PORTKERN_${lib}_LIB}")
endfunction()

portkern_vendor(OPENBLAS openblas cblas.h openblas x86_64-linux-gnu/openblas-pthread)
portkern_vendor(DNNL dnnl dnnl.h)
if(PORTKERN_HAVE_CUDA)
  portkern_vendor(CUDNN cudnn cudnn.h ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/lib ${CUDAToolkit_INCLUDE_DIRS})
endif()
