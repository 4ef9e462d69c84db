// The CUDA reduction, softmax and cumsum kernels run on the host (Note [Block programs] in
// src/cuda/block_program.h): their own launch plans and block programs, every thread of every
// block, warps as lane arrays and shared memory checked for races, must give the CPU kernels'
// results: exactly for integers, bool and indices, within rounding for floating values. Every
// ReduceKind runs on every dtype it accepts over full, inner, outer, several, merged, strided,
// broadcast, empty and 0-dim reductions, with sizes that are not whole warps or blocks, on the
// geometry the library builds (kernels::make_reduce_iter, dims coalesced).
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "cuda/reduce_program.h"
#include "cuda/scan_program.h"
#include "cuda/softmax_program.h"
#include "ember/ember.h"
#include "kernels/reduce_iter.h"

namespace ember {
namespace {

using cuda::kWarpSize;
using kernels::ReduceIter;
using kernels::ReduceKind;
using kernels::ReduceParams;

// The executor of Note [Block programs] on the host: each statement runs for every thread in
// turn. Shared memory remembers, per byte, who last wrote and read it between which barriers, and
// counts the races a GPU could see: two threads touching a byte between two barriers with one of
// them writing, or a read of a byte nothing wrote.
class HostBlock {
 public:
  HostBlock(int threads, size_t shared_bytes)
      : threads_(threads), shared_(shared_bytes), access_(shared_bytes) {
    EXPECT_TRUE(threads > 0 && threads % kWarpSize == 0 && threads <= cuda::kMaxBlockThreads)
        << threads << " threads is not a block of whole warps";
  }

  template <class V>
  class Regs {
   public:
    explicit Regs(int n) : v_(new V[static_cast<size_t>(n)]()) {}
    V& operator[](int t) { return v_[static_cast<size_t>(t)]; }

   private:
    std::unique_ptr<V[]> v_;  // not std::vector: vector<bool> has no bool&
  };

  template <class V>
  class Ref {
   public:
    Ref(HostBlock* b, size_t at) : b_(b), at_(at) {}
    Ref& operator=(const V& v) {
      b_->access(at_, sizeof(V), true);
      std::memcpy(b_->shared_.data() + at_, &v, sizeof(V));
      return *this;
    }
    operator V() const {  // NOLINT: reads like the GPU's V&
      b_->access(at_, sizeof(V), false);
      V v;
      std::memcpy(&v, b_->shared_.data() + at_, sizeof(V));
      return v;
    }

   private:
    HostBlock* b_;
    size_t at_;
  };

  template <class V>
  struct Shared {
    HostBlock* b;
    Ref<V> operator[](int64_t i) const { return Ref<V>(b, static_cast<size_t>(i) * sizeof(V)); }
  };

  template <class V>
  Regs<V> regs() const {
    return Regs<V>(threads_);
  }
  template <class V>
  Shared<V> shared() {
    return {this};
  }
  template <class F>
  void each(const F& f) {
    for (current_ = 0; current_ < threads_; ++current_) f(current_);
    current_ = -1;
  }
  void sync() { ++epoch_; }

  // __shfl_down_sync's tree: lane l reads lane l + offset of its `width` lanes, or keeps its own.
  template <class V, class Ops>
  void warp_reduce(Regs<V>& r, int width, const Ops& ops) {
    EXPECT_TRUE(width >= 1 && width <= kWarpSize && (width & (width - 1)) == 0) << width;
    for (int warp = 0; warp < threads_; warp += kWarpSize)
      for (int offset = width / 2; offset > 0; offset /= 2) {
        V next[kWarpSize];
        for (int lane = 0; lane < kWarpSize; ++lane) {
          const int src = lane % width + offset < width ? lane + offset : lane;
          next[lane] = ops.combine(r[warp + lane], r[warp + src]);
        }
        for (int lane = 0; lane < kWarpSize; ++lane) r[warp + lane] = next[lane];
      }
  }
  // __shfl_up_sync's inclusive scan, then a shift by one lane.
  template <class V, class Ops>
  void warp_exclusive_scan(Regs<V>& r, const Ops& ops) {
    for (int warp = 0; warp < threads_; warp += kWarpSize) {
      V inclusive[kWarpSize];
      for (int lane = 0; lane < kWarpSize; ++lane) inclusive[lane] = r[warp + lane];
      for (int offset = 1; offset < kWarpSize; offset *= 2) {
        V next[kWarpSize];
        for (int lane = 0; lane < kWarpSize; ++lane)
          next[lane] = lane >= offset ? ops.combine(inclusive[lane - offset], inclusive[lane])
                                      : inclusive[lane];
        for (int lane = 0; lane < kWarpSize; ++lane) inclusive[lane] = next[lane];
      }
      for (int lane = 0; lane < kWarpSize; ++lane)
        r[warp + lane] = lane == 0 ? ops.identity() : inclusive[lane - 1];
    }
  }

