// The data API, LibTorch's torch::data (torch/data.h): datasets, samplers, transforms and
// make_data_loader, in ember::data (torch::data through <ember/torch.h>).
#pragma once

#include "ember/data/dataloader.h"
#include "ember/data/datasets.h"
#include "ember/data/example.h"
#include "ember/data/iterator.h"
#include "ember/data/samplers.h"
#include "ember/data/transforms.h"
#include "ember/data/worker_exception.h"

namespace ember::data {
// As LibTorch: data::Dataset<Self> without the datasets:: prefix.
using datasets::BatchDataset;
using datasets::Dataset;
}  // namespace ember::data
