// A restricted unpickler, in the spirit of torch.load(weights_only=True): it reads the pickles
// torch.save writes (protocol 2, and the opcodes of 3 and 4 that plain data uses) into IValues,
// and knows only the globals a state dict or a checkpoint needs. Any other global is refused by
// name: nothing a file says is ever run.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "ember/dtype.h"
#include "ember/ivalue.h"

namespace ember::io {

// A storage a pickle refers to by persistent id: ('storage', torch.<Type>Storage, key, location,
// numel).
struct StorageRef {
  std::string key;
  ScalarType dtype;
  std::string location;  // "cpu", "cuda:0", ...
  int64_t numel;
};

// Returns the storage as a 1-D contiguous tensor of `ref.numel` elements of `ref.dtype`; called
// once per key (the unpickler keeps the result, so tensors naming one storage share it).
using StorageLoader = std::function<Tensor(const StorageRef& ref)>;

// Unpickles `bytes`. `name` and `op` tag every message ("[torch::load] model.pt: data.pkl: ...");
// a malformed or refused pickle throws ValueError saying what and where (the opcode's offset).
IValue unpickle(std::string_view bytes, const StorageLoader& load_storage, const std::string& name,
                const char* op);

}  // namespace ember::io
