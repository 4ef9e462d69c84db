// Every sampler of the data API (LibTorch's torch/data/samplers.h).
#pragma once

#include "ember/data/samplers/base.h"
#include "ember/data/samplers/custom_batch_request.h"
#include "ember/data/samplers/distributed.h"
#include "ember/data/samplers/random.h"
#include "ember/data/samplers/sequential.h"
#include "ember/data/samplers/stream.h"