  int races() const { return races_; }

 private:
  struct Access {
    int write_epoch = -1, writer = -1;
    int read_epoch = -1, reader = -1;  // reader -2: more than one thread
  };

  void access(size_t at, size_t n, bool write) {
    if (at + n > shared_.size()) {
      ADD_FAILURE() << "shared memory access at byte " << at << " past the " << shared_.size()
                    << " the launch reserves";
      return;
    }
    bool race = false;
    for (size_t i = at; i < at + n; ++i) {
      Access& a = access_[i];
      const bool written_by_other = a.write_epoch == epoch_ && a.writer != current_;
      if (write) {
        race |= written_by_other || (a.read_epoch == epoch_ && a.reader != current_);
        a.write_epoch = epoch_;
        a.writer = current_;
      } else {
        race |= written_by_other || a.writer < 0;
        if (a.read_epoch != epoch_) a.reader = current_;
        else if (a.reader != current_) a.reader = -2;
        a.read_epoch = epoch_;
      }
    }
    if (race && races_++ == 0)
      ADD_FAILURE() << "shared memory race: thread " << current_ << (write ? " writes" : " reads")
                    << " byte " << at << " between barriers " << epoch_ << " and " << epoch_ + 1;
  }

  int threads_;
  std::vector<unsigned char> shared_;
  std::vector<Access> access_;
  int current_ = -1;
  int epoch_ = 0;
  int races_ = 0;
};

// ---------------------------------------------------------------- reductions

// The geometry the library builds (kernels::make_reduce_iter: reduced dims ordered by stride,
// both groups coalesced) for reducing x over `dims` (empty: all of them).
ReduceIter reduce_iter_for(const Tensor& x, const std::vector<int64_t>& dims, const Tensor& values,
                           const Tensor& indices) {
  bool reduced[detail::kMaxDims] = {};
  for (int64_t d = 0; d < x.dim(); ++d) reduced[d] = dims.empty();
  for (int64_t d : dims) reduced[d < 0 ? d + x.dim() : d] = true;
  return kernels::make_reduce_iter(x, reduced, values, indices);
}

// GpuReduceLoop (src/cuda/reduce_kernels.cu) with the launches replaced by loops over blocks:
// `sm_count` stands for the GPU's size, which decides the splits.
struct EmulatedReduceLoop {
  int sm_count;
  std::vector<cuda::ReducePlan>* plans;

