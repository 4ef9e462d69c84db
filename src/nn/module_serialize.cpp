// Module::save and Module::load: LibTorch's layout of a module in an archive.
#include "core/check.h"
#include "ember/nn/module.h"
#include "ember/serialize.h"

namespace ember::nn {

void Module::save(serialize::OutputArchive& archive) const {
  for (const auto& parameter : named_parameters(/*recurse=*/false))
    archive.write(parameter.key(), parameter.value());
  for (const auto& buffer : named_buffers(/*recurse=*/false))
    archive.write(buffer.key(), buffer.value(), /*is_buffer=*/true);
  for (const auto& child : children_) {
    serialize::OutputArchive child_archive;
    child.value()->save(child_archive);
    archive.write(child.key(), child_archive);
  }
}

void Module::load(serialize::InputArchive& archive) {
  for (auto& parameter : named_parameters(/*recurse=*/false))
    archive.read(parameter.key(), parameter.value());
  for (auto& buffer : named_buffers(/*recurse=*/false))
    archive.read(buffer.key(), buffer.value(), /*is_buffer=*/true);
  for (const auto& child : children_) {
    serialize::InputArchive child_archive;
    archive.read(child.key(), child_archive);
    child.value()->load(child_archive);
  }
}

serialize::OutputArchive& operator<<(serialize::OutputArchive& archive,
                                     const std::shared_ptr<Module>& module) {
  EMBER_CHECK(module != nullptr, "[torch::save] the module is empty (a null holder)");
  module->save(archive);
  return archive;
}

serialize::InputArchive& operator>>(serialize::InputArchive& archive,
                                    const std::shared_ptr<Module>& module) {
  EMBER_CHECK(module != nullptr, "[torch::load] the module is empty (a null holder)");
  module->load(archive);
  return archive;
}

}  // namespace ember::nn
