// StateDict: named tensors in order (a module's parameters and buffers, a safetensors file).
#pragma once

#include "ember/ordered_dict.h"
#include "ember/tensor.h"

namespace ember {

using StateDict = OrderedDict<std::string, Tensor>;

}  // namespace ember
