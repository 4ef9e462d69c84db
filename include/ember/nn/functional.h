// nn::functional, as LibTorch's torch/nn/functional.h: the layers' math as functions taking
// LibTorch's *FuncOptions (F::conv2d, F::max_pool2d, F::batch_norm, F::layer_norm, F::embedding,
// F::dropout, F::fold, F::unfold, F::bilinear, F::group_norm, F::instance_norm,
// F::cosine_similarity, F::pixel_shuffle, F::affine_grid, F::grid_sample, F::relu, F::gelu,
// F::softmax, the losses). `namespace F = torch::nn::functional;`
#pragma once

#include "ember/nn/functional/activation.h"
#include "ember/nn/functional/attention.h"
#include "ember/nn/functional/batchnorm.h"
#include "ember/nn/functional/conv.h"
#include "ember/nn/functional/conv_transpose.h"
#include "ember/nn/functional/distance.h"
#include "ember/nn/functional/dropout.h"
#include "ember/nn/functional/embedding.h"
#include "ember/nn/functional/fold.h"
#include "ember/nn/functional/instancenorm.h"
#include "ember/nn/functional/linear.h"
#include "ember/nn/functional/loss.h"
#include "ember/nn/functional/normalization.h"
#include "ember/nn/functional/padding.h"
#include "ember/nn/functional/pixelshuffle.h"
#include "ember/nn/functional/pooling.h"
#include "ember/nn/functional/upsampling.h"
#include "ember/nn/functional/vision.h"
