# NCCL is optional: with it (and CUDA) lesson 22 builds; without it the rest of the ladder does.
# Sets REDUCELAB_HAVE_NCCL and, when found, the imported target ReduceLab::nccl. Looks in, in order:
# -DNCCL_ROOT / $NCCL_ROOT, the CUDA toolkit, and the pip wheel `nvidia-nccl-cu*` of python3.
set(REDUCELAB_HAVE_NCCL OFF)
if(REDUCELAB_HAVE_CUDA)
  set(_rl_nccl_hints "")
  if(NCCL_ROOT)
    list(APPEND _rl_nccl_hints ${NCCL_ROOT})
  endif()
  if(DEFINED ENV{NCCL_ROOT})
    list(APPEND _rl_nccl_hints $ENV{NCCL_ROOT})
  endif()
  get_filename_component(_rl_cuda_root "${CUDAToolkit_BIN_DIR}" DIRECTORY)
  list(APPEND _rl_nccl_hints ${_rl_cuda_root} /usr/local/cuda)
  # The wheel keeps include/ and lib/ under site-packages/nvidia/nccl; ask python3 where that is.
  find_program(_rl_python3 python3)
  if(_rl_python3)
    execute_process(COMMAND ${_rl_python3} -c "import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))"
                    OUTPUT_VARIABLE _rl_wheel RESULT_VARIABLE _rl_rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(_rl_rc EQUAL 0 AND _rl_wheel)
      list(APPEND _rl_nccl_hints ${_rl_wheel})
    endif()
  endif()
  set(_rl_suffixes include lib64 lib targets/x86_64-linux/include targets/x86_64-linux/lib
                   targets/sbsa-linux/include targets/sbsa-linux/lib)
  find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${_rl_nccl_hints} PATH_SUFFIXES ${_rl_suffixes})
  # The wheel ships only libnccl.so.2 (no unversioned link), so that name is tried too.
  find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${_rl_nccl_hints} PATH_SUFFIXES ${_rl_suffixes})
  if(NCCL_INCLUDE_DIR AND NCCL_LIBRARY)
    file(STRINGS "${NCCL_INCLUDE_DIR}/nccl.h" _rl_nccl_version REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) ")
    string(REGEX REPLACE "[^0-9;]" "" _rl_nccl_version "${_rl_nccl_version}")
    string(REPLACE ";;" ";" _rl_nccl_version "${_rl_nccl_version}")
    list(JOIN _rl_nccl_version "." _rl_nccl_version)
    add_library(ReduceLab::nccl UNKNOWN IMPORTED)
    set_target_properties(ReduceLab::nccl PROPERTIES IMPORTED_LOCATION "${NCCL_LIBRARY}"
                                                     INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
    set(REDUCELAB_HAVE_NCCL ON)
    message(STATUS "ReduceLab: NCCL ${_rl_nccl_version} found (${NCCL_LIBRARY}): lesson 22 (multi-GPU) is built")
  else()
    message(STATUS "ReduceLab: NCCL not found (nccl.h and libnccl in -DNCCL_ROOT, $NCCL_ROOT, the CUDA toolkit "
                   "or the python3 wheel nvidia-nccl): lesson 22 (multi-GPU) is left out")
  endif()
else()
  message(STATUS "ReduceLab: lesson 22 (multi-GPU, NCCL) is left out: it needs the GPU backend")
endif()
