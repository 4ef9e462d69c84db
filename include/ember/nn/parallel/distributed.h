// nn::parallel::DistributedDataParallel: one model trained by several processes, each on its
// share of every batch (PyTorch's torch.nn.parallel.DistributedDataParallel; LibTorch has no C++
// one). Wrapping a module broadcasts rank 0's parameters and buffers to every rank, after checking
// that every rank wraps a module of the same parameter names, dtypes and shapes. Each backward
// pass then averages the gradients over the ranks while it runs: gradients are copied into
// buckets (the last parameters' first, as backward reaches them first; 1 MiB for the first
// bucket, so communication starts early, then bucket_cap_mb), and a bucket is all-reduced on the
// process group's thread as soon as its parameters' gradients are final. When the pass ends the
// averages are copied back into each parameter's .grad, so optimizer steps agree on every rank.
#pragma once

#include <memory>
#include <ostream>
#include <type_traits>
#include <utility>

#include "ember/arg.h"
#include "ember/distributed/process_group.h"
#include "ember/intrusive_ptr.h"
#include "ember/macros.h"
#include "ember/nn/any_module.h"
#include "ember/nn/module.h"
#include "ember/nn/sequential.h"

namespace ember::distributed {
class Reducer;  // src/distributed/reducer.h
}  // namespace ember::distributed

namespace ember::nn::parallel {

struct EMBER_API DistributedDataParallelOptions {
  // The ranks that train together (nullptr: the default group of init_process_group).
  EMBER_ARG(intrusive_ptr<distributed::ProcessGroup>, process_group) = nullptr;
  // The size of each bucket after the first (which holds up to 1 MiB, or this if smaller).
  EMBER_ARG(double, bucket_cap_mb) = 25;
  // Whether each forward first copies rank 0's buffers (BatchNorm's running statistics) to
  // every rank.
  EMBER_ARG(bool, broadcast_buffers) = true;
  // Whether a parameter that gets no gradient in a backward pass, on some rank or all, is
  // allowed. Without it that is an error that names the parameter, on every rank. With it the
  // parameter counts as zero on the ranks that did not use it, and its .grad is left alone where
  // no rank used it. Buckets holding such a parameter are all-reduced when the pass ends.
  EMBER_ARG(bool, find_unused_parameters) = false;
  // Whether each .grad becomes a view of its bucket once averaged, saving two copies of every
  // gradient per step; zero_grad(false) then keeps it one, so backward accumulates straight into
  // the bucket. A .grad then changes whenever its bucket does (PyTorch's option of this name).
  EMBER_ARG(bool, gradient_as_bucket_view) = false;
};

class EMBER_API DistributedDataParallelImpl : public Module {
 public:
  template <class M>
  explicit DistributedDataParallelImpl(const ModuleHolder<M>& module,
                                       DistributedDataParallelOptions options = {})
      : DistributedDataParallelImpl(module.ptr(), std::move(options)) {}
  template <class M>
  explicit DistributedDataParallelImpl(std::shared_ptr<M> module,
                                       DistributedDataParallelOptions options = {})
      : DistributedDataParallelImpl(std::static_pointer_cast<Module>(module), std::move(options)) {
    // Sequential's forward is a template, which AnyModule cannot hold: it is called as itself.
    if constexpr (std::is_base_of_v<SequentialImpl, M>) sequential_ = std::move(module);
    else forward_ = AnyModule(std::move(module));
  }
  ~DistributedDataParallelImpl() override;

  // The wrapped module's forward, after the buffers' broadcast; the backward pass that follows
  // averages the gradients unless a no_sync() guard lives.
  template <class ReturnType = Tensor, class... ArgumentTypes>
  ReturnType forward(ArgumentTypes&&... arguments) {
    before_forward();
    ReturnType output =
        sequential_
            ? sequential_->template forward<ReturnType>(std::forward<ArgumentTypes>(arguments)...)
            : forward_.template forward<ReturnType>(std::forward<ArgumentTypes>(arguments)...);
    if constexpr (std::is_same_v<ReturnType, Tensor>) output = after_forward(std::move(output));
    return output;
  }

  // The wrapped module (PyTorch's ddp.module); registered as the child "module", so state_dict
  // keys start with "module.", as PyTorch's do.
  const std::shared_ptr<Module>& module() const { return module_; }

  // While one lives, forwards are not followed by gradient averaging: backward passes
  // accumulate into .grad locally, and the first synchronized backward after the guard averages
  // the sum (PyTorch's no_sync(), for gradient accumulation).
  class EMBER_API NoSyncGuard {
   public:
    NoSyncGuard(const NoSyncGuard&) = delete;
    NoSyncGuard& operator=(const NoSyncGuard&) = delete;
    ~NoSyncGuard();

   private:
    friend class DistributedDataParallelImpl;
    explicit NoSyncGuard(DistributedDataParallelImpl& ddp);
    DistributedDataParallelImpl& ddp_;
    bool previous_;
  };
  [[nodiscard]] NoSyncGuard no_sync();

  void pretty_print(std::ostream& stream) const override;

  DistributedDataParallelOptions options;

 private:
  DistributedDataParallelImpl(std::shared_ptr<Module> module,
                              DistributedDataParallelOptions options);
  void before_forward();
  Tensor after_forward(Tensor output);

  AnyModule forward_;  // the wrapped module, when it is not a Sequential
  std::shared_ptr<SequentialImpl> sequential_;
  std::shared_ptr<Module> module_;
  std::shared_ptr<distributed::Reducer> reducer_;
  bool require_backward_grad_sync_ = true;
};

EMBER_MODULE(DistributedDataParallel);

}  // namespace ember::nn::parallel
