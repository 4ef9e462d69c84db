// One rank of the DistributedDataParallel check: CTest starts it under ember-run with 2 and 3
// ranks (tests/distributed/CMakeLists.txt). Each rank trains on its share of every batch and
// compares the result with a plain copy of the model trained here, alone, on the whole batch:
// the averaged gradients must make them agree. It exits 1 after printing each mismatch.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "check_util.h"
#include "ember/ember.h"
#include "ember/nn/parallel/distributed.h"

namespace dist = ember::distributed;
namespace nn = ember::nn;
using ember::Tensor;

namespace {

using ember::check::error_of;

int failures = 0;
int rank = 0;
int world = 1;

void expect_close(const std::string& what, const Tensor& got, const Tensor& want) {
  if (!got.defined() || !want.defined()) {
    if (got.defined() != want.defined()) {
      ++failures;
      std::cerr << what << ": defined " << got.defined() << ", want " << want.defined() << '\n';
    }
    return;
  }
  const double error = (got - want).abs().max().item<double>();
  if (error <= 1e-5) return;
  ++failures;
  std::cerr << what << ": off by " << error << '\n';
}

void expect_equal(const std::string& what, const std::string& got, const std::string& want) {
  if (got == want) return;
  ++failures;
  std::cerr << what << ":\n  got  " << got << "\n  want " << want << '\n';
}

// Two layers and a branch (`extra`) that a forward may leave out; `shift` is a buffer.
struct NetImpl : nn::Module {
  NetImpl() {
    fc1 = register_module("fc1", nn::Linear(6, 16));
    fc2 = register_module("fc2", nn::Linear(16, 3));
    extra = register_module("extra", nn::Linear(16, 3));
    shift = register_buffer("shift", ember::randn({3}));
    tag = register_buffer("tag", ember::full({2}, rank, ember::kLong));  // another dtype
  }
  Tensor forward(Tensor x) {
    if (!use_layers) return x.narrow(1, 0, 3) * 2;  // no parameter at all
    Tensor h = ember::tanh(fc1(x));
    Tensor out = fc2(h) + shift;
    return use_extra ? out + extra(h) : out;
  }
  nn::Linear fc1{nullptr}, fc2{nullptr}, extra{nullptr};
  Tensor shift, tag;
  bool use_extra = true;
  bool use_layers = true;
};
EMBER_MODULE(Net);

// A plain model with `from`'s parameters and buffers.
Net copy_of(const Net& from) {
  Net copy;
  ember::NoGradGuard no_grad;
  auto params = copy->parameters(), source = from->parameters();
  for (size_t i = 0; i < params.size(); ++i) params[i].copy_(source[i]);
  auto buffers = copy->buffers(), source_buffers = from->buffers();
  for (size_t i = 0; i < buffers.size(); ++i) buffers[i].copy_(source_buffers[i]);
  return copy;
}

// This rank's rows of a batch of 12 (12 divides among 1 to 4 ranks).
Tensor share(const Tensor& batch) {
  const int64_t rows = batch.size(0) / world;
  return batch.narrow(0, rank * rows, rows);
}

// DDP at a 1/world share of each batch against one model on the whole batch, 5 SGD steps;
// then every rank's parameters are the same bits. With gradient_as_bucket_view the gradients
// are zeroed in place, so that backward accumulates straight into the buckets.
void trains_like_one_process(double bucket_cap_mb, int expected_buckets, bool as_view) {
  ember::manual_seed(static_cast<uint64_t>(rank) + 1);  // the ranks start apart
  Net net;
  nn::parallel::DistributedDataParallel ddp(net, nn::parallel::DistributedDataParallelOptions()
                                                     .bucket_cap_mb(bucket_cap_mb)
                                                     .gradient_as_bucket_view(as_view));
  std::ostringstream printed;
  ddp->pretty_print(printed);
  expect_equal("pretty_print", printed.str(),
               "torch::nn::parallel::DistributedDataParallel(world_size=" + std::to_string(world) +
                   ", buckets=" + std::to_string(expected_buckets) + ")");
  Net reference = copy_of(net);  // rank 0's start, broadcast
  ember::optim::SGD step(ddp->parameters(), ember::optim::SGDOptions(0.1));
  ember::optim::SGD reference_step(reference->parameters(), ember::optim::SGDOptions(0.1));
  ember::manual_seed(100);  // the same batches on every rank
  for (int i = 0; i < 5; ++i) {
    Tensor x = ember::randn({12, 6}), y = ember::randn({12, 3});
    step.zero_grad(/*set_to_none=*/!as_view);
    ember::mse_loss(ddp(share(x)), share(y)).backward();
    step.step();
    reference_step.zero_grad();
    ember::mse_loss(reference(x), y).backward();
    reference_step.step();
  }
  const std::string what =
      "cap " + std::to_string(bucket_cap_mb) + " MB" + (as_view ? ", as views: " : ": ");
  auto params = net->named_parameters();
  auto reference_params = reference->named_parameters();
  for (const auto& item : params)
    expect_close(what + item.key(), item.value(), reference_params[item.key()]);
  expect_close(what + "shift", net->shift, reference->shift);
  expect_equal(what + "rank 0's integer buffer", net->tag.str(), "tensor([0, 0])");

  std::vector<Tensor> flat_params;  // and the buffer, broadcast from rank 0 too
  for (const Tensor& p : net->parameters()) flat_params.push_back(p.detach().reshape({-1}));
  flat_params.push_back(net->shift);
  Tensor mine = ember::cat(flat_params);
  std::vector<Tensor> everyone;
  for (int r = 0; r < world; ++r) everyone.push_back(ember::empty_like(mine));
  dist::all_gather(everyone, mine);
  for (int r = 1; r < world; ++r)
    if (!everyone[r].equal(everyone[0])) {
      ++failures;
      std::cerr << what << "rank " << r << "'s parameters differ from rank 0's\n";
    }
}

// Gradients of micro-batches under no_sync() stay local and add up; the next synchronized
// backward averages the sum.
void no_sync_accumulates() {
  ember::manual_seed(7);
  Net net;
  nn::parallel::DistributedDataParallel ddp(net);
  Net reference = copy_of(net);
  ember::manual_seed(200);
  Tensor x0 = ember::randn({12, 6}), y0 = ember::randn({12, 3});
  Tensor x1 = ember::randn({12, 6}), y1 = ember::randn({12, 3});
  {
    auto no_sync = ddp->no_sync();
    ember::mse_loss(ddp(share(x0)), share(y0)).backward();
  }
  ember::mse_loss(reference(share(x0)), share(y0)).backward();  // this rank's alone
  for (const auto& item : net->named_parameters())
    expect_close("no_sync, local: " + item.key(), item.value().grad(),
                 reference->named_parameters()[item.key()].grad());
  ember::mse_loss(ddp(share(x1)), share(y1)).backward();
  reference->zero_grad();
  ember::mse_loss(reference(x0), y0).backward();
  ember::mse_loss(reference(x1), y1).backward();
  for (const auto& item : net->named_parameters())
    expect_close("no_sync, then synchronized: " + item.key(), item.value().grad(),
                 reference->named_parameters()[item.key()].grad());
}

// A branch used on rank 0 only: an error naming its parameters on every rank, or, with
// find_unused_parameters, rank 0's gradient averaged with the others' zeros.
void unused_parameters() {
  ember::manual_seed(9);
  Tensor x = ember::randn({12, 6}), y = ember::randn({12, 3});
  {
    Net net;
    net->use_extra = rank == 0;
    nn::parallel::DistributedDataParallel ddp(net);
    const std::string others = world == 1 ? "" : ", this one included";
    const std::string on_this_rank = rank == 0 ? "" : ", this one included";
    const std::string ranks = std::to_string(world - 1) + " of " + std::to_string(world) +
                              (world == 1 ? " rank" : " ranks");
    if (world > 1)
      expect_equal("unused on some ranks",
                   error_of([&] { ember::mse_loss(ddp(share(x)), share(y)).backward(); }),
                   "[DistributedDataParallel] parameters that received no gradient in this "
                   "backward pass: extra.weight (on " +
                       ranks + on_this_rank + "), extra.bias (on " + ranks + on_this_rank +
                       "). Every parameter that requires grad must take part in the loss on "
                       "every rank: use it, freeze it with requires_grad_(false) before wrapping "
                       "the module, or pass "
                       "DistributedDataParallelOptions().find_unused_parameters(true)");
  }
  Net net;
  net->use_extra = rank == 0;
  nn::parallel::DistributedDataParallel ddp(
      net, nn::parallel::DistributedDataParallelOptions().find_unused_parameters(true));
  Net reference = copy_of(net);
  ember::mse_loss(ddp(share(x)), share(y)).backward();
  const int64_t rows = 12 / world;
  for (int r = 0; r < world; ++r) {  // every rank's loss, as that rank computed it
    reference->use_extra = r == 0;
    (ember::mse_loss(reference(x.narrow(0, r * rows, rows)), y.narrow(0, r * rows, rows)) / world)
        .backward();
  }
  for (const auto& item : net->named_parameters())
    expect_close("find_unused_parameters: " + item.key(), item.value().grad(),
                 reference->named_parameters()[item.key()].grad());

  // Rank 1's loss reaches no parameter, only its input: it still joins every bucket's all-reduce.
  if (world > 1) {
    Net skipping;
    skipping->use_layers = rank != 1;
    nn::parallel::DistributedDataParallel ddp_skipping(
        skipping, nn::parallel::DistributedDataParallelOptions().find_unused_parameters(true));
    Net plain = copy_of(skipping);
    ember::mse_loss(ddp_skipping(share(x).clone().requires_grad_(true)), share(y)).backward();
    for (int r = 0; r < world; ++r) {
      if (r == 1) continue;
      (ember::mse_loss(plain(x.narrow(0, r * rows, rows)), y.narrow(0, r * rows, rows)) / world)
          .backward();
    }
    for (const auto& item : skipping->named_parameters())
      expect_close("a rank without parameters in its loss: " + item.key(), item.value().grad(),
                   plain->named_parameters()[item.key()].grad());
  }

  // Unused on every rank: its .grad is left alone (undefined here).
  net->use_extra = false;
  net->zero_grad();
  ember::mse_loss(ddp(share(x)), share(y)).backward();
  expect_equal("unused everywhere keeps no grad",
               net->extra->weight.grad().defined() ? "defined" : "undefined", "undefined");
}

// Rank 1 wraps a wider layer: every rank says which parameter differs, and where.
void different_modules() {
  if (world == 1) return;
  nn::Linear layer(4, rank == 1 ? 5 : 3);
  expect_equal("different modules",
               error_of([&] { nn::parallel::DistributedDataParallel ddp(layer); }),
               "[DistributedDataParallel] the ranks wrap different modules; parameter 0 is "
               "'weight Float[5, 4]' on rank 1 but 'weight Float[3, 4]' on rank 0. Every "
               "rank must wrap a module with the same parameters, in the same order, with the "
               "same dtypes and shapes");
}

// Rank 1 asks for smaller buckets: the layouts are compared before any backward pass, where
// buckets of different sizes would make Gloo abort the process.
void different_buckets() {
  if (world == 1) return;
  nn::Linear layer(4, 3);
  expect_equal("different buckets", error_of([&] {
                 nn::parallel::DistributedDataParallel ddp(
                     layer, nn::parallel::DistributedDataParallelOptions().bucket_cap_mb(
                                rank == 1 ? 0.00001 : 25));
               }),
               "[DistributedDataParallel] the ranks' gradient buckets differ; bucket 0 is "
               "'Float[3] on cpu: bias' on rank 1 but 'Float[15] on cpu: bias, weight' on rank 0. "
               "Every rank must pass the same bucket_cap_mb");
}

}  // namespace

int main() {
  dist::init_process_group("gloo", "env://", std::chrono::seconds(30));
  rank = dist::get_rank();
  world = dist::get_world_size();
  trains_like_one_process(25, 1, false);
  trains_like_one_process(0.0002, 3, false);  // about 200 bytes: three buckets (reducer.h)
  trains_like_one_process(0.0002, 3, true);
  no_sync_accumulates();
  unused_parameters();
  different_modules();
  different_buckets();
  dist::barrier();
  dist::destroy_process_group();
  return failures == 0 ? 0 : 1;
}
