// What the check programs run under ember-run (or forked) share; they have no GoogleTest.
#pragma once

#include <functional>
#include <string>

#include "ember/error.h"

namespace ember::check {

// The message of the ember::Error that `fn` throws ("" if none).
inline std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ember::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace ember::check
