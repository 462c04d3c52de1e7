# reducelab_add_lesson(NUMBER 3 SLUG sequential_addressing HEADER sequential_addressing.cuh
#                      TYPES rl::SequentialAddressing [rl::Variant ...])
# Compiles the lesson's kernel header twice, once by nvcc for the GPU (when there is one) and once by
# g++ for the simulator, each into an object library that registers its reducers; links both into the
# lesson's executable, and records them so the runner and the tests can link every lesson.
set_property(GLOBAL PROPERTY REDUCELAB_LESSON_OBJECTS "")

function(reducelab_add_lesson)
  cmake_parse_arguments(L "" "NUMBER;SLUG;HEADER" "TYPES" ${ARGN})
  math(EXPR tens "${L_NUMBER} / 10")
  math(EXPR ones "${L_NUMBER} % 10")
  set(nn "${tens}${ones}")
  set(RL_HEADER "${CMAKE_CURRENT_SOURCE_DIR}/${L_HEADER}")
  list(JOIN L_TYPES ", " RL_TYPES)

  set(RL_BACKEND sim)
  configure_file(${PROJECT_SOURCE_DIR}/common/cmake/lesson_backend.in ${CMAKE_CURRENT_BINARY_DIR}/lesson${nn}_sim.cpp @ONLY)
  add_library(lesson${nn}_sim OBJECT ${CMAKE_CURRENT_BINARY_DIR}/lesson${nn}_sim.cpp)
  target_link_libraries(lesson${nn}_sim PUBLIC reducelab_harness PRIVATE reducelab_warnings)
  set(objects lesson${nn}_sim)

  if(REDUCELAB_HAVE_CUDA)
    set(RL_BACKEND gpu)
    configure_file(${PROJECT_SOURCE_DIR}/common/cmake/lesson_backend.in ${CMAKE_CURRENT_BINARY_DIR}/lesson${nn}_gpu.cu @ONLY)
    add_library(lesson${nn}_gpu OBJECT ${CMAKE_CURRENT_BINARY_DIR}/lesson${nn}_gpu.cu)
    target_link_libraries(lesson${nn}_gpu PUBLIC reducelab_harness PRIVATE reducelab_warnings)
    list(APPEND objects lesson${nn}_gpu)
  endif()

  add_executable(${nn}_${L_SLUG} main.cpp)
  target_link_libraries(${nn}_${L_SLUG} PRIVATE ${objects} reducelab_harness reducelab_warnings)
  set_target_properties(${nn}_${L_SLUG} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
  set_property(GLOBAL APPEND PROPERTY REDUCELAB_LESSON_OBJECTS ${objects})
endfunction()
