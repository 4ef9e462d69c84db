// ember-smi: what ember sees on this machine, in the spirit of nvidia-smi: the build (version,
// BLAS, CUDA), every visible GPU and the CPU, and why no GPU is usable when none is.
// Usage: ember-smi [--ascii]   (box-drawing characters by default)
#include <cstdio>
#include <cstring>

#include "device_table.h"

int main(int argc, char** argv) {
  bool ascii = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--ascii") == 0) {
      ascii = true;
    } else if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf(
          "usage: ember-smi [--ascii]\n  Shows ember's build, the visible GPUs and the CPU.\n");
      return 0;
    } else {
      std::fprintf(stderr, "ember-smi: unknown argument '%s' (try --help)\n", argv[i]);
      return 2;
    }
  }
  print_device_table(ascii);
  return 0;
}
