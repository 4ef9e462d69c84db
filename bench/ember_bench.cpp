// ember-bench: ember's CPU figures for the workloads of ../shared/bench/WORKLOADS.md.
//
// It mirrors the LibTorch anchor (../shared/bench/libtorch/bench_libtorch.cpp): same keys, sizes,
// warm-up and repetition counts, thread count and output format, so that
// ../shared/bench/compare.py can pair the two programs' lines key by key.
//
// Usage: ember-bench [W1 W2 W3 W4 W5 W7 ...]   (no argument = every workload ember has)
//        ember-bench info                       (the INFO context lines only)
//        ember-bench icount [N]                 (under callgrind; see bench/compare.sh)
//        env BENCH_THREADS=N overrides the thread count (default: hardware_concurrency()).
//
// Output: one line per figure,
//   RESULT <key> <median> <unit> <min> <max> <reps> # <description>
// median/min/max over the timed repetitions of this process, after warm-up. INFO lines carry
// context. W6 (MLP training) and W8 (MLP inference) need nn modules and autograd, which ember
// does not have yet: asking for them prints an INFO line and no RESULT.

#include <ember/ember.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define EMBER_BENCH_HAVE_CALLGRIND 1
#endif
#endif

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

using ember::Tensor;

// ---------------------------------------------------------------- timing and reporting

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Consumed at the end so that no result is provably dead.
volatile double g_sink = 0.0;

void sink(const Tensor& t) {
  if (t.defined() && t.numel() > 0) g_sink = g_sink + t.reshape({-1})[0].item<double>();
}

// How one figure is sampled: `warm` untimed calls, then `reps` timed repetitions of `iters`
// calls each. The anchor's counts, workload by workload:
//   W1/W1b 20k warm, 5 x 200k; W1c 20k warm, 3 x 200k; W7 1M warm, 5 x 1M;
//   W2/W3/W5 2 warm, 15 x 1; W3x 1 warm, 7 x 1; W4 one repetition's worth of warm-up.
struct Plan {
  long warm;
  int reps;
  long iters;
};

// Conversion from seconds per call to the unit printed.
double to_ns(double s) { return s * 1e9; }

// The one timing helper every workload goes through: runs `op` per `plan`, then prints
// `RESULT key median unit min max reps # desc`, where each sample is
// convert(seconds per call of op).
template <class Convert, class Op>
void bench(const char* key, const char* unit, const char* desc, Plan plan, Convert convert,
           Op&& op) {
  for (long i = 0; i < plan.warm; ++i) op();
  std::vector<double> v;
  v.reserve(static_cast<size_t>(plan.reps));
  for (int r = 0; r < plan.reps; ++r) {
    const double t0 = now_s();
    for (long i = 0; i < plan.iters; ++i) op();
    const double t1 = now_s();
    v.push_back(convert((t1 - t0) / static_cast<double>(plan.iters)));
  }
  const double med = median(v);
  const double mn = *std::min_element(v.begin(), v.end());
  const double mx = *std::max_element(v.begin(), v.end());
  std::printf("RESULT %-12s %12.5g %-9s %12.5g %12.5g %3zu # %s\n", key, med, unit, mn, mx,
              v.size(), desc);
  std::fflush(stdout);
}

auto gbps(double bytes) {
  return [bytes](double s) { return bytes / s / 1e9; };
}
auto gflops(double flops) {
  return [flops](double s) { return flops / s / 1e9; };
}

// ---------------------------------------------------------------- W1 / W7: per-op overhead

constexpr long kW1Iters = 200000, kW1Warm = 20000;

void w1_op_overhead() {
  auto a = ember::rand({2, 3});
  auto b = ember::rand({2, 3});
  Tensor c;
  bench("W1_add_small", "ns/op", "c = a + b, [2,3] float32", {kW1Warm, 5, kW1Iters}, to_ns,
        [&] { c = a + b; });
  sink(c);

  auto ag = ember::rand({2, 3}).requires_grad_(true);
  bench("W1b_add_grad", "ns/op",
        "c = a + b, [2,3], a.requires_grad_(true); ember has no autograd yet, so no graph node "
        "is recorded (LibTorch records AddBackward0)",
        {kW1Warm, 5, kW1Iters}, to_ns, [&] { c = ag + b; });
  std::printf("INFO W1b c.requires_grad=%d (no autograd in ember yet)\n",
              static_cast<int>(c.requires_grad()));
  sink(c);

  // No nn module yet: nn::Linear(3,1)'s forward is the functional form with a [1,3] weight and
  // a [1] bias. Both W1c keys run this same op (no grad mode exists to switch off).
  auto x = ember::rand({2, 3});
  auto w = ember::rand({1, 3});
  auto bias = ember::rand({1});
  Tensor y;
  bench("W1c_linear", "ns/call",
        "y = ember::linear(x, W, b), x [2,3], W [1,3], b [1] (no nn module or autograd yet: "
        "functional form of nn::Linear(3,1))",
        {kW1Warm, 3, kW1Iters}, to_ns, [&] { y = ember::linear(x, w, bias); });
  sink(y);
  bench("W1c_lin_nograd", "ns/call",
        "same op as W1c_linear (ember has no grad mode, so no-grad changes nothing)",
        {kW1Warm, 3, kW1Iters}, to_ns, [&] { y = ember::linear(x, w, bias); });
  sink(y);
}

