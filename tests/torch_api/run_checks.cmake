# Runs one build of the LibTorch API test and stores its output in OUTPUT; then, through the
# comparator AGREE, compares it with each reference given: GOLDEN (expected.txt) and
# LIBTORCH_OUTPUT (the live LibTorch build's output). With no reference it only stores.
#   cmake -DPROGRAM=<exe> -DOUTPUT=<file> [-DAGREE=<exe> -DGOLDEN=<file> -DLIBTORCH_OUTPUT=<file>]
#         -P run_checks.cmake
execute_process(COMMAND ${PROGRAM} OUTPUT_FILE ${OUTPUT} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${status}; its output so far is in ${OUTPUT}")
endif()
foreach(reference IN ITEMS ${GOLDEN} ${LIBTORCH_OUTPUT})
  execute_process(COMMAND ${AGREE} ${reference} ${OUTPUT} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${OUTPUT} disagrees with ${reference} (lines above). expected.txt is "
                        "LibTorch's output: after changing the test's sources, regenerate it with "
                        "cmake --build <build> --target torch_api_golden")
  endif()
endforeach()
