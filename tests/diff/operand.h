// An input's operand (its base seen through its view steps) computed in plain C++: the
// comparator needs the values an op saw to tell a tie from a wrong index.
#pragma once

#include <vector>

#include "program.h"

namespace difftest {

struct Operand {
  Shape shape;
  std::vector<double> values;  // row-major over shape
};

Operand operand(const Input& in);

}  // namespace difftest