  template <class T, class Out, class Ops>
  void run(const ReduceIter& it, const Ops& ops) const {
    const int64_t num_outputs = it.geometry.num_outputs;
    if (num_outputs == 0) return;
    using Acc = cuda::acc_of<Ops>;
    auto args = cuda::make_reduce_args<T, Out>(it, ops, sm_count);
    const cuda::ReducePlan& plan = args.plan;
    plans->push_back(plan);
    std::unique_ptr<Acc[]> partials;
    if (plan.splits > 1) {
      partials = std::make_unique<Acc[]>(static_cast<size_t>(plan.splits * num_outputs));
      args.partials = partials.get();
    }
    for (int64_t block = 0; block < plan.output_blocks; ++block)
      for (int64_t split = 0; split < plan.splits; ++split) {
        HostBlock b(plan.shape.threads(), cuda::shared_bytes(args, plan.shape));
        cuda::reduce_block(b, args, block, split);
      }
    if (plan.splits == 1) return;
    for (int64_t block = 0; block < plan.finish_blocks; ++block) {
      HostBlock b(plan.finish_shape.threads(), cuda::shared_bytes(args, plan.finish_shape));
      cuda::finish_block(b, args, block);
    }
  }
};

bool is_floating(ScalarType t) {
  return t == kFloat16 || t == kBFloat16 || t == kFloat32 || t == kFloat64;
}

// Relative and absolute (times the result's largest magnitude) tolerance of a floating result.
double tolerance(ScalarType t) {
  return t == kBFloat16 ? 1e-2 : t == kFloat16 ? 2e-3 : t == kFloat32 ? 2e-5 : 1e-12;
}

// Integer, bool and index results equal; floating ones close, with NaN and infinities where
// the CPU has them.
void expect_matches(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  ASSERT_EQ(got.scalar_type(), want.scalar_type()) << what;
  if (!is_floating(want.scalar_type())) {
    EXPECT_TRUE(equal(got, want)) << what << "\nemulated " << got << "\ncpu " << want;
    return;
  }
  const std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  double scale = 1;
  for (double v : w)
    if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
  const double tol = tolerance(want.scalar_type());
  for (size_t i = 0; i < w.size(); ++i) {
    if (std::isnan(w[i]) || std::isinf(w[i])) {
      EXPECT_TRUE(std::isnan(w[i]) ? std::isnan(g[i]) : g[i] == w[i])
          << what << " at " << i << ": emulated " << g[i] << ", cpu " << w[i];
    } else {
      EXPECT_NEAR(g[i], w[i], tol * (std::abs(w[i]) + scale)) << what << " at " << i;
    }
  }
}

struct Geometry {
  const char* name;
  std::vector<int64_t> shape;
  std::vector<int64_t> dims;  // empty: all
  enum Layout { kContiguous, kTransposed, kExpanded } layout = kContiguous;
};

// Sizes off whole warps and blocks; splits appear for the long ones.
const std::vector<Geometry> kGeometries = {
    {"full 1-D", {50000}, {}},
    {"full 3-D", {6, 7, 9}, {}},
    {"inner", {37, 300}, {1}},
    {"short inner", {300, 5}, {1}},
    {"long inner", {3, 2000}, {-1}},
    {"outer", {300, 37}, {0}},
    {"long outer", {3000, 5}, {0}},
    {"several dims", {6, 7, 8}, {0, 2}},
    {"merged kept dims", {4, 5, 6, 33}, {3}},
    {"merged reduced dims", {5, 6, 70}, {1, 2}},
    {"transposed", {40, 33}, {1}, Geometry::kTransposed},
    {"broadcast", {20, 50}, {0}, Geometry::kExpanded},
    {"empty reduced", {4, 0}, {1}},
    {"empty kept", {0, 4}, {1}},
    {"0-dim", {}, {}},
};

// Values that exercise each op: ties for the extrema (small integers, in floats too), factors
// near one for products, signed values otherwise.
Tensor sample(const Geometry& g, ScalarType dtype, ReduceKind kind) {
  std::vector<int64_t> shape = g.shape;
  if (g.layout == Geometry::kTransposed) std::swap(shape[0], shape[1]);
  if (g.layout == Geometry::kExpanded) shape[0] = 1;
  Tensor x;
  const bool extremum = kind == ReduceKind::Max || kind == ReduceKind::Min ||
                        kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin;
  if (dtype == kBool) x = randint(0, 2, shape).to(kBool);
  else if (kind == ReduceKind::Prod && !is_floating(dtype))
    x = sub(mul(randint(0, 2, shape), 2), 1);
  else if (kind == ReduceKind::Prod) x = add(mul(randn(shape), 0.05), 1);
  else if (extremum || !is_floating(dtype)) x = randint(dtype == kUInt8 ? 0 : -20, 20, shape);
  else x = mul(randn(shape), 10);
  x = x.to(dtype);
  if (g.layout == Geometry::kTransposed) x = x.transpose(0, 1);
  if (g.layout == Geometry::kExpanded) x = x.expand(g.shape);
  return x;
}

struct KindCase {
  const char* name;
  ReduceKind kind;
  ReduceParams params;
  // The CPU's result through the public op: {values} or {values, indices} or {indices}.
  std::function<std::vector<Tensor>(const Tensor&, const std::vector<int64_t>&)> cpu;
  bool single_dim = false;  // the public op takes one dim (or all)
};

ReduceParams norm_p(double p) {
  ReduceParams params;
  params.norm_p = p;
  return params;
}
ReduceParams correction(double c) {
  ReduceParams params;
  params.correction = c;
  return params;
}

std::vector<KindCase> kind_cases() {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  using Dims = std::vector<int64_t>;
  auto values = [](Tensor t) { return std::vector<Tensor>{t}; };
  std::vector<KindCase> cases = {
      {"sum",
       ReduceKind::Sum,
       {},
       [=](const Tensor& x, const Dims& d) { return values(sum(x, d)); }},
      {"mean",
       ReduceKind::Mean,
       {},
       [=](const Tensor& x, const Dims& d) { return values(mean(x, d)); }},
      {"prod",
       ReduceKind::Prod,
       {},
       [=](const Tensor& x, const Dims& d) { return values(d.empty() ? prod(x) : prod(x, d[0])); },
       true},
      {"amax",
       ReduceKind::Max,
       {},
       [=](const Tensor& x, const Dims& d) { return values(amax(x, d)); }},
      {"amin",
       ReduceKind::Min,
       {},
       [=](const Tensor& x, const Dims& d) { return values(amin(x, d)); }},
      {"max along a dim",
       ReduceKind::ArgMax,
       {},
       [=](const Tensor& x, const Dims& d) {
         auto [v, i] = d.empty() ? max(x.reshape({-1}), 0) : max(x, d[0]);
         return std::vector<Tensor>{v, i};
       },
       true},
      {"min along a dim",
       ReduceKind::ArgMin,
       {},
       [=](const Tensor& x, const Dims& d) {
         auto [v, i] = d.empty() ? min(x.reshape({-1}), 0) : min(x, d[0]);
         return std::vector<Tensor>{v, i};
       },
       true},
      {"any",
       ReduceKind::Any,
       {},
       [=](const Tensor& x, const Dims& d) { return values(d.empty() ? any(x) : any(x, d[0])); },
       true},
      {"all",
       ReduceKind::All,
       {},
       [=](const Tensor& x, const Dims& d) { return values(d.empty() ? all(x) : all(x, d[0])); },
       true},
      {"var", ReduceKind::Var, correction(1),
       [=](const Tensor& x, const Dims& d) { return values(var(x, d, 1)); }},
      {"std, correction 0", ReduceKind::Std, correction(0),
       [=](const Tensor& x, const Dims& d) { return values(std(x, d, 0)); }},
      {"logsumexp",
       ReduceKind::LogSumExp,
       {},
       [=](const Tensor& x, const Dims& d) { return values(logsumexp(x, d)); }},
  };
  for (double p : {0.0, 1.0, 2.0, 3.0, kInf, -kInf})
    cases.push_back({"norm", ReduceKind::Norm, norm_p(p),
                     [=](const Tensor& x, const Dims& d) { return values(norm(x, p, d)); }});
  return cases;
}

// The storage type the kernel writes for `kind` (the front half converts any/all of uint8).
ScalarType values_dtype(ReduceKind kind, ScalarType input) {
  if (kind == ReduceKind::Any || kind == ReduceKind::All) return kBool;
  if ((kind == ReduceKind::Sum || kind == ReduceKind::Prod) && !is_floating(input)) return kInt64;
  return input;
}

const std::vector<ScalarType> kAllDTypes = {kBool,  kUInt8,   kInt8,     kInt16,   kInt32,
                                            kInt64, kFloat16, kBFloat16, kFloat32, kFloat64};

// Runs `c` through the emulated kernel on x and compares with the CPU; returns false when the
// CPU refuses the op (a dtype or an empty reduction it rejects).
bool check_kind(const KindCase& c, const Tensor& x, const std::vector<int64_t>& dims, int sm_count,
                std::vector<cuda::ReducePlan>* plans, const std::string& what) {
  std::vector<Tensor> want;
  try {
    want = c.cpu(x, dims);
  } catch (const Error&) {
    return false;
  }
  // logsumexp's front half hands integers to the kernel as float.
  const Tensor in =
      c.kind == ReduceKind::LogSumExp && !is_floating(x.scalar_type()) ? x.to(kFloat32) : x;
  const bool with_indices = c.kind == ReduceKind::ArgMax || c.kind == ReduceKind::ArgMin;
  Tensor values = empty(want[0].sizes(), values_dtype(c.kind, in.scalar_type()));
  Tensor indices = with_indices ? empty(want[0].sizes(), kInt64) : Tensor();
  const ReduceIter it = reduce_iter_for(in, dims, values, indices);
  kernels::dispatch_reduce(it, c.kind, c.params, EmulatedReduceLoop{sm_count, plans});
  expect_matches(values.to(want[0].scalar_type()), want[0], what + " values");
  if (with_indices) expect_matches(indices, want[1], what + " indices");
  return true;
}

TEST(ReduceEmulated, EveryKindDtypeAndGeometry) {
  manual_seed(7);
  std::vector<cuda::ReducePlan> plans;
  int checked = 0;
  for (const KindCase& c : kind_cases())
    for (ScalarType dtype : kAllDTypes)
      for (const Geometry& g : kGeometries) {
        if (c.single_dim && g.dims.size() > 1) continue;
        const Tensor x = sample(g, dtype, c.kind);
        const std::string what = std::string(c.name) + " (p " + std::to_string(c.params.norm_p) +
                                 ") " + toString(dtype) + " " + g.name;
        checked += check_kind(c, x, g.dims, /*sm_count=*/132, &plans, what);
      }
  EXPECT_GT(checked, 700);
  // Every path of the plan ran: lanes along x within a warp, over several warps, along y, and
  // outputs split across blocks both ways.
  auto ran = [&](auto pred) { return std::any_of(plans.begin(), plans.end(), pred); };
  using Plan = cuda::ReducePlan;
  EXPECT_TRUE(ran([](const Plan& p) { return p.shape.along_x && p.shape.x < kWarpSize; }));
  EXPECT_TRUE(ran([](const Plan& p) { return p.shape.along_x && p.shape.x > kWarpSize; }));
  EXPECT_TRUE(ran([](const Plan& p) { return !p.shape.along_x && p.shape.y > 1; }));
  EXPECT_TRUE(ran([](const Plan& p) { return p.shape.along_x && p.splits > 1; }));
  EXPECT_TRUE(ran([](const Plan& p) { return !p.shape.along_x && p.splits > 1; }));
}

// NaN wins max/min and their indices (the first NaN), and makes sums and logsumexp NaN, however
// the elements are split between lanes, warps and blocks.
TEST(ReduceEmulated, NaNPropagation) {
  const std::vector<int64_t> kNaNAt = {3, 1200, 40000};
  for (ScalarType dtype : {kFloat32, kFloat16, kFloat64}) {
    Tensor x = randn({50000}).to(dtype);  // products of rows neither overflow nor depend on order
    for (int64_t at : kNaNAt) x.narrow(0, at, 1).fill_(std::nan(""));
    Tensor rows = x.reshape({50, 1000});
    std::vector<cuda::ReducePlan> plans;
    for (const KindCase& c : kind_cases()) {
      const std::string what = std::string(c.name) + " with NaN " + toString(dtype);
      check_kind(c, x, {}, 132, &plans, what + " full");
      check_kind(c, rows, {1}, 132, &plans, what + " rows");
      check_kind(c, rows, {0}, 132, &plans, what + " columns");
    }
  }
}

// argmax over everything: no values, only the flat index, with ties going to the first one.
TEST(ReduceEmulated, ArgExtremumIndicesOnly) {
  for (int sm_count : {1, 8, 132}) {
    Tensor x = randint(-3, 3, {9000}).to(kFloat32);
    std::vector<cuda::ReducePlan> plans;
    Tensor index = empty({}, kInt64);
    kernels::dispatch_reduce(reduce_iter_for(x, {}, Tensor(), index), ReduceKind::ArgMax, {},
                             EmulatedReduceLoop{sm_count, &plans});
    EXPECT_EQ(index.item<int64_t>(), argmax(x).item<int64_t>());
    EXPECT_EQ(x[index.item<int64_t>()].item<float>(), 2.0f);
    kernels::dispatch_reduce(reduce_iter_for(x, {}, Tensor(), index), ReduceKind::ArgMin, {},
                             EmulatedReduceLoop{sm_count, &plans});
    EXPECT_EQ(index.item<int64_t>(), argmin(x).item<int64_t>());
  }
}

// Small and large GPUs split differently; the results may differ only by rounding.
TEST(ReduceEmulated, SplitsFollowTheGpuSize) {
  Tensor x = randn({200000});
  std::vector<cuda::ReducePlan> plans;
  for (int sm_count : {1, 4, 132}) {
    const std::string what = "sum on " + std::to_string(sm_count) + " SMs";
    check_kind(kind_cases()[0], x, {}, sm_count, &plans, what);
  }
  ASSERT_EQ(plans.size(), 3u);
  EXPECT_EQ(plans[0].splits, 3);  // 3 blocks per SM
  EXPECT_EQ(plans[1].splits, 12);
  EXPECT_EQ(plans[2].splits, 25);  // capped by kReduceMinFold: 200000 / (512 * 16)
  // The one output's 25 partials: one block of 32 lanes folds them.
  EXPECT_EQ(plans[2].finish_blocks, 1);
  EXPECT_EQ(plans[2].finish_shape.lanes(), 32);
  EXPECT_EQ(plans[2].finish_shape.lines(), 1);
  for (const cuda::ReducePlan& p : plans)
    EXPECT_GE(p.splits * p.split_size, 200000) << "every element in some split";
}

TEST(ReduceEmulated, BlockShapes) {
  // One long line: the whole block on it; many short lines: a warp holds several.
  cuda::BlockShape one = cuda::block_shape(100000, 1, true);
  EXPECT_EQ(one.x, 512);
  EXPECT_EQ(one.y, 1);
  cuda::BlockShape many = cuda::block_shape(5, 10000, true);
  EXPECT_EQ(many.x, 8);
  EXPECT_EQ(many.y, 64);
  // Across lines: up to a warp of neighbouring lines, the rest along them.
  cuda::BlockShape columns = cuda::block_shape(3000, 1000, false);
  EXPECT_EQ(columns.x, 32);
  EXPECT_EQ(columns.y, 16);
  // Tiny work still launches a whole warp.
  cuda::BlockShape tiny = cuda::block_shape(3, 2, true);
  EXPECT_EQ(tiny.threads(), kWarpSize);
}

// The race check itself: a block program that reads a neighbour's shared slot without a barrier
// between the write and the read is caught; with the barrier it is not.
template <bool kSync>
struct NeighbourProgram {
  template <class B>
  void operator()(B& b) const {
    auto s = b.template shared<int>();
    auto v = b.template regs<int>();
    b.each([&](int t) { s[t] = t; });
    if (kSync) b.sync();
    b.each([&](int t) { v[t] = s[(t + 1) % kWarpSize]; });
  }
};

TEST(ReduceEmulated, RaceCheckCatchesAMissingBarrier) {
  HostBlock with(kWarpSize, kWarpSize * sizeof(int));
  NeighbourProgram<true>{}(with);
  EXPECT_EQ(with.races(), 0);
  HostBlock without(kWarpSize, kWarpSize * sizeof(int));
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    NeighbourProgram<false>{}(without);
  }
  EXPECT_GT(without.races(), 0);
  EXPECT_EQ(failures.size(), 1);
}

// ---------------------------------------------------------------- softmax and cumsum

struct LineCase {
  const char* name;
  std::vector<int64_t> shape;
  int64_t dim;
};
// Rows (inner == 1) and columns; short, warp-sized, multi-warp and long lines.
const std::vector<LineCase> kLineCases = {
    {"rows", {7, 300}, 1},         {"short rows", {100, 5}, 1},
    {"long row", {2, 5000}, 1},    {"columns", {300, 7}, 0},
    {"middle dim", {3, 70, 9}, 1}, {"short columns", {3, 200}, 0},
    {"one element", {1}, 0},       {"0-dim", {}, 0},
};

Tensor emulate_softmax(const Tensor& x, int64_t dim, bool log) {
  Tensor out = empty(x.sizes(), x.scalar_type());
  if (x.numel() == 0) return out;
  kernels::dispatch_floating(x.scalar_type(), "test", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const cuda::Lines lines(x.sizes().data(), x.dim(), dim);
    const auto args = cuda::make_softmax_args(static_cast<const T*>(x.data_ptr()),
                                              static_cast<T*>(out.data_ptr()), lines, log);
    for (int64_t block = 0; block < cuda::softmax_blocks(args); ++block) {
      HostBlock b(args.shape.threads(), cuda::shared_bytes(args));
      cuda::softmax_block(b, args, block);
    }
  });
  return out;
}

