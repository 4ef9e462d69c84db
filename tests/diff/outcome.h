// What running an op program produced, in library-neutral form: the outputs' dtypes, shapes and
// elements, the inputs' gradients, or the error that was raised.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "program.h"

namespace difftest {

struct TensorData {
  DType dtype = DType::Float32;
  Shape shape;
  // Row-major elements: integers (and bool) exactly in `integers`, floating values in `floats`.
  std::vector<int64_t> integers;
  std::vector<double> floats;
  bool requires_grad = false;
};

struct Outcome {
  // Set when the library threw; `stage` says whether in the op or in backward().
  std::optional<std::string> error;
  const char* stage = "";
  // The error was not the library's own exception type (for ember: not an ember::Error).
  bool foreign_error = false;
  // ember only: the error refused a dtype (ember::TypeError).
  bool type_error = false;
  std::vector<TensorData> outputs;
  // One per input that requires grad, in input order; nullopt where .grad stayed undefined.
  std::vector<std::optional<TensorData>> grads;
};

// Each runner interprets the program with its library (run_ember.cpp, run_torch.cpp).
Outcome run_ember(const Program& p);
// `in_float32`: compute that float16 or bfloat16 dtype in float32 instead and round the float32
// results to it (see float32_reference() in judge.h).
Outcome run_torch(const Program& p, std::optional<DType> in_float32 = std::nullopt);

// Initialises the libraries: one CPU thread each (the tensors are small; threads would only add
// scheduling noise), and LibTorch's warnings silenced (deprecations, resized out= tensors).
void init_ember();
void init_torch();

}  // namespace difftest
