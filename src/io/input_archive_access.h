// A dictionary read as an InputArchive, for ember's own readers of nested values (an optimizer's
// per-parameter states and groups).
#pragma once

#include <string>
#include <utility>

#include "ember/serialize/input_archive.h"

namespace ember::serialize::detail {

struct InputArchiveAccess {
  static InputArchive over(Dict<IValue, IValue> dict, std::string name) {
    InputArchive archive;
    archive.root_ = std::move(dict);
    archive.name_ = std::move(name);
    return archive;
  }
};

}  // namespace ember::serialize::detail