TEST(SoftmaxEmulated, MatchesCpuOnEveryLineShape) {
  for (ScalarType dtype : {kFloat32, kFloat64, kFloat16, kBFloat16})
    for (const LineCase& c : kLineCases)
      for (bool log : {false, true}) {
        Tensor x = mul(randn(c.shape), 5).to(dtype);
        if (x.numel() > 10)
          x.view({-1}).narrow(0, 10, 1).fill_(-std::numeric_limits<double>::infinity());
        const std::string what =
            std::string(log ? "log_softmax " : "softmax ") + toString(dtype) + " " + c.name;
        const Tensor want = log ? log_softmax(x, c.dim) : softmax(x, c.dim);
        expect_matches(emulate_softmax(x.contiguous(), x.dim() == 0 ? 0 : c.dim, log), want, what);
      }
}

TEST(SoftmaxEmulated, NaNAndLargeValues) {
  Tensor x = tensor({{1000.0f, 1001.0f, 999.0f}, {1.0f, std::nanf(""), 2.0f}});
  expect_matches(emulate_softmax(x, 1, false), softmax(x, 1), "softmax of large values and NaN");
  expect_matches(emulate_softmax(x, 1, true), log_softmax(x, 1), "log_softmax");
  const std::vector<double> row = emulate_softmax(x, 1, false)[0].to_vector<double>();
  EXPECT_NEAR(row[1], 1 / (1 + std::exp(-1.0) + std::exp(-2.0)), 1e-6);  // by hand
}

