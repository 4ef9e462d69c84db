// ember-bench: ember's figures for the workloads of ../shared/bench/WORKLOADS.md, on the CPU or
// a GPU.
//
// On the CPU it mirrors the LibTorch anchor (../shared/bench/libtorch/bench_libtorch.cpp), on a
// GPU the PyTorch anchor (../shared/bench/pytorch/bench_torch.py --device cuda): same keys, sizes,
// warm-up and repetition counts, thread count and output format, so that
// ../shared/bench/compare.py can pair the two programs' lines key by key. On a GPU every timed
// repetition ends with a synchronize of the device, as the anchor's, so queued work is counted.
//
// Usage: ember-bench [--device cpu|cuda|cuda:N] [W1 W2 ... W11 T]   (no workload = all)
//        ember-bench info                       (the INFO context lines only)
//        ember-bench icount [N]                 (under callgrind; see bench/compare.sh)
//        env BENCH_THREADS=N overrides the thread count (default: hardware_concurrency()).
//        T (GPU only): host<->device copies of 256 MiB, pageable and pinned, and device->device.
//
// Output: one line per figure,
//   RESULT <key> <median> <unit> <min> <max> <reps> # <description>
// median/min/max over the timed repetitions of this process, after warm-up. INFO lines carry
// context.

#include <ember/ember.h>
#include <ember/nn.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define EMBER_BENCH_HAVE_CALLGRIND 1
#endif
#endif

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

using ember::Device;
using ember::Tensor;

// Where the workloads run (--device).
Device g_device = Device::cpu();
bool on_gpu() { return g_device.is_cuda(); }

// Waits for the device's queued work; nothing to wait for on the CPU.
void sync() {
  if (on_gpu()) ember::synchronize(g_device);
}

// ---------------------------------------------------------------- timing and reporting

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
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
// calls each. The anchors' counts, workload by workload:
//   W1/W1b 20k warm, 5 x 200k (GPU: 20k warm, 5 x 20k); W1c 20k warm, 3 x 200k (GPU: 3 x 20k);
//   W7 1M warm, 5 x 1M (GPU: 200k warm, 5 x 200k); W2/W3/W5 2 warm, 15 x 1 (GPU: 3 warm);
//   W3x 1 warm, 7 x 1; W4 one repetition's worth of warm-up (GPU: 2 warm, 7 x 1).
struct Plan {
  long warm;
  int reps;
  long iters;
};

// Conversion from seconds per call to the unit printed.
double to_ns(double s) { return s * 1e9; }

// Prints `RESULT key median unit min max reps # desc` over the samples.
void report(const char* key, const char* unit, const char* desc, const std::vector<double>& v) {
  std::printf("RESULT %-12s %12.5g %-9s %12.5g %12.5g %3zu # %s\n", key, median(v), unit,
              *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()),
              v.size(), desc);
  std::fflush(stdout);
}

// The one timing helper the workloads go through: runs `op` per `plan`, then reports
// convert(seconds per call of op) for each timed repetition.
template <class Convert, class Op>
void bench(const char* key, const char* unit, const char* desc, Plan plan, Convert convert,
           Op&& op) {
  for (long i = 0; i < plan.warm; ++i) op();
  sync();
  std::vector<double> v;
  v.reserve(static_cast<size_t>(plan.reps));
  for (int r = 0; r < plan.reps; ++r) {
    const double t0 = now_s();
    for (long i = 0; i < plan.iters; ++i) op();
    sync();
    const double t1 = now_s();
    v.push_back(convert((t1 - t0) / static_cast<double>(plan.iters)));
  }
  report(key, unit, desc, v);
}

auto gbps(double bytes) {
  return [bytes](double s) { return bytes / s / 1e9; };
}
auto gflops(double flops) {
  return [flops](double s) { return flops / s / 1e9; };
}

// ---------------------------------------------------------------- W1 / W7: per-op overhead

