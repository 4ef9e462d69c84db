// CPU parallelism: how many threads ember's CPU kernels use (OpenMP, above a size threshold).
#pragma once

#include "ember/macros.h"

namespace ember {

// n >= 1. In a build without OpenMP the kernels run on one thread and this changes nothing.
EMBER_API void set_num_threads(int n);
EMBER_API int get_num_threads();  // 1 in a build without OpenMP

}  // namespace ember