enum class CumsumPath { kNone, kLines, kBlocks, kTiles };

// scan_cuda's launches, one block or thread after another; `out` may be `x` itself.
CumsumPath emulate_scan_into(const Tensor& x, const Tensor& out, int64_t dim, int sm_count,
                             kernels::ScanKind kind = kernels::ScanKind::Sum) {
  if (x.numel() == 0) return CumsumPath::kNone;
  CumsumPath path = CumsumPath::kNone;
  kernels::dispatch_dtype(x.scalar_type(), "test", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = kernels::scan_acc_t<T>;
    kernels::with_scan_op<Acc>(kind, [&](auto functor) {
      using Op = decltype(functor);
      const cuda::Lines lines(x.sizes().data(), x.dim(), dim);
      auto args = cuda::make_scan_args(static_cast<const T*>(x.data_ptr()),
                                       static_cast<T*>(out.data_ptr()), lines, sm_count);
      if (!args.block_scan) {
        for (int64_t line = 0; line < lines.count(); ++line) cuda::scan_line<Op>(args, line);
        path = CumsumPath::kLines;
        return;
      }
      Tensor totals;
      if (args.tiles > 1) {
        totals = empty({lines.count(), args.tiles}, CppTypeToScalarType<Acc>::value);
        args.totals = static_cast<Acc*>(totals.data_ptr());
        for (int64_t block = 0; block < args.blocks(); ++block) {
          HostBlock b(args.threads, cuda::shared_bytes(args));
          cuda::scan_tile_total<Op>(b, args, block);
        }
        emulate_scan_into(totals, totals, 1, sm_count, kind);
      }
      for (int64_t block = 0; block < args.blocks(); ++block) {
        HostBlock b(args.threads, cuda::shared_bytes(args));
        cuda::scan_block<Op>(b, args, block);
      }
      path = args.tiles > 1 ? CumsumPath::kTiles : CumsumPath::kBlocks;
    });
  });
  return path;
}