void w1_op_overhead() {
  const long iters = on_gpu() ? 20000 : 200000, warm = 20000;
  auto a = ember::rand({2, 3}, g_device);
  auto b = ember::rand({2, 3}, g_device);
  Tensor c;
  bench("W1_add_small", "ns/op", "c = a + b, [2,3] float32", {warm, 5, iters}, to_ns,
        [&] { c = a + b; });
  sink(c);

  auto ag = ember::rand({2, 3}, g_device).requires_grad_(true);
  bench("W1b_add_grad", "ns/op", "c = a + b, [2,3], a.requires_grad (records AddBackward0)",
        {warm, 5, iters}, to_ns, [&] { c = ag + b; });
  std::printf("INFO W1b c.requires_grad=%d grad_fn=%s\n", static_cast<int>(c.requires_grad()),
              c.grad_fn() ? c.grad_fn()->name().c_str() : "none");
  sink(c.detach());

  ember::nn::Linear lin(3, 1);
  lin->to(g_device);
  auto x = ember::rand({2, 3}, g_device);
  Tensor y;
  bench("W1c_linear", "ns/call",
        "y = lin(x), nn::Linear(3,1), x [2,3], grad mode on (weights require grad)",
        {warm, 3, iters}, to_ns, [&] { y = lin(x); });
  sink(y.detach());
  ember::NoGradGuard no_grad;
  bench("W1c_lin_nograd", "ns/call", "same as W1c under NoGradGuard (extra)", {warm, 3, iters},
        to_ns, [&] { y = lin(x); });
  sink(y);
}

void w7_noop_to() {
  const long iters = on_gpu() ? 200000 : 1000000;
  auto x = ember::rand({2, 3}, g_device);
  Tensor y;
  bench(on_gpu() ? "W7_to_same_noop" : "W7_to_cpu_noop", "ns/call",
        "y = x.to(its own device) with x already there", {iters, 5, iters}, to_ns,
        [&] { y = x.to(g_device); });
  std::printf("INFO W7 returns self (same TensorImpl): %s\n", y.is_same(x) ? "yes" : "no");
  sink(y);
}

// ---------------------------------------------------------------- W2 / W3: memory bound

void w2_elementwise() {
  const int64_t n = int64_t{1} << 24;
  const double bytes = 12.0 * static_cast<double>(n);
  const Plan plan{on_gpu() ? 3 : 2, 15, 1};
  auto a = ember::rand({n}, g_device);
  auto b = ember::rand({n}, g_device);
  Tensor c;
  bench("W2_add_new", "GB/s", "c = a + b, 2^24 float32, new output each call (12 B/elem)", plan,
        gbps(bytes), [&] { c = a + b; });
  sink(c);
  auto out = ember::empty({n}, g_device);
  bench("W2b_add_out", "GB/s", "ember::add_out(c, a, b), preallocated c (12 B/elem)", plan,
        gbps(bytes), [&] { ember::add_out(out, a, b); });
  sink(out);
  bench("W2c_add_", "GB/s", "a.add_(b) in place (read a, read b, write a: 12 B/elem)", plan,
        gbps(bytes), [&] { a.add_(b); });
  sink(a);
}

