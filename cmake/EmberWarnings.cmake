# Warnings are errors for ember's own targets (g++ 12 and clang clean).
function(ember_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Werror>
    # GCC 12's -Wrestrict misfires inside std::string's operator+ at -O3 (GCC bug 105329).
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-restrict>)
endfunction()
