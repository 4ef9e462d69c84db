// F::linear: input @ weight^T + bias; F::bilinear: input1^T weight input2 + bias.
#pragma once

#include "ember/linalg.h"

namespace ember::nn::functional {

using ember::bilinear;
using ember::linear;

}  // namespace ember::nn::functional
