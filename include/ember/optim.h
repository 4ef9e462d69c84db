// optim in one include, as LibTorch's <torch/optim.h>: the optimizers and the lr schedulers.
#pragma once

#include "ember/optim/adagrad.h"
#include "ember/optim/adam.h"
#include "ember/optim/adamw.h"
#include "ember/optim/lbfgs.h"
#include "ember/optim/optimizer.h"
#include "ember/optim/rmsprop.h"
#include "ember/optim/schedulers/closed_form.h"
#include "ember/optim/schedulers/lr_scheduler.h"
#include "ember/optim/schedulers/reduce_on_plateau_scheduler.h"
#include "ember/optim/schedulers/step_lr.h"
#include "ember/optim/sgd.h"
