// Every options builder of the layers and of nn::functional, as LibTorch's torch/nn/options.h:
// LinearOptions(3, 1).bias(false), F::Conv2dFuncOptions().padding(1), MSELossOptions(kSum).
// Each setting is read by options.name() and set by options.name(value), which returns the
// options for chaining (EMBER_ARG, LibTorch's TORCH_ARG).
#pragma once

#include "ember/nn/options/activation.h"
#include "ember/nn/options/attention.h"
#include "ember/nn/options/batchnorm.h"
#include "ember/nn/options/conv.h"
#include "ember/nn/options/conv_transpose.h"
#include "ember/nn/options/distance.h"
#include "ember/nn/options/dropout.h"
#include "ember/nn/options/embedding.h"
#include "ember/nn/options/fold.h"
#include "ember/nn/options/instancenorm.h"
#include "ember/nn/options/linear.h"
#include "ember/nn/options/loss.h"
#include "ember/nn/options/normalization.h"
#include "ember/nn/options/padding.h"
#include "ember/nn/options/pixelshuffle.h"
#include "ember/nn/options/pooling.h"
#include "ember/nn/options/rnn.h"
#include "ember/nn/options/transformer.h"
#include "ember/nn/options/transformercoder.h"
#include "ember/nn/options/transformerlayer.h"
#include "ember/nn/options/upsampling.h"
#include "ember/nn/options/vision.h"