void w3_reduction() {
  {
    const int64_t n = int64_t{1} << 24;
    auto a = ember::rand({n}, g_device);
    Tensor r;
    bench("W3_sum", "GB/s", "a.sum(), 2^24 float32 = 64 MiB (4 B/elem)", {on_gpu() ? 3 : 2, 15, 1},
          gbps(4.0 * static_cast<double>(n)), [&] { r = a.sum(); });
    std::printf("INFO W3 sum=%.6g (expect ~%.6g)\n", r.item<double>(),
                0.5 * static_cast<double>(n));
  }
  {
    const int64_t n = int64_t{1} << 26;
    auto a = ember::rand({n}, g_device);
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
    ember::ScalarType dtype;
    const char* key;
  };
  const std::vector<Cfg> cpu = {{256, 50, 9, ember::kFloat32, "W4_mm_256"},
                                {1024, 3, 7, ember::kFloat32, "W4_mm_1024"},
                                {2048, 1, 5, ember::kFloat32, "W4_mm_2048"}};
  const std::vector<Cfg> gpu = {{1024, 1, 7, ember::kFloat32, "W4_mm_1024"},
                                {4096, 1, 7, ember::kFloat32, "W4_mm_4096"},
                                {8192, 1, 7, ember::kFloat32, "W4_mm_8192"},
                                {4096, 1, 7, ember::kBFloat16, "W4_mm_bf16_4096"},
                                {8192, 1, 7, ember::kBFloat16, "W4_mm_bf16_8192"}};
  for (const auto& cfg : on_gpu() ? gpu : cpu) {
    const auto options = ember::TensorOptions(cfg.dtype).device(g_device);
    auto A = ember::randn({cfg.n, cfg.n}, options);
    auto B = ember::randn({cfg.n, cfg.n}, options);
    Tensor C;
    const double n = static_cast<double>(cfg.n);
    char desc[96];
    std::snprintf(desc, sizeof desc, "ember::mm, square N=%lld %s (2N^3 flop)",
                  static_cast<long long>(cfg.n), ember::toString(cfg.dtype));
    // The CPU anchor warms up with one untimed repetition of `inner` calls, the GPU one with two
    // calls.
    const long warm = on_gpu() ? 2 : cfg.inner;
    bench(cfg.key, "GFLOP/s", desc, {warm, cfg.reps, cfg.inner}, gflops(2.0 * n * n * n),
          [&] { C = ember::mm(A, B); });
    sink(C);
  }
}

void w5_softmax() {
  auto x = ember::randn({4096, 1024}, g_device);
  Tensor y;
  bench("W5_softmax", "GB/s", "ember::softmax(x, -1), x [4096,1024] float32 (8 B/elem)",
        {on_gpu() ? 3 : 2, 15, 1}, gbps(8.0 * 4096 * 1024), [&] { y = ember::softmax(x, -1); });
  std::printf("INFO W5 row-sum check: %.6f (expect 1)\n", y[17].sum().item<double>());
}

// ---------------------------------------------------------------- W6 / W8: the MLP

// 784-512-512-10 with ReLU, the anchor's MLP.
ember::nn::Sequential make_mlp() {
  namespace nn = ember::nn;
  return nn::Sequential(nn::Linear(784, 512), nn::ReLU(), nn::Linear(512, 512), nn::ReLU(),
                        nn::Linear(512, 10));
}

double to_ms(double s) { return s * 1e3; }
double to_us(double s) { return s * 1e6; }

void w6_train() {
  for (int64_t batch : {int64_t{64}, int64_t{1024}}) {
    ember::manual_seed(0);
    auto model = make_mlp();
    model->to(g_device);
    ember::optim::SGD opt(model->parameters(), 0.1);
    Tensor x = ember::randn({batch, 784}, g_device);
    Tensor y = ember::randint(0, 10, {batch}, ember::TensorOptions(ember::kLong).device(g_device));
    Tensor loss;
    auto step = [&] {
      opt.zero_grad();
      Tensor logits = model(x);
      loss = ember::nn::functional::cross_entropy(logits, y);
      loss.backward();
      opt.step();
    };
    step();
    const double first_loss = loss.item<double>();
    // As the anchors: one untimed repetition (20 resp. 3 steps), then 7 timed ones; on a GPU
    // 5 untimed and 7 timed repetitions of 10 steps.
    const long steps = on_gpu() ? 10 : batch == 64 ? 20 : 3;
    const int warm_reps = on_gpu() ? 5 : 1;
    char key[32], key2[32], desc[160];
    std::snprintf(key, sizeof key, "W6_train_b%lld", static_cast<long long>(batch));
    std::snprintf(key2, sizeof key2, "W6_sps_b%lld", static_cast<long long>(batch));
    std::snprintf(desc, sizeof desc,
                  "MLP 784-512-512-10 ReLU, CE loss, SGD lr=0.1; zero_grad+fwd+loss+bwd+step, "
                  "batch %lld",
                  static_cast<long long>(batch));
    const double b = static_cast<double>(batch);
    // One run of the steps, reported twice (ms/step and samples/s) from the same samples.
    std::vector<double> secs;
    for (long i = 0; i < warm_reps * steps; ++i) step();
    sync();
    for (int r = 0; r < 7; ++r) {
      const double t0 = now_s();
      for (long i = 0; i < steps; ++i) step();
      sync();
      secs.push_back((now_s() - t0) / static_cast<double>(steps));
    }
    std::vector<double> ms, sps;
    for (double s : secs) {
      ms.push_back(to_ms(s));
      sps.push_back(b / s);
    }
    report(key, "ms/step", desc, ms);
    report(key2, "samples/s", desc, sps);
    std::printf("INFO W6 batch %lld loss first=%.4f last=%.4f (finite=%d)\n",
                static_cast<long long>(batch), first_loss, loss.item<double>(),
                static_cast<int>(std::isfinite(loss.item<double>())));
    std::fflush(stdout);
  }
}

