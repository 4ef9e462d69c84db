// The generator's state and manual_seed (see random_draw.h).
#include "ops/random_draw.h"

#include <atomic>

#include "ember/factory.h"

namespace ember {
namespace {

// A seed and how many counters earlier draws used. Philox makes element i of a draw depend only
// on (seed, offset + i), so CPU results are the same for any thread count.
struct Generator {
  std::atomic<uint64_t> seed{67280421310721ull};
  std::atomic<uint64_t> offset{0};
};
Generator& generator() {
  static Generator g;
  return g;
}

}  // namespace

void manual_seed(uint64_t seed) {
  generator().seed = seed;
  generator().offset = 0;
}

namespace ops {

void draw(const Tensor& out, kernels::RandomKind kind, double a, double b) {
  const uint64_t offset = generator().offset.fetch_add(static_cast<uint64_t>(out.numel()));
  kernels::random_stub(out.device().type(), out, kind, a, b, generator().seed.load(), offset);
}

}  // namespace ops
}  // namespace ember
