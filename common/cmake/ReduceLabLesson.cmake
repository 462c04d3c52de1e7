# reducelab_add_lesson(NUMBER 3 SLUG sequential_addressing HEADER sequential_addressing.cuh
#                      TYPES rl::SequentialAddressing [rl::Variant ...])
# Compiles the lesson's kernel header twice, once by nvcc for the GPU (when there is one) and once by
# g++ for the simulator, each into an object library that registers its reducers; links both into the
# lesson's executable, and records them so the runner and the tests can link every lesson.
set_property(GLOBAL PROPERTY REDUCELAB_LESSON_OBJECTS "")

# Which file is lesson NN's kernel in this build: the solution; in student mode the exercise beside
# it, or the student's own file of that name when REDUCELAB_SUBMISSION holds one. Sets ${out} to its
# path and ${out}_source to the name --grade and traces show (relative where it is in the tree).
function(reducelab_lesson_header out header nn)
  set(chosen "${CMAKE_CURRENT_SOURCE_DIR}/${header}")
  if(REDUCELAB_STUDENT)
    set(chosen "${CMAKE_CURRENT_SOURCE_DIR}/exercise/${header}")
    if(NOT EXISTS "${chosen}")
      message(FATAL_ERROR "Student mode: lesson ${nn} has no exercise (${chosen})")
    endif()
    if(REDUCELAB_SUBMISSION)
      if(NOT IS_DIRECTORY "${REDUCELAB_SUBMISSION}")
        message(FATAL_ERROR "REDUCELAB_SUBMISSION is not a folder: ${REDUCELAB_SUBMISSION}")
      endif()
      file(GLOB_RECURSE found "${REDUCELAB_SUBMISSION}/${header}")
      list(LENGTH found count)
      if(count GREATER 1)
        message(WARNING "Lesson ${nn}: ${count} files named ${header} in ${REDUCELAB_SUBMISSION}; grading the first")
      endif()
      if(count GREATER 0)
        list(GET found 0 chosen)
      else()
        message(STATUS "Lesson ${nn}: no ${header} submitted; the untouched exercise is graded")
      endif()
    endif()
  endif()
  file(RELATIVE_PATH source "${PROJECT_SOURCE_DIR}" "${chosen}")
  if(source MATCHES "^\\.\\./")
    set(source "${chosen}")
  endif()
  set(${out} "${chosen}" PARENT_SCOPE)
  set(${out}_source "${source}" PARENT_SCOPE)
endfunction()

# Lessons 13-15 keep their kernels behind a typed dispatch (NAME_dispatch.h) that includes the
# kernel header named by the macro DEFINE. The exercise must compile for the GPU too, though only a
# student build links it: nvcc compiles SOURCE with DEFINE pointing at the exercise (one real
# architecture, to keep the build short), so a broken exercise fails the build.
function(reducelab_exercise_gpu_object target source define header)
  if(REDUCELAB_HAVE_CUDA AND REDUCELAB_EXERCISES_NVCC AND NOT REDUCELAB_STUDENT)
    add_library(${target} OBJECT ${source})
    target_link_libraries(${target} PRIVATE reducelab_harness reducelab_warnings)
    target_compile_definitions(${target} PRIVATE ${define}="${CMAKE_CURRENT_SOURCE_DIR}/exercise/${header}")
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES 90-real)
  endif()
endfunction()

function(reducelab_add_lesson)
  cmake_parse_arguments(L "" "NUMBER;SLUG;HEADER" "TYPES" ${ARGN})
  math(EXPR tens "${L_NUMBER} / 10")
  math(EXPR ones "${L_NUMBER} % 10")
  set(nn "${tens}${ones}")
  reducelab_lesson_header(header "${L_HEADER}" "${nn}")
  set(RL_HEADER "${header}")
  set(source "${header_source}")  # the harness names the compiled file in --grade and in traces
  list(JOIN L_TYPES ", " RL_TYPES)

  set(RL_BACKEND sim)
  configure_file(${PROJECT_SOURCE_DIR}/common/cmake/lesson_backend.in ${CMAKE_CURRENT_BINARY_DIR}/lesson${nn}_sim.cpp @ONLY)
  add_library(lesson${nn}_sim OBJECT ${CMAKE_CURRENT_BINARY_DIR}/lesson${nn}_sim.cpp)
  target_link_libraries(lesson${nn}_sim PUBLIC reducelab_harness PRIVATE reducelab_warnings)
  target_compile_definitions(lesson${nn}_sim PRIVATE RL_KERNEL_SOURCE="${source}")
  set(objects lesson${nn}_sim)

  if(REDUCELAB_HAVE_CUDA)
    set(RL_BACKEND gpu)
    configure_file(${PROJECT_SOURCE_DIR}/common/cmake/lesson_backend.in ${CMAKE_CURRENT_BINARY_DIR}/lesson${nn}_gpu.cu @ONLY)
    add_library(lesson${nn}_gpu OBJECT ${CMAKE_CURRENT_BINARY_DIR}/lesson${nn}_gpu.cu)
    target_link_libraries(lesson${nn}_gpu PUBLIC reducelab_harness PRIVATE reducelab_warnings)
    target_compile_definitions(lesson${nn}_gpu PRIVATE RL_KERNEL_SOURCE="${source}")
    list(APPEND objects lesson${nn}_gpu)
  endif()

  # The exercise must compile for the GPU too, though only a student build links it: nvcc compiles
  # it here (one real architecture, to keep the build short), so a broken exercise fails the build.
  if(REDUCELAB_HAVE_CUDA AND REDUCELAB_EXERCISES_NVCC AND NOT REDUCELAB_STUDENT AND EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/exercise/${L_HEADER}")
    set(RL_BACKEND gpu)
    set(RL_HEADER "${CMAKE_CURRENT_SOURCE_DIR}/exercise/${L_HEADER}")
    configure_file(${PROJECT_SOURCE_DIR}/common/cmake/lesson_backend.in ${CMAKE_CURRENT_BINARY_DIR}/lesson${nn}_exercise_gpu.cu @ONLY)
    add_library(lesson${nn}_exercise_gpu OBJECT ${CMAKE_CURRENT_BINARY_DIR}/lesson${nn}_exercise_gpu.cu)
    target_link_libraries(lesson${nn}_exercise_gpu PRIVATE reducelab_harness reducelab_warnings)
    set_target_properties(lesson${nn}_exercise_gpu PROPERTIES CUDA_ARCHITECTURES 90-real)
  endif()

  add_executable(${nn}_${L_SLUG} main.cpp)
  target_link_libraries(${nn}_${L_SLUG} PRIVATE ${objects} reducelab_harness reducelab_warnings)
  set_target_properties(${nn}_${L_SLUG} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
  set_property(GLOBAL APPEND PROPERTY REDUCELAB_LESSON_OBJECTS ${objects})
endfunction()
