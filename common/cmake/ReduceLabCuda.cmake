# CUDA is optional: with nvcc present the GPU targets build; without it the host-only parts still do.
set(REDUCELAB_HAVE_CUDA OFF)
if(REDUCELAB_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # Default architectures: the visible GPU's own when there is one, so a student's build is quick.
    # With no GPU nothing CUDA runs here (tests and lessons use the simulator), so the GPU code is
    # only compiled, as a check, for the course's reference GPU (sm_90, Hopper): one architecture
    # instead of a portable set of three, each of which nvcc compiles separately.
    # -DCMAKE_CUDA_ARCHITECTURES=... overrides both, e.g. "80-real;90-real;90-virtual" to build
    # binaries on a GPU-less machine for other machines.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(_rl_detected "")
      find_program(_rl_nvidia_smi nvidia-smi)
      if(_rl_nvidia_smi)
        execute_process(COMMAND ${_rl_nvidia_smi} --query-gpu=compute_cap --format=csv,noheader
                        OUTPUT_VARIABLE _rl_caps RESULT_VARIABLE _rl_rc ERROR_QUIET
                        OUTPUT_STRIP_TRAILING_WHITESPACE)
        if(_rl_rc EQUAL 0 AND _rl_caps MATCHES "^([0-9]+)\\.([0-9]+)")
          set(_rl_detected "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
        endif()
      endif()
      if(_rl_detected)
        set(CMAKE_CUDA_ARCHITECTURES ${_rl_detected})
        message(STATUS "ReduceLab: building for the visible GPU, sm_${_rl_detected}")
      else()
        set(CMAKE_CUDA_ARCHITECTURES "90-real")
        message(STATUS "ReduceLab: no GPU visible: the GPU code is compiled for sm_90 only, as a check")
      endif()
    endif()
    # The exercises' GPU compile (an nvcc build of each lesson with its exercise kernel, so that a
    # broken exercise fails the build) is checked where a GPU is visible: there a student builds
    # them for the GPU, and there the device runs check them. Without a GPU the student build, and
    # CI's grader self-check, compile the exercises for the simulator only; skipping the nvcc copy
    # keeps CI's build a few minutes shorter. -DREDUCELAB_EXERCISES_NVCC=ON forces it.
    if(_rl_detected)
      set(_rl_exercises_default ON)
    else()
      set(_rl_exercises_default OFF)
    endif()
    option(REDUCELAB_EXERCISES_NVCC "Compile every exercise with nvcc too (default: where a GPU is visible)"
           ${_rl_exercises_default})
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    # CMake 3.25 predates nvcc 13 and does not know its C++20 flag: tell it, so C++20 requirements
    # (ours and those that libraries pass on) work for CUDA sources too.
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(REDUCELAB_HAVE_CUDA ON)
  else()
    message(STATUS "ReduceLab: no CUDA compiler found; building the host parts and the simulator only")
  endif()
endif()

# Why a build has no GPU backend, in the words its programs say it (common/backends/gpu_absent.cpp):
# turned off, by whom when REDUCELAB_CUDA_OFF_WHY says (lessons/grade.sh where no GPU is visible), or
# no nvcc found.
set(REDUCELAB_CUDA_OFF_WHY "" CACHE STRING "Why REDUCELAB_CUDA is OFF, for the programs' first line (set by lessons/grade.sh)")
if(NOT REDUCELAB_CUDA)
  if(REDUCELAB_CUDA_OFF_WHY)
    set(REDUCELAB_NO_GPU_WHY "${REDUCELAB_CUDA_OFF_WHY}")
  else()
    set(REDUCELAB_NO_GPU_WHY "it was configured with REDUCELAB_CUDA=OFF")
  endif()
else()
  set(REDUCELAB_NO_GPU_WHY "no CUDA compiler (nvcc) was found when it was configured")
endif()
