# Warnings are errors for ember's own targets (g++ 12 and clang clean).
function(ember_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Werror>)
endfunction()
