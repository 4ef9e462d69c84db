// optim in one include, as LibTorch's <torch/optim.h>: the optimizers and the lr schedulers.
#pragma once

#include "ember/optim/adagrad.h"
#include "ember/optim/adam.h"
#include "ember/optim/adamw.h"
#include "ember/optim/closed_form_schedules.h"
#include "ember/optim/lbfgs.h"
#include "ember/optim/lr_scheduler.h"
#include "ember/optim/optimizer.h"
#include "ember/optim/reduce_on_plateau_scheduler.h"
#include "ember/optim/rmsprop.h"
#include "ember/optim/sgd.h"
#include "ember/optim/step_lr.h"
