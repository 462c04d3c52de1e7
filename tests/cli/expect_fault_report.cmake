# Runs EXE (tests/sim/fault_probe.cpp) with ARGS RUNS times and passes only when, on every run, it
# exits 1 after printing, on stderr, exactly one line equal to EXPECT (the lowest faulting block and
# its first thread), and its buffered stdout ("before the launch") came out too.
foreach(run RANGE 1 ${RUNS})
  execute_process(COMMAND ${EXE} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "run ${run}: expected exit code 1, got '${rc}'; stderr: ${err}")
  endif()
  if(NOT err STREQUAL "${EXPECT}\n")
    message(FATAL_ERROR "run ${run}: expected the one line\n${EXPECT}\ngot\n${err}")
  endif()
  if(NOT out STREQUAL "before the launch\n")
    message(FATAL_ERROR "run ${run}: the buffered output before the fault was lost; stdout: '${out}'")
  endif()
endforeach()
message(STATUS "ok, ${RUNS} runs: ${err}")