void w7_noop_to() {
  constexpr long kIters = 1000000;
  auto x = ember::rand({2, 3});
  Tensor y;
  bench("W7_to_cpu_noop", "ns/call", "y = x.to(ember::kCPU) with x already on CPU",
        {kIters, 5, kIters}, to_ns, [&] { y = x.to(ember::kCPU); });
  std::printf("INFO W7 returns self (same TensorImpl): %s\n", y.is_same(x) ? "yes" : "no");
  sink(y);
}

// ---------------------------------------------------------------- W2 / W3: memory bound

void w2_elementwise() {
  const int64_t n = int64_t{1} << 24;
  const double bytes = 12.0 * static_cast<double>(n);
  auto a = ember::rand({n});
  auto b = ember::rand({n});
  Tensor c;
  bench("W2_add_new", "GB/s", "c = a + b, 2^24 float32, new output each call (12 B/elem)",
        {2, 15, 1}, gbps(bytes), [&] { c = a + b; });
  sink(c);
  auto out = ember::empty({n});
  bench("W2b_add_out", "GB/s", "ember::add_out(c, a, b), preallocated c (12 B/elem)", {2, 15, 1},
        gbps(bytes), [&] { ember::add_out(out, a, b); });
  sink(out);
  bench("W2c_add_", "GB/s", "a.add_(b) in place (read a, read b, write a: 12 B/elem)",
        {2, 15, 1}, gbps(bytes), [&] { a.add_(b); });
  sink(a);
}

void w3_reduction() {
  {
    const int64_t n = int64_t{1} << 24;
    auto a = ember::rand({n});
    Tensor r;
    bench("W3_sum", "GB/s", "a.sum(), 2^24 float32 = 64 MiB (4 B/elem)", {2, 15, 1},
          gbps(4.0 * static_cast<double>(n)), [&] { r = a.sum(); });
    std::printf("INFO W3 sum=%.6g (expect ~%.6g)\n", r.item<double>(),
                0.5 * static_cast<double>(n));
  }
  {
    const int64_t n = int64_t{1} << 26;
    auto a = ember::rand({n});
    Tensor r;
    bench("W3x_sum_2^26", "GB/s", "a.sum(), 2^26 float32 = 256 MiB, larger than L3 (extra)",
          {1, 7, 1}, gbps(4.0 * static_cast<double>(n)), [&] { r = a.sum(); });
    sink(r);
  }
}

// ---------------------------------------------------------------- W4 / W5: compute

void w4_matmul() {
  struct Cfg {
    int64_t n;
    int inner, reps;
    const char* key;
  };
  const Cfg cfgs[] = {{256, 50, 9, "W4_mm_256"}, {1024, 3, 7, "W4_mm_1024"},
                      {2048, 1, 5, "W4_mm_2048"}};
  for (const auto& cfg : cfgs) {
    auto A = ember::randn({cfg.n, cfg.n});
    auto B = ember::randn({cfg.n, cfg.n});
    Tensor C;
    const double n = static_cast<double>(cfg.n);
    char desc[96];
    std::snprintf(desc, sizeof desc, "ember::mm, square N=%lld float32 (2N^3 flop)",
                  static_cast<long long>(cfg.n));
    // The anchor warms up with one untimed repetition of `inner` calls.
    bench(cfg.key, "GFLOP/s", desc, {cfg.inner, cfg.reps, cfg.inner}, gflops(2.0 * n * n * n),
          [&] { C = ember::mm(A, B); });
    sink(C);
  }
}

void w5_softmax() {
  auto x = ember::randn({4096, 1024});
  Tensor y;
  bench("W5_softmax", "GB/s", "ember::softmax(x, -1), x [4096,1024] float32 (8 B/elem)",
        {2, 15, 1}, gbps(8.0 * 4096 * 1024), [&] { y = ember::softmax(x, -1); });
  std::printf("INFO W5 row-sum check: %.6f (expect 1)\n", y[17].sum().item<double>());
}

