# The autograd.gradcheck_coverage test: runs the gradcheck suites (Gradcheck*, NnLoss.Gradients,
# CustomFunction.*) in one process with EMBER_GRADCHECK_NODES set
# (gradcheck.h logs the nodes of every graph it checks, in both orders) and fails naming each
# backward node that src/ can record (a "...BackwardN" name in a formula, an op table or an op)
# and no gradcheck reached. A new differentiable op therefore needs a gradcheck case.
#   cmake -DTESTS=<ember_tests> -DSOURCES=<src dir> -DLOG=<file> -P gradcheck_coverage.cmake

cmake_minimum_required(VERSION 3.20)

# Nodes no CPU-only run can build: pin_memory needs a GPU (its gradient is the identity).
set(not_checkable PinMemoryBackward0)

file(REMOVE ${LOG})
execute_process(COMMAND ${CMAKE_COMMAND} -E env EMBER_GRADCHECK_NODES=${LOG} ${TESTS}
                        --gtest_brief=1 --gtest_filter=Gradcheck*:NnLoss.Gradients:CustomFunction.*
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ember_tests failed (${status}):\n${output}")
endif()
file(STRINGS ${LOG} checked)
list(REMOVE_DUPLICATES checked)

file(GLOB_RECURSE sources ${SOURCES}/*.h ${SOURCES}/*.cpp)
set(recordable)
foreach(source IN LISTS sources)
  file(STRINGS ${source} lines REGEX "\"[A-Za-z0-9]+Backward[0-9]+\"")
  foreach(line IN LISTS lines)
    string(REGEX MATCHALL "\"[A-Za-z0-9]+Backward[0-9]+\"" names "${line}")
    foreach(name IN LISTS names)
      string(REPLACE "\"" "" name ${name})
      list(APPEND recordable ${name})
    endforeach()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES recordable)
list(SORT recordable)

set(missing)
foreach(name IN LISTS recordable)
  if(NOT name IN_LIST checked AND NOT name IN_LIST not_checkable)
    list(APPEND missing ${name})
  endif()
endforeach()
list(LENGTH recordable total)
if(missing)
  list(JOIN missing ", " missing)
  message(FATAL_ERROR "No gradcheck reaches these nodes (add a case, e.g. to "
                      "tests/autograd/formulas_test.cpp): ${missing}")
endif()
message(STATUS "gradcheck covers all ${total} backward nodes src/ can record, in both orders")