Tensor emulate_cumsum(const Tensor& x, int64_t dim, int sm_count, CumsumPath* path) {
  Tensor out = empty(x.sizes(), x.scalar_type());
  *path = emulate_scan_into(x, out, dim, sm_count);
  return out;
}

TEST(CumsumEmulated, MatchesCpuOnBothPaths) {
  const std::vector<LineCase> cases = {
      {"long rows", {3, 5000}, 1},  // block scan, several chunks of a 512-thread block
      {"rows", {40, 100}, 1},       // block scan, one warp
      {"short rows", {100, 9}, 1},  // a thread per line
      {"columns", {2000, 3}, 0},    // few lines: block scan with a stride
      {"middle dim", {4, 50, 6}, 1}, {"0-dim", {}, 0}, {"empty", {0, 4}, 1},
  };
  int block_scans = 0, line_scans = 0;
  for (ScalarType dtype : {kInt64, kInt32, kUInt8, kFloat32, kFloat64, kFloat16, kBFloat16})
    for (const LineCase& c : cases) {
      Tensor x = (is_floating(dtype) ? randn(c.shape) : randint(0, 5, c.shape)).to(dtype);
      const std::string what = std::string("cumsum ") + toString(dtype) + " " + c.name;
      CumsumPath path = CumsumPath::kNone;
      Tensor got = emulate_cumsum(x, x.dim() == 0 ? 0 : c.dim, 132, &path);
      expect_matches(got, cumsum(x, c.dim, dtype), what);  // dtype: the kernel's own type
      block_scans += path == CumsumPath::kBlocks;
      line_scans += path == CumsumPath::kLines;
    }
  EXPECT_GT(block_scans, 0);
  EXPECT_GT(line_scans, 0);
}