void w8_infer() {
  ember::manual_seed(0);
  auto model = make_mlp();
  model->to(g_device);
  model->eval();
  Tensor x = ember::randn({1, 784}, g_device);
  Tensor y;
  ember::NoGradGuard no_grad;
  const Plan plan = on_gpu() ? Plan{400, 7, 200} : Plan{300, 7, 300};
  bench("W8_infer_b1", "us/call", "W6 model forward, batch 1, under NoGradGuard", plan, to_us,
        [&] { y = model(x); });
  sink(y);
}

// ---------------------------------------------------------------- W10 / W11: CNN and LSTM

// W10: LeNet-like on 1x28x28, as the anchor's: conv(1->6, 5, pad 2) relu maxpool 2, conv(6->16, 5)
// relu maxpool 2, flatten 400, Linear(400, 120) relu, Linear(120, 10).
struct LeNetImpl : ember::nn::Module {
  LeNetImpl()
      : c1(register_module("c1", ember::nn::Conv2d(ember::nn::Conv2dOptions(1, 6, 5).padding(2)))),
        c2(register_module("c2", ember::nn::Conv2d(ember::nn::Conv2dOptions(6, 16, 5)))),
        f1(register_module("f1", ember::nn::Linear(400, 120))),
        f2(register_module("f2", ember::nn::Linear(120, 10))) {}
  Tensor forward(Tensor x) {
    x = ember::max_pool2d(ember::relu(c1(x)), 2);
    x = ember::max_pool2d(ember::relu(c2(x)), 2);
    x = ember::relu(f1(x.flatten(1)));
    return f2(x);
  }
  ember::nn::Conv2d c1, c2;
  ember::nn::Linear f1, f2;
};
EMBER_MODULE(LeNet);

void w10_cnn() {
  ember::manual_seed(0);
  LeNet model;
  model->to(g_device);
  ember::optim::Adam opt(model->parameters(), ember::optim::AdamOptions(1e-3));
  Tensor x = ember::randn({64, 1, 28, 28}, g_device);
  Tensor y = ember::randint(0, 10, {64}, ember::TensorOptions(ember::kLong).device(g_device));
  Tensor loss;
  auto step = [&] {
    opt.zero_grad();
    loss = ember::nn::functional::cross_entropy(model(x), y);
    loss.backward();
    opt.step();
  };
  step();
  const double first = loss.item<double>();
  // As the anchor: one untimed repetition of 10 steps, then 7 timed ones.
  bench("W10_cnn_b64", "ms/step",
        "LeNet-like CNN 1x28x28, CE loss, Adam 1e-3; zero_grad+fwd+loss+bwd+step, batch 64",
        Plan{10, 7, 10}, to_ms, step);
  std::printf("INFO W10 loss first=%.4f last=%.4f\n", first, loss.item<double>());
}

// W11: one-layer LSTM 128 -> 256, sequence 32, batch 32 (sequence first): forward, the mean of
// the outputs, backward (no optimizer step).
void w11_lstm() {
  ember::manual_seed(0);
  ember::nn::LSTM lstm(ember::nn::LSTMOptions(128, 256).num_layers(1));
  lstm->to(g_device);
  Tensor x = ember::randn({32, 32, 128}, g_device);
  Tensor loss;
  auto step = [&] {
    lstm->zero_grad();
    loss = std::get<0>(lstm->forward(x)).mean();
    loss.backward();
  };
  step();
  bench("W11_lstm", "ms/step", "LSTM 128->256, seq 32, batch 32: zero_grad+fwd+mean+bwd",
        Plan{5, 7, 5}, to_ms, step);
  sink(loss);
}

