// nn, optim and data in one include: modules, losses, initialisers, gradient clipping, optimizers,
// learning-rate schedules, data loading.
#pragma once

#include "ember/data.h"
#include "ember/nn/activation.h"
#include "ember/nn/any_module.h"
#include "ember/nn/clip_grad.h"
#include "ember/nn/functional.h"
#include "ember/nn/functional_module.h"
#include "ember/nn/init.h"
#include "ember/nn/layers.h"
#include "ember/nn/linear.h"
#include "ember/nn/loss.h"
#include "ember/nn/module.h"
#include "ember/nn/module_list.h"
#include "ember/nn/options.h"
#include "ember/nn/parameter_list.h"
#include "ember/nn/rnn.h"
#include "ember/nn/sequential.h"
#include "ember/optim.h"
