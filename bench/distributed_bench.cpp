// ember-dist-bench: ember::distributed against raw Gloo, and a DistributedDataParallel step
// against the same step alone, on the ranks ember-run starts on this machine:
//   ember-run --nproc 2 --master-port 0 build/bench/ember-dist-bench
// Each rank uses one thread. Rank 0 prints RESULT lines (medians, in ms) and a timeline of one
// DDP step: when each bucket's all-reduce was issued, against when the last gradient arrived.
//
// - all_reduce of float32 at 1 MiB and 64 MiB: ember's dist::all_reduce and gloo::allreduce on
//   a context of its own (Gloo's FileStore rendezvous), alternating, so both see the same load.
// - DDP: an MLP (512-1024-1024-10, 6.3 MB of gradients) at 64 rows per rank; the plain step on
//   every rank at once, the DDP step (copying gradients, and with gradient_as_bucket_view), and
//   an all-reduce of the gradients' bytes. The target: DDP step <= plain step + 1.2 x
//   that all-reduce.
#include <gloo/allreduce.h>
#include <gloo/math.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ember/autograd/engine.h"
#include "ember/ember.h"
#include "ember/nn/parallel/distributed.h"

namespace dist = ember::distributed;
namespace nn = ember::nn;
using Clock = std::chrono::steady_clock;
using ember::Tensor;

namespace {

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Times `fn` `reps` times after 3 warm-up calls, every rank starting each call together.
double time_ms(int reps, const std::function<void()>& fn) {
  for (int i = 0; i < 3; ++i) fn();
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    dist::barrier();
    const Clock::time_point start = Clock::now();
    fn();
    times.push_back(ms_since(start));
  }
  return median(times);
}

// Gloo alone: its own TCP device and a FileStore rendezvous in `dir`.
std::shared_ptr<gloo::rendezvous::Context> raw_gloo(int rank, int world, const std::string& dir) {
  gloo::transport::tcp::attr attr;
  attr.hostname = "127.0.0.1";
  auto device = gloo::transport::tcp::CreateDevice(attr);
  gloo::rendezvous::FileStore files(dir);
  gloo::rendezvous::PrefixStore store("raw", files);
  auto context = std::make_shared<gloo::rendezvous::Context>(rank, world);
  context->connectFullMesh(store, device);
  return context;
}

// The default group, noting when each all-reduce is issued (the timeline of one DDP step).
class TimedGroup : public dist::ProcessGroup {
 public:
  explicit TimedGroup(ember::intrusive_ptr<dist::ProcessGroup> inner)
      : ProcessGroup(inner->getRank(), inner->getSize()), inner_(std::move(inner)) {}
  const std::string getBackendName() const override { return inner_->getBackendName(); }
  ember::intrusive_ptr<dist::Work> allreduce(std::vector<Tensor>& tensors,
                                             const dist::AllreduceOptions& opts) override {
    issued.push_back(Clock::now());
    return inner_->allreduce(tensors, opts);
  }
  ember::intrusive_ptr<dist::Work> broadcast(std::vector<Tensor>& tensors,
                                             const dist::BroadcastOptions& opts) override {
    return inner_->broadcast(tensors, opts);
  }
  ember::intrusive_ptr<dist::Work> allgather(std::vector<std::vector<Tensor>>& outputs,
                                             std::vector<Tensor>& inputs,
                                             const dist::AllgatherOptions& opts) override {
    return inner_->allgather(outputs, inputs, opts);
  }
  std::vector<Clock::time_point> issued;

 private:
  ember::intrusive_ptr<dist::ProcessGroup> inner_;
};

struct MlpImpl : nn::Module {
  MlpImpl()
      : fc1(register_module("fc1", nn::Linear(512, 1024))),
        fc2(register_module("fc2", nn::Linear(1024, 1024))),
        fc3(register_module("fc3", nn::Linear(1024, 10))) {}
  Tensor forward(Tensor x) { return fc3(ember::relu(fc2(ember::relu(fc1(x))))); }
  nn::Linear fc1, fc2, fc3;
};
EMBER_MODULE(Mlp);

}  // namespace