// ---------------------------------------------------------------- T: transfers (GPU only)

void transfers() {
  if (!on_gpu()) return;
  const int64_t n = int64_t{256} << 20;
  const double bytes = static_cast<double>(n);
  const auto host = ember::TensorOptions(ember::kUInt8);
  Tensor pageable = ember::empty({n}, host);
  Tensor pinned = ember::empty({n}, host).pin_memory();
  Tensor g = ember::empty({n}, host.device(g_device));
  Tensor g2 = ember::empty_like(g);
  const Plan plan{2, 7, 1};
  bench("T_h2d_pageable", "GB/s", "256 MiB host (pageable) -> device", plan, gbps(bytes),
        [&] { g.copy_(pageable); });
  bench("T_h2d_pinned", "GB/s", "256 MiB host (pinned) -> device, non_blocking", plan, gbps(bytes),
        [&] { g.copy_(pinned, true); });
  bench("T_d2h_pageable", "GB/s", "256 MiB device -> host (pageable)", plan, gbps(bytes),
        [&] { pageable.copy_(g); });
  bench("T_d2h_pinned", "GB/s", "256 MiB device -> host (pinned), non_blocking", plan, gbps(bytes),
        [&] { pinned.copy_(g, true); });
  bench("T_d2d", "GB/s", "256 MiB device -> device (read + write counted)", plan, gbps(2.0 * bytes),
        [&] { g2.copy_(g); });
  sink(g2.narrow(0, 0, 1));
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
  Tensor c;
  icount_one("W1_add_small", n, [&] { c = a + b; });
  icount_one("W1b_add_grad", n, [&] { c = ag + b; });
  ember::nn::Linear lin(3, 1);
  icount_one("W1c_linear", n, [&] { c = lin(a); });
  {
    ember::NoGradGuard no_grad;
    icount_one("W1c_lin_nograd", n, [&] { c = lin(a); });
  }
  icount_one("W7_to_cpu_noop", n, [&] { c = a.to(ember::kCPU); });
  sink(c);
}

const char* env_or_unset(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "(unset)";
}

void print_context(int threads_before, int threads) {
  // ember's kernels register on first use, and may then have OpenBLAS choose its kernels again
  // (Note [OpenBLAS on CPUs newer than it]): report the set the workloads run.
  sink(ember::ones({1}));
  std::printf("INFO %s\n", ember::build_info().c_str());
  if (on_gpu())
    std::printf("INFO device %s (%s)\n", ember::cuda::get_device_name(g_device.index()).c_str(),
                g_device.str().c_str());
  else std::printf("INFO device cpu\n");
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

int run(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "icount") == 0) {
    ember::set_num_threads(1);
    icount_mode(argc > 2 ? std::atol(argv[2]) : 10000);
    return 0;
  }
  std::set<std::string> want;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
      g_device = Device(argv[++i]);
    } else if (std::strncmp(argv[i], "--device=", 9) == 0) {
      g_device = Device(argv[i] + 9);
    } else {
      want.insert(argv[i]);
    }
  }
  auto on = [&](const char* w) { return want.empty() || want.count(w) > 0; };
  // "cuda" is the current GPU, as the anchor's torch.device("cuda", current_device()).
  if (on_gpu() && g_device.index() < 0) g_device = Device::cuda(ember::cuda::current_device());

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
  if (on("W6")) w6_train();
  if (on("W8")) w8_infer();
  if (on("W10")) w10_cnn();
  if (on("W11")) w11_lstm();
  if (on("T")) transfers();
  std::printf("INFO sink %g\n", static_cast<double>(g_sink));
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const ember::Error& e) {
    std::fprintf(stderr, "ember-bench: %s\n", e.what());
    return 1;
  }
}
