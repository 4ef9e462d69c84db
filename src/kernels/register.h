// The explicit kernel registration entry points, one per backend (no static initialisers).
#pragma once

namespace ember::detail {

void register_cpu_kernels();   // src/cpu/register_kernels.cpp
void register_cuda_kernels();  // src/cuda/ (a no-op in builds without CUDA kernels)
// Fills the backend table and the kernel stubs if that has not happened yet.
void ensure_registered();

}  // namespace ember::detail
