// Runs every area of the LibTorch API test in a fixed order; the output is the test's result.
#include "torch_api.h"

int main() {
  torch::manual_seed(0);
  types_options_macros();
  handle_semantics();
  reductions();
  selection();
  elementwise();
  properties();
  random_fills();
  autograd_methods();
  bitwise();
  factories();
  indexing();
  strides();
  messages();
  autograd_functions();
  nn_modules();
  nn_functional();
  data_pipeline();
  optimizers();
  training();
  nn_any();
  nn_rnn();
  nn_activations();
  io_dlpack();
  nn_norms();
  nn_losses();
  nn_attention();
  nn_pooling();
  nn_layers();
}
