// F::linear: input @ weight^T + bias.
#pragma once

#include "ember/linalg.h"

namespace ember::nn::functional {

using ember::linear;

}  // namespace ember::nn::functional