// 512 lines fill a 1-SM GPU: more lines get a thread each, fewer get a block each.
TEST(CumsumEmulated, ManyLinesScanOneLinePerThread) {
  CumsumPath path = CumsumPath::kNone;
  Tensor many = randint(0, 100, {100, 600});
  expect_matches(emulate_cumsum(many, 0, 1, &path), cumsum(many, 0), "cumsum, 600 lines");
  EXPECT_EQ(path, CumsumPath::kLines);
  Tensor few = randint(0, 100, {100, 300});
  expect_matches(emulate_cumsum(few, 0, 1, &path), cumsum(few, 0), "cumsum, 300 lines");
  EXPECT_EQ(path, CumsumPath::kBlocks);
  // By hand: 0 + 1 + ... + 99, through a block scan.
  Tensor ramp = arange(100, kInt64);
  EXPECT_EQ(emulate_cumsum(ramp, 0, 1, &path)[99].item<int64_t>(), 4950);
  EXPECT_EQ(path, CumsumPath::kBlocks);
}

// Fewer lines than a 1-SM GPU runs blocks at once (4), longer than a tile: three launches, the
// totals scanned in place by the cumsum itself. Rows and strided columns; a last tile that is
// short and one that is full.
TEST(CumsumEmulated, FewLongLinesSplitIntoTiles) {
  const int64_t tile = cuda::kScanTile;
  const std::vector<LineCase> cases = {
      {"two long rows", {2, 3 * tile + 77}, 1},
      {"one row of whole tiles", {4 * tile}, 0},
      {"three long columns", {2 * tile + 5, 3}, 0},
  };
  for (ScalarType dtype : {kInt64, kInt32, kFloat32, kFloat64, kBFloat16})
    for (const LineCase& c : cases) {
      Tensor x = (is_floating(dtype) ? randn(c.shape) : randint(-50, 50, c.shape)).to(dtype);
      CumsumPath path = CumsumPath::kNone;
      Tensor got = emulate_cumsum(x, c.dim, 1, &path);
      expect_matches(got, cumsum(x, c.dim, dtype),
                     std::string("cumsum ") + toString(dtype) + " " + c.name);
      EXPECT_EQ(path, CumsumPath::kTiles) << c.name;
    }
  // By hand: 0 + 1 + ... + (n - 1) at the end of each tile and of the line.
  const int64_t n = 3 * tile + 77;
  CumsumPath path = CumsumPath::kNone;
  const Tensor ramp = emulate_cumsum(arange(n, kInt64), 0, 1, &path);
  EXPECT_EQ(path, CumsumPath::kTiles);
  for (int64_t end : {tile, 2 * tile, 3 * tile, n})
    EXPECT_EQ(ramp[end - 1].item<int64_t>(), end * (end - 1) / 2) << "after " << end;
  // In place, as the launcher scans the totals.
  Tensor ones_in_place = ones({2 * tile + 1}, kInt64);
  EXPECT_EQ(emulate_scan_into(ones_in_place, ones_in_place, 0, 1), CumsumPath::kTiles);
  EXPECT_EQ(ones_in_place[2 * tile].item<int64_t>(), 2 * tile + 1);
  EXPECT_EQ(ones_in_place[tile].item<int64_t>(), tile + 1);
  // Enough lines to fill the GPU keep one block per line.
  Tensor four = randint(0, 9, {4, tile + 1});
  expect_matches(emulate_cumsum(four, 1, 1, &path), cumsum(four, 1), "cumsum, four long rows");
  EXPECT_EQ(path, CumsumPath::kBlocks);
}

