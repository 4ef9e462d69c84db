# Warnings for ember's own targets (g++ 12 and clang clean), as errors unless EMBER_WERROR=OFF:
# a newer compiler's new warnings then stop no build (bench/gpu.sh builds so on the GPU machine,
# whose g++ is not CI's).
option(EMBER_WERROR "Treat compiler warnings in ember's own targets as errors" ON)

function(ember_set_warnings target)
  target_compile_options(${target} PRIVATE
    # -Wswitch-enum: a switch over an enum names every enumerator, so an op or dtype added to an
    # enum cannot fall into a `default:` unseen (DESIGN.md, "An op is described once").
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wswitch-enum>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${EMBER_WERROR}>>:-Werror>
    # GCC 12's -Wrestrict misfires inside std::string's operator+ at -O3 (GCC bug 105329).
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-restrict>)
endfunction()
