// The CPU allocator: 64-byte aligned blocks; large freed blocks are kept for reuse so that big
// outputs do not page-fault fresh memory on every op (see Note [Reusing large host blocks]).
#pragma once

#include "core/allocator.h"

namespace ember::cpu {

detail::Allocator& cpu_allocator();
// Returns every cached block to the system.
void empty_cpu_cache();

}  // namespace ember::cpu