// cumprod runs the same programs with ProdOp: each path against the CPU, on values near 1 so
// that long products stay finite.
TEST(CumprodEmulated, MatchesCpuOnEveryPath) {
  const int64_t tile = cuda::kScanTile;
  const std::vector<LineCase> cases = {
      {"short rows", {100, 9}, 1},
      {"rows", {40, 100}, 1},
      {"two long rows", {2, 2 * tile + 77}, 1},
  };
  int paths[4] = {};
  for (ScalarType dtype : {kInt64, kFloat32, kFloat64})
    for (const LineCase& c : cases) {
      Tensor x = is_floating(dtype) ? (1 + 0.001 * randn(c.shape)).to(dtype)
                                    : randint(-1, 2, c.shape).to(dtype);  // -1, 0, 1
      Tensor out = empty(x.sizes(), dtype);
      paths[static_cast<int>(emulate_scan_into(x, out, c.dim, 1, kernels::ScanKind::Prod))]++;
      expect_matches(out, cumprod(x, c.dim, dtype),
                     std::string("cumprod ") + toString(dtype) + " " + c.name);
    }
  EXPECT_GT(paths[static_cast<int>(CumsumPath::kLines)], 0);
  EXPECT_GT(paths[static_cast<int>(CumsumPath::kBlocks)], 0);
  EXPECT_GT(paths[static_cast<int>(CumsumPath::kTiles)], 0);
  // By hand: 1 * 2 * 3 * 4.
  Tensor out = empty({4}, kInt64);
  emulate_scan_into(tensor({1, 2, 3, 4}), out, 0, 1, kernels::ScanKind::Prod);
  EXPECT_EQ(out.to_vector<int64_t>(), (std::vector<int64_t>{1, 2, 6, 24}));
}

}  // namespace
}  // namespace ember
