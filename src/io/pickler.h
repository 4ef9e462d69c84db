// The pickler: an IValue as the protocol-2 pickle torch.save writes, which Python's torch.load
// reads, with weights_only=True too. Tensors become persistent ids naming their storages.
#pragma once

#include <string>
#include <vector>

#include "ember/ivalue.h"

namespace ember::io {

// The pickle of `value`. Every storage its tensors use is appended to `storages`, once each, as
// a 1-D contiguous CPU tensor; storage i is named by the key std::to_string(i), so tensors that
// share a storage share it in the file too.
std::string pickle(const IValue& value, std::vector<Tensor>& storages);

}  // namespace ember::io
