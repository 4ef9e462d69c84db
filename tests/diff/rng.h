// The generator's random numbers: splitmix64, with the few draws the generator needs written out
// here (std's distributions differ between standard libraries, which would make a printed seed
// replay differently elsewhere).
#pragma once

#include <cstdint>
#include <vector>

namespace difftest {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // In [lo, hi], both included (lo <= hi).
  int64_t uniform(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  double real() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  bool chance(double p) { return real() < p; }
  template <class T>
  const T& pick(const std::vector<T>& items) {
    return items[static_cast<size_t>(uniform(0, static_cast<int64_t>(items.size()) - 1))];
  }
  // An index drawn with the given relative weights.
  size_t weighted(const std::vector<double>& weights) {
    double total = 0;
    for (double w : weights) total += w;
    double r = real() * total;
    for (size_t i = 0; i < weights.size(); ++i) {
      if (r < weights[i]) return i;
      r -= weights[i];
    }
    return weights.size() - 1;
  }

 private:
  uint64_t state_;
};

// The seed of program `index` of a run: every program has its own stream, so --only replays one
// program without generating those before it.
inline uint64_t program_seed(uint64_t seed, uint64_t index) {
  Rng mix(seed ^ (index * 0xd1b54a32d192ed03ull));
  mix.next();
  return mix.next();
}

}  // namespace difftest