void missing(const char* workload, const char* keys) {
  std::printf("INFO %s skipped: needs nn modules and autograd, which ember does not have yet "
              "(keys %s missing)\n",
              workload, keys);
}

// ---------------------------------------------------------------- icount (callgrind)

// Under `valgrind --tool=callgrind --instr-atstart=no`: instructions per call of the small ops,
// which unlike time do not move with the shared machine's load. Each loop is instrumented alone
// and dumped under its own name, exactly as the anchor's icount mode.
template <class Op>
void icount_one(const char* name, long n, Op&& op) {
  for (long i = 0; i < 2000; ++i) op();  // warm-up, not instrumented
#ifdef EMBER_BENCH_HAVE_CALLGRIND
  CALLGRIND_START_INSTRUMENTATION;
  CALLGRIND_ZERO_STATS;
#endif
  for (long i = 0; i < n; ++i) op();
#ifdef EMBER_BENCH_HAVE_CALLGRIND
  CALLGRIND_DUMP_STATS_AT(name);
  CALLGRIND_STOP_INSTRUMENTATION;
#endif
  std::printf("INFO icount %s iterations %ld\n", name, n);
}

void icount_mode(long n) {
#ifndef EMBER_BENCH_HAVE_CALLGRIND
  std::printf("INFO icount: built without valgrind/callgrind.h, nothing counted\n");
#endif
  auto a = ember::rand({2, 3});
  auto b = ember::rand({2, 3});
  auto ag = ember::rand({2, 3}).requires_grad_(true);
  auto w = ember::rand({1, 3});
  auto bias = ember::rand({1});
  Tensor c;
  icount_one("W1_add_small", n, [&] { c = a + b; });
  icount_one("W1b_add_grad", n, [&] { c = ag + b; });
  icount_one("W1c_linear", n, [&] { c = ember::linear(a, w, bias); });
  icount_one("W7_to_cpu_noop", n, [&] { c = a.to(ember::kCPU); });
  sink(c);
}

const char* env_or_unset(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "(unset)";
}

void print_context(int threads_before, int threads) {
  std::printf("INFO %s\n", ember::build_info().c_str());
  std::printf("INFO threads: default ember::get_num_threads()=%d, set to %d, now %d\n",
              threads_before, threads, ember::get_num_threads());
  std::printf("INFO BLAS: %s\n", ember::blas_name());
  std::printf("INFO OPENBLAS_CORETYPE=%s OMP_WAIT_POLICY=%s OMP_NUM_THREADS=%s\n",
              env_or_unset("OPENBLAS_CORETYPE"), env_or_unset("OMP_WAIT_POLICY"),
              env_or_unset("OMP_NUM_THREADS"));
  // Which OpenBLAS kernel set the process runs, when OpenBLAS is loaded (as in the anchor).
  using CoreFn = char* (*)();
  using NtFn = int (*)();
  auto core = reinterpret_cast<CoreFn>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  auto nt = reinterpret_cast<NtFn>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  std::printf("INFO openblas in process: corename=%s threads=%d\n", core ? core() : "(not found)",
              nt ? nt() : -1);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "icount") == 0) {
    ember::set_num_threads(1);
    icount_mode(argc > 2 ? std::atol(argv[2]) : 10000);
    return 0;
  }
  std::set<std::string> want(argv + 1, argv + argc);
  auto on = [&](const char* w) { return want.empty() || want.count(w) > 0; };

  const int threads_before = ember::get_num_threads();
  int threads = static_cast<int>(std::thread::hardware_concurrency());
  if (const char* e = std::getenv("BENCH_THREADS")) threads = std::atoi(e);
  ember::set_num_threads(std::max(threads, 1));
  print_context(threads_before, std::max(threads, 1));
  if (want.count("info")) return 0;

  if (on("W1")) w1_op_overhead();
  if (on("W7")) w7_noop_to();
  if (on("W2")) w2_elementwise();
  if (on("W3")) w3_reduction();
  if (on("W4")) w4_matmul();
  if (on("W5")) w5_softmax();
  if (on("W6")) missing("W6", "W6_train_b64 W6_train_b1024 W6_sps_b64 W6_sps_b1024");
  if (on("W8")) missing("W8", "W8_infer_b1");
  std::printf("INFO sink %g\n", static_cast<double>(g_sink));
  return 0;
}
