// The umbrella header: everything a program needs from ember.
#pragma once

#include "ember/autograd.h"
#include "ember/cuda.h"
#include "ember/device.h"
#include "ember/dtype.h"
#include "ember/error.h"
#include "ember/factory.h"
#include "ember/linalg.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/scalar.h"
#include "ember/shape_ops.h"
#include "ember/tensor.h"
#include "ember/tensor_options.h"
#include "ember/threading.h"
#include "ember/version.h"
