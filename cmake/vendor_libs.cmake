# Vendor libraries portkern is compared with (never used by the library itself). All optional: a benchmark
# row without its vendor says so. PORTKERN_HAVE_<LIB> is defined for the code that compares.
find_library(PORTKERN_OPENBLAS_LIB NAMES openblas)
find_path(PORTKERN_CBLAS_INCLUDE NAMES cblas.h PATH_SUFFIXES openblas x86_64-linux-gnu/openblas-pthread)
find_library(PORTKERN_DNNL_LIB NAMES dnnl)
find_path(PORTKERN_DNNL_INCLUDE NAMES dnnl.h)

add_library(portkern_vendors INTERFACE)
if(PORTKERN_OPENBLAS_LIB AND PORTKERN_CBLAS_INCLUDE)
  target_link_libraries(portkern_vendors INTERFACE ${PORTKERN_OPENBLAS_LIB})
  target_include_directories(portkern_vendors INTERFACE ${PORTKERN_CBLAS_INCLUDE})
  target_compile_definitions(portkern_vendors INTERFACE PORTKERN_HAVE_OPENBLAS=1)
endif()
if(PORTKERN_DNNL_LIB AND PORTKERN_DNNL_INCLUDE)
  target_link_libraries(portkern_vendors INTERFACE ${PORTKERN_DNNL_LIB})
  target_include_directories(portkern_vendors INTERFACE ${PORTKERN_DNNL_INCLUDE})
  target_compile_definitions(portkern_vendors INTERFACE PORTKERN_HAVE_DNNL=1)
endif()
message(STATUS "portkern: OpenBLAS ${PORTKERN_OPENBLAS_LIB}, oneDNN ${PORTKERN_DNNL_LIB}")
