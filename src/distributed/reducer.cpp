// DistributedDataParallel's gradient buckets (Note [Gradient buckets] in reducer.h).
#include "distributed/reducer.h"

#include <exception>
#include <map>
#include <set>
#include <utility>

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/autograd/engine.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"
#include "ember/string_util.h"

namespace ember::distributed {
namespace {

// Whether `grad` is the bucket slot `slot` (gradient_as_bucket_view), so nothing needs copying.
bool is_view_of(const Tensor& grad, const Tensor& slot) {
  return grad.defined() && grad.data_ptr() == slot.data_ptr() && grad.strides() == slot.strides();
}

}  // namespace

std::shared_ptr<Reducer> Reducer::create(std::vector<Parameter> parameters,
                                         intrusive_ptr<ProcessGroup> group,
                                         std::size_t first_bucket_bytes, std::size_t bucket_bytes,
                                         bool find_unused_parameters,
                                         bool gradient_as_bucket_view) {
  std::shared_ptr<Reducer> reducer(new Reducer(std::move(parameters), std::move(group),
                                               find_unused_parameters, gradient_as_bucket_view));
  reducer->assign_buckets(first_bucket_bytes, bucket_bytes);
  reducer->install_hooks();
  return reducer;
}

Reducer::Reducer(std::vector<Parameter> parameters, intrusive_ptr<ProcessGroup> group,
                 bool find_unused_parameters, bool gradient_as_bucket_view)
    : parameters_(std::move(parameters)),
      group_(std::move(group)),
      find_unused_parameters_(find_unused_parameters),
      gradient_as_bucket_view_(gradient_as_bucket_view),
      arrived_(parameters_.size(), false) {}

Reducer::~Reducer() {
  for (std::size_t i = 0; i < hook_handles_.size(); ++i)
    autograd::remove_post_accumulate_grad_hook(parameters_[i].tensor, hook_handles_[i]);
}

void Reducer::assign_buckets(std::size_t first_bucket_bytes, std::size_t bucket_bytes) {
  bucket_of_.assign(parameters_.size(), 0);
  position_in_.assign(parameters_.size(), 0);
  // Per dtype and device: the bucket being filled and its bytes so far; and the keys whose first
  // bucket has closed.
  std::map<std::pair<ScalarType, std::string>, std::pair<std::size_t, std::size_t>> open;
  std::set<std::pair<ScalarType, std::string>> past_first;
  for (std::size_t i = parameters_.size(); i-- > 0;) {
    const Tensor& t = parameters_[i].tensor;
    const auto key = std::make_pair(t.scalar_type(), t.device().str());
    auto found = open.find(key);
    if (found == open.end()) {
      found = open.emplace(key, std::make_pair(buckets_.size(), std::size_t{0})).first;
      buckets_.emplace_back();
    }
    auto& [bucket, bytes] = found->second;
    bucket_of_[i] = bucket;
    position_in_[i] = buckets_[bucket].members.size();
    buckets_[bucket].members.push_back(i);
    bytes += static_cast<std::size_t>(t.numel()) * t.element_size();
    if (bytes >= (past_first.count(key) ? bucket_bytes : first_bucket_bytes)) {
      past_first.insert(key);
      open.erase(found);  // the next parameter of this dtype and device opens a new bucket
    }
  }

  for (Bucket& bucket : buckets_) {
    const Tensor& first = parameters_[bucket.members.front()].tensor;
    for (std::size_t member : bucket.members) {
      bucket.offsets.push_back(bucket.gradient_elements);
      bucket.gradient_elements += parameters_[member].tensor.numel();
    }
    bucket.flat = zeros({bucket.gradient_elements + static_cast<int64_t>(bucket.members.size())},
                        TensorOptions(first.scalar_type()).device(first.device()));
  }
}

std::vector<std::string> Reducer::bucket_layout() const {
  std::vector<std::string> lines;
  for (const Bucket& bucket : buckets_) {
    std::vector<std::string> names;
    for (std::size_t member : bucket.members) names.push_back(parameters_[member].name);
    // The device's type only: ranks may each use their own GPU.
    lines.push_back(str(bucket.flat.scalar_type(), "[", bucket.gradient_elements, "] on ",
                        Device(bucket.flat.device().type()), ": ", Join(", ", names)));
  }
  return lines;
}

void Reducer::install_hooks() {
  std::weak_ptr<Reducer> weak = weak_from_this();
  for (std::size_t i = 0; i < parameters_.size(); ++i)
    hook_handles_.push_back(autograd::register_post_accumulate_grad_hook(
        parameters_[i].tensor, [weak, i](const Tensor&) {
          if (std::shared_ptr<Reducer> reducer = weak.lock()) reducer->on_gradient(i);
        }));
}

Tensor Reducer::slot(std::size_t parameter) const {
  const Bucket& bucket = buckets_[bucket_of_[parameter]];
  const Tensor& t = parameters_[parameter].tensor;
  return bucket.flat.narrow(0, bucket.offsets[position_in_[parameter]], t.numel()).view(t.sizes());
}

void Reducer::prepare_for_backward(bool sync) {
  // A pass that never finished (its backward threw, or another callback of it did): its launched
  // all-reduces still write the buckets, so they are waited for before the buckets are reused.
  for (Bucket& bucket : buckets_) {
    if (bucket.work) {
      try {
        bucket.work->wait();
      } catch (const std::exception&) {
        // That pass's error was reported, or dropped with it.
      }
      bucket.work.reset();
    }
  }
  finish_queued_ = false;
  expecting_backward_ = sync;
  if (!sync) return;
  arrived_.assign(parameters_.size(), false);
  next_launch_ = 0;
  for (Bucket& bucket : buckets_) {
    bucket.pending = bucket.members.size();
    bucket.flat.narrow(0, bucket.gradient_elements, static_cast<int64_t>(bucket.members.size()))
        .zero_();
  }
}

void Reducer::queue_finish() {
  if (!expecting_backward_ || finish_queued_) return;
  std::weak_ptr<Reducer> weak = weak_from_this();
  autograd::Engine::get_default_engine().queue_callback([weak] {
    if (std::shared_ptr<Reducer> reducer = weak.lock()) reducer->finish();
  });
  finish_queued_ = true;
}

void Reducer::on_gradient(std::size_t index) {
  if (!expecting_backward_) return;  // under no_sync(), or a pass no forward prepared
  const Parameter& parameter = parameters_[index];
  EMBER_CHECK(!arrived_[index], "[DistributedDataParallel] parameter '", parameter.name,
              "' received a gradient twice in one synchronized backward pass; run forward "
              "again before each backward pass, or run the extra passes under no_sync()");
  queue_finish();
  arrived_[index] = true;
  NoGradGuard no_grad;
  Tensor target = slot(index);
  Tensor& grad = parameter.tensor.mutable_grad();
  // Divided by the world size on the way in, as PyTorch's reducer: the all-reduce's sum is then
  // the average, and no pass over the buckets is left for after it.
  const int world = group_->getSize();
  if (is_view_of(grad, target)) {
    if (world > 1) target.div_(world);
  } else {
    div_out(target, grad, world);
    if (gradient_as_bucket_view_) grad = target;
  }
  if (--buckets_[bucket_of_[index]].pending == 0) launch_full_buckets();
}

void Reducer::launch_full_buckets() {
  while (next_launch_ < buckets_.size() && buckets_[next_launch_].pending == 0) {
    Bucket& bucket = buckets_[next_launch_++];
    std::vector<Tensor> tensors{bucket.flat};
    bucket.work = group_->allreduce(tensors, AllreduceOptions{ReduceOp::SUM, kUnsetTimeout});
  }
}

void Reducer::finish() {
  expecting_backward_ = false;
  finish_queued_ = false;
  // The parameters that got no gradient here: zeros, flagged.
  NoGradGuard no_grad;
  for (std::size_t b = next_launch_; b < buckets_.size(); ++b) {
    Bucket& bucket = buckets_[b];
    for (std::size_t k = 0; k < bucket.members.size(); ++k) {
      const std::size_t member = bucket.members[k];
      if (arrived_[member]) continue;
      const Tensor target = slot(member);
      // A .grad that is the slot itself keeps its value apart, in case no rank has one.
      if (Tensor& grad = parameters_[member].tensor.mutable_grad(); is_view_of(grad, target))
        grad = grad.clone();
      target.zero_();
      bucket.flat.narrow(0, bucket.gradient_elements + static_cast<int64_t>(k), 1).fill_(1);
    }
    bucket.pending = 0;
  }
  launch_full_buckets();
  std::exception_ptr failure;
  for (Bucket& bucket : buckets_) {
    try {
      if (bucket.work) bucket.work->wait();
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
    bucket.work.reset();
  }
  if (failure) std::rethrow_exception(failure);
  // Every bucket is in before any .grad is written back: a pass that fails writes none (with
  // bucket views, the .grads are the buckets themselves).
  std::vector<int64_t> missing(parameters_.size(), 0);  // ranks without each gradient
  for (const Bucket& bucket : buckets_) {
    const std::vector<double> flags =
        bucket.flat.narrow(0, bucket.gradient_elements, static_cast<int64_t>(bucket.members.size()))
            .to(kDouble)
            .to_vector<double>();
    for (std::size_t k = 0; k < flags.size(); ++k)
      missing[bucket.members[k]] = static_cast<int64_t>(flags[k] + 0.5);
  }
  const int world = group_->getSize();
  std::string unused;
  for (std::size_t i = 0; i < parameters_.size(); ++i)
    if (missing[i] > 0)
      unused +=
          str(unused.empty() ? "" : ", ", parameters_[i].name, " (on ", missing[i], " of ", world,
              world == 1 ? " rank" : " ranks", arrived_[i] ? "" : ", this one included", ")");
  EMBER_CHECK(
      unused.empty() || find_unused_parameters_,
      "[DistributedDataParallel] parameters that received no gradient in this backward pass: ",
      unused,
      ". Every parameter that requires grad must take part in the loss on every rank: use it, "
      "freeze it with requires_grad_(false) before wrapping the module, or pass "
      "DistributedDataParallelOptions().find_unused_parameters(true)");
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    if (missing[i] == world) continue;  // no rank has a gradient: .grad stays as it is
    Tensor& grad = parameters_[i].tensor.mutable_grad();
    const Tensor averaged = slot(i);
    if (is_view_of(grad, averaged)) continue;
    if (gradient_as_bucket_view_) grad = averaged;
    else if (grad.defined()) grad.copy_(averaged);
    else grad = averaged.clone();
  }
}

}  // namespace ember::distributed
