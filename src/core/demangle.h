// The readable name of a C++ type (c10::demangle): for the names users see, a module's type and a
// custom autograd function's node.
#pragma once

#include <string>

namespace ember::detail {

// `mangled` (a typeid(...).name()) demangled, or itself when it cannot be.
std::string demangle(const char* mangled);

}  // namespace ember::detail
