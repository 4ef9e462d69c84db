// CPU parallelism: how many threads ember's CPU kernels use (OpenMP, above a size threshold).
#pragma once

#include "ember/macros.h"

namespace ember {

EMBER_API void set_num_threads(int n);  // n >= 1
EMBER_API int get_num_threads();

}  // namespace ember