int main() {
  ember::set_num_threads(1);
  dist::init_process_group("gloo");
  const int rank = dist::get_rank(), world = dist::get_world_size();
  const char* port = std::getenv("MASTER_PORT");
  const std::string dir = std::string("/tmp/ember-dist-bench-") + (port ? port : "0");
  ::mkdir(dir.c_str(), 0700);
  auto context = raw_gloo(rank, world, dir);
  auto say = [rank](const std::string& line) {
    if (rank == 0) std::printf("%s\n", line.c_str());
  };
  say("ranks: " + std::to_string(world) + ", one thread each");

  for (const int64_t mib : {int64_t{1}, int64_t{64}}) {
    Tensor t = ember::ones({mib * 1024 * 1024 / 4});
    const int reps = mib == 1 ? 200 : 10;
    std::vector<double> ember_ms, raw_ms;
    for (int round = 0; round < 5; ++round) {
      ember_ms.push_back(time_ms(reps / 5, [&] { dist::all_reduce(t); }));
      raw_ms.push_back(time_ms(reps / 5, [&] {
        gloo::AllreduceOptions opts(context);
        opts.setOutput(t.data_ptr<float>(), static_cast<size_t>(t.numel()));
        opts.setReduceFunction(
            static_cast<void (*)(void*, const void*, const void*, size_t)>(&gloo::sum<float>));
        gloo::allreduce(opts);
      }));
    }
    const double e = median(ember_ms), r = median(raw_ms);
    char line[200];
    std::snprintf(line, sizeof line,
                  "RESULT allreduce_%lldMiB_ember_ms=%.3f raw_gloo_ms=%.3f ratio=%.3f "
                  "excess_ms=%.3f",
                  static_cast<long long>(mib), e, r, e / r, e - r);
    say(line);
  }

  // DDP: the plain step, the DDP step and the all-reduce of the gradients' bytes.
  ember::manual_seed(1);
  Tensor x = ember::randn({64, 512}), y = ember::randint(0, 10, {64});
  Mlp plain;
  ember::optim::SGD plain_step(plain->parameters(), ember::optim::SGDOptions(0.01));
  auto step_of = [&](auto& model, ember::optim::SGD& optimizer) {
    optimizer.zero_grad();
    ember::cross_entropy_loss(model(x), y).backward();
    optimizer.step();
  };
  auto group = std::make_shared<TimedGroup>(dist::default_group());
  Mlp wrapped, viewed;
  nn::parallel::DistributedDataParallel ddp(
      wrapped, nn::parallel::DistributedDataParallelOptions().process_group(group));
  nn::parallel::DistributedDataParallel ddp_views(
      viewed, nn::parallel::DistributedDataParallelOptions().gradient_as_bucket_view(true));
  ember::optim::SGD ddp_step(ddp->parameters(), ember::optim::SGDOptions(0.01));
  ember::optim::SGD views_step(ddp_views->parameters(), ember::optim::SGDOptions(0.01));
  int64_t gradient_elements = 0;
  for (const Tensor& p : wrapped->parameters()) gradient_elements += p.numel();
  Tensor gradients = ember::zeros({gradient_elements});
  std::vector<double> plain_ms, ddp_ms, views_ms, allreduce_ms;
  for (int round = 0; round < 5; ++round) {
    plain_ms.push_back(time_ms(4, [&] { step_of(plain, plain_step); }));
    ddp_ms.push_back(time_ms(4, [&] { step_of(ddp, ddp_step); }));
    views_ms.push_back(time_ms(4, [&] { step_of(ddp_views, views_step); }));
    allreduce_ms.push_back(time_ms(4, [&] { dist::all_reduce(gradients); }));
  }
  const double p = median(plain_ms), a = median(allreduce_ms);
  char line[300];
  std::snprintf(line, sizeof line,
                "RESULT plain_step_ms=%.3f allreduce_grads_ms=%.3f (%.1f MB) target_ms=%.3f "
                "(plain + 1.2 x all-reduce)",
                p, a, gradient_elements * 4 / 1e6, p + 1.2 * a);
  say(line);
  for (const auto& [name, ms] : {std::pair{"ddp_step_ms", median(ddp_ms)},
                                 std::pair{"ddp_step_bucket_views_ms", median(views_ms)}}) {
    std::snprintf(line, sizeof line, "RESULT %s=%.3f %s", name, ms,
                  ms <= p + 1.2 * a ? "met" : "missed");
    say(line);
  }

  // The timeline of one DDP step: each bucket's all-reduce against the last gradient's arrival
  // (fc1.weight's, the first parameter: backward reaches it last).
  Clock::time_point last_gradient;
  ember::autograd::register_post_accumulate_grad_hook(
      wrapped->fc1->weight, [&last_gradient](const Tensor&) { last_gradient = Clock::now(); });
  group->issued.clear();
  ddp_step.zero_grad();
  Tensor loss = ember::cross_entropy_loss(ddp(x), y);
  const Clock::time_point backward_start = Clock::now();
  loss.backward();
  const Clock::time_point backward_end = Clock::now();
  auto at = [backward_start](Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(t - backward_start).count();
  };
  say("timeline of one DDP backward (ms from its start):");
  for (size_t b = 0; b < group->issued.size(); ++b) {
    std::snprintf(line, sizeof line, "  bucket %zu all-reduce issued at %.3f", b,
                  at(group->issued[b]));
    say(line);
  }
  std::snprintf(line, sizeof line,
                "  last gradient accumulated at %.3f; backward() returned at %.3f\n"
                "RESULT ddp_overlap=%s (first bucket issued %.3f ms before the last gradient)",
                at(last_gradient), at(backward_end),
                !group->issued.empty() && group->issued[0] < last_gradient ? "yes" : "no",
                group->issued.empty() ? 0.0 : at(last_gradient) - at(group->issued[0]));
  say(line);
  dist::barrier();
  dist::destroy_process_group();
  return 0;
}
