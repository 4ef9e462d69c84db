// F::embedding's max_norm and scale_grad_by_freq, embedding_renorm_, F::embedding_bag and the
// EmbeddingBag layer. Everything is composed of differentiable ops (index_select, scatter_add,
// max, masked_fill), so autograd and every device come free; the bag layout (which entry goes to
// which bag, what padding_idx leaves out) is worked out on the CPU from input and offsets, so a
// call on a GPU waits for those two to be copied back (LibTorch's CUDA kernel does not).
#include <algorithm>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/factory.h"
#include "ember/nn/embedding_bag.h"
#include "ember/nn/functional/embedding.h"
#include "ember/nn/init.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "kernels/tensor_iter.h"
#include "ops/padding_idx.h"

namespace ember {

namespace {

bool embbag_is_index_type(ScalarType t) { return t == kInt64 || t == kInt32; }

// rows (one per entry of `ids`) with their gradient divided by the count of each id among
// `all_ids` (scale_grad_by_freq); the values are unchanged: rows + (rows - rows) * scale. The
// counts come from a sorted copy of all_ids, so the cost follows the batch, not the table.
Tensor embbag_scaled_by_freq(const Tensor& rows, const std::vector<int64_t>& ids,
                             std::vector<int64_t> all_ids) {
  std::sort(all_ids.begin(), all_ids.end());
  std::vector<double> scale(ids.size());
  for (size_t k = 0; k < ids.size(); ++k) {
    const auto [first, last] = std::equal_range(all_ids.begin(), all_ids.end(), ids[k]);
    scale[k] = 1.0 / static_cast<double>(last - first);
  }
  std::vector<int64_t> shape = rows.sizes().vec();
  shape.back() = 1;
  Tensor s = tensor(scale, TensorOptions().dtype(kFloat64))
                 .to(rows.device(), rows.scalar_type())
                 .reshape(shape);
  Tensor fixed = rows.detach();
  return fixed + (rows - fixed) * s;
}

// The entries of an index tensor as int64 on the CPU, each checked against num_embeddings.
std::vector<int64_t> embbag_indices_of(const char* op, const Tensor& indices,
                                       int64_t num_embeddings) {
  std::vector<int64_t> ids = indices.reshape({-1}).to_vector<int64_t>();
  for (int64_t id : ids)
    EMBER_CHECK_T(IndexError, id >= 0 && id < num_embeddings, "[", op, "] index ", id,
                  " is out of range for an embedding table of ", num_embeddings,
                  " rows (valid indices are 0 to ", num_embeddings - 1, ")");
  return ids;
}

}  // namespace

Tensor& embedding_renorm_(Tensor& self, const Tensor& indices, double max_norm, double norm_type) {
  EMBER_CHECK_T(ValueError, self.defined() && indices.defined(),
                "[embedding_renorm_] self and indices must be defined tensors");
  EMBER_CHECK_T(ValueError, self.dim() == 2,
                "[embedding_renorm_] expected a 2-D weight [num_embeddings, embedding_dim], but "
                "got self of size ",
                self.sizes());
  EMBER_CHECK_T(TypeError, embbag_is_index_type(indices.scalar_type()),
                "[embedding_renorm_] expected indices of type Long or Int, but got ",
                indices.scalar_type(), "; convert them with .to(kInt64)");
  std::vector<int64_t> ids = embbag_indices_of("embedding_renorm_", indices, self.size(0));
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.empty()) return self;
  NoGradGuard no_grad;
  Tensor rows_index = tensor(ids, TensorOptions(kInt64).device(self.device()));
  Tensor rows = index_select(self, 0, rows_index);
  Tensor norms = norm(rows, norm_type, {1}, /*keepdim=*/true);
  Tensor scale = where(norms > max_norm, max_norm / (norms + 1e-7), ones_like(norms));
  self.index_put_({rows_index}, rows * scale);
  return self;
}

namespace nn::functional {

Tensor embedding(const Tensor& input, const Tensor& weight, const EmbeddingFuncOptions& options) {
  EMBER_CHECK_T(NotImplementedError, !options.sparse(),
                "[embedding] sparse gradients are not supported by ember: leave sparse false "
                "(the gradient is dense)");
  EMBER_CHECK_T(ValueError, weight.defined() && input.defined(),
                "[embedding] weight and input must be defined tensors");
  if (options.max_norm()) {
    EMBER_CHECK_T(ValueError, weight.dim() == 2,
                  "[embedding] expected a 2-D weight [num_embeddings, embedding_dim], but got "
                  "weight of size ",
                  weight.sizes());
    NoGradGuard no_grad;
    Tensor table = weight;
    embedding_renorm_(table, input.contiguous(), *options.max_norm(), options.norm_type());
  }
  Tensor out = ember::embedding(weight, input, options.padding_idx());
  if (!options.scale_grad_by_freq() || !out.requires_grad()) return out;
  const std::vector<int64_t> ids = embbag_indices_of("embedding", input, weight.size(0));
  return embbag_scaled_by_freq(out, ids, ids);
}

Tensor embedding_bag(const Tensor& input, const Tensor& weight,
                     const EmbeddingBagFuncOptions& options) {
  const Tensor& per_sample_weights = options.per_sample_weights();
  EMBER_CHECK_T(ValueError, input.defined() && weight.defined(),
                "[embedding_bag] input and weight must be defined tensors");
  EMBER_CHECK_T(
      ValueError, !per_sample_weights.defined() || input.sizes() == per_sample_weights.sizes(),
      "[embedding_bag] If per_sample_weights (", per_sample_weights.sizes(),
      ") is not null, then it must have the same shape as the input (", input.sizes(), ")");
  EMBER_CHECK_T(ValueError, weight.dim() == 2,
                "[embedding_bag] expected a 2-D weight [num_embeddings, embedding_dim], but got "
                "weight of size ",
                weight.sizes());
  EMBER_CHECK_T(TypeError, embbag_is_index_type(input.scalar_type()),
                "[embedding_bag] expected input of type Long or Int, but got ", input.scalar_type(),
                "; convert it with .to(kInt64)");
  kernels::common_device("embedding_bag",
                         {&weight, &input, &options.offsets(), &per_sample_weights},
                         {"weight", "input", "offsets", "per_sample_weights"});
  const int64_t num_embeddings = weight.size(0), dim = weight.size(1);
  const int64_t n = input.numel();

  // Where each bag starts, as LibTorch builds it (a 2-D input's rows are the bags).
  std::vector<int64_t> starts;
  if (input.dim() == 2) {
    EMBER_CHECK_T(ValueError, !options.offsets().defined(),
                  "[embedding_bag] If input is 2D, then offsets has to be null, as input is "
                  "treated is a mini-batch of fixed length sequences. However, found offsets of "
                  "type Tensor");
    for (int64_t b = 0; b < input.size(0); ++b) starts.push_back(b * input.size(1));
  } else if (input.dim() == 1) {
    const Tensor& offsets = options.offsets();
    EMBER_CHECK_T(ValueError, offsets.defined(),
                  "[embedding_bag] offsets has to be a 1D Tensor but got null: a 1-D input needs "
                  "offsets, where each bag starts");
    EMBER_CHECK_T(ValueError, offsets.dim() == 1,
                  "[embedding_bag] offsets has to be a 1D Tensor, but got offsets of size ",
                  offsets.sizes());
    EMBER_CHECK_T(TypeError, embbag_is_index_type(offsets.scalar_type()),
                  "[embedding_bag] expected offsets of type Long or Int, but got ",
                  offsets.scalar_type());
    EMBER_CHECK_T(ValueError, offsets.numel() > 0,
                  "[embedding_bag] offsets is empty: it needs at least offsets[0] = 0");
    starts = offsets.to_vector<int64_t>();
    EMBER_CHECK_T(ValueError, starts.front() == 0,
                  "[embedding_bag] offsets[0] has to be 0, i.e., the first sequence in the "
                  "mini-batch has to start from position 0. However, got ",
                  starts.front());
    EMBER_CHECK_T(ValueError, starts.back() <= n,
                  "[embedding_bag] offsets[-1] can not be greater than input's length(", n,
                  "), but got offsets[-1] of ", starts.back());
    for (size_t b = 1; b < starts.size(); ++b)
      EMBER_CHECK_T(ValueError, starts[b] >= starts[b - 1],
                    "[embedding_bag] offsets must be non-decreasing, but offsets[", b,
                    "] = ", starts[b], " is less than offsets[", b - 1, "] = ", starts[b - 1]);
  } else {
    ember::detail::fail<ValueError>(
        "[embedding_bag] input has to be 1D or 2D Tensor, but got Tensor of "
        "dimension ",
        input.dim());
  }

  const bool is_max = std::holds_alternative<enumtype::kMax>(options.mode());
  const bool is_sum = std::holds_alternative<enumtype::kSum>(options.mode());
  if (is_max) {
    EMBER_CHECK_T(ValueError, !options.scale_grad_by_freq(),
                  "[embedding_bag] max mode does not support scaling the gradient by the "
                  "frequency");
    EMBER_CHECK_T(ValueError, !options.sparse(),
                  "[embedding_bag] max mode does not support sparse weights");
  }
  EMBER_CHECK_T(NotImplementedError, !options.sparse(),
                "[embedding_bag] sparse gradients are not supported by ember: leave sparse false "
                "(the gradient is dense)");

  const std::optional<int64_t> padding_idx =
      ops::normalize_padding_idx("embedding_bag", options.padding_idx(), num_embeddings);
  const std::vector<int64_t> ids = embbag_indices_of("embedding_bag", input, num_embeddings);

  if (options.max_norm()) {
    NoGradGuard no_grad;
    Tensor table = weight;
    embedding_renorm_(table, input.reshape({-1}), *options.max_norm(), options.norm_type());
  }

  EMBER_CHECK_T(ValueError, !per_sample_weights.defined() || is_sum,
                "[embedding_bag] per_sample_weights was not null. per_sample_weights is only "
                "supported for mode='kSum' (got mode='",
                enumtype::get_enum_name(options.mode()), "'). Use kSum, or leave them out");
  if (per_sample_weights.defined())
    EMBER_CHECK_T(TypeError, per_sample_weights.scalar_type() == weight.scalar_type(),
                  "[embedding_bag] expected per_sample_weights of weight's dtype ",
                  weight.scalar_type(), ", but got ", per_sample_weights.scalar_type());

  // The bags: bag b holds the entries [starts[b], end_b); include_last_offset makes the last
  // start the end of the bag before it (entries past it belong to no bag).
  int64_t bags = static_cast<int64_t>(starts.size());
  if (options.include_last_offset()) bags = std::max<int64_t>(bags - 1, 0);
  std::vector<int64_t> kept_pos, kept_ids, kept_bag, count(static_cast<size_t>(bags), 0);
  for (int64_t b = 0; b < bags; ++b) {
    const int64_t begin = starts[static_cast<size_t>(b)];
    const int64_t end =
        b + 1 < static_cast<int64_t>(starts.size()) ? starts[static_cast<size_t>(b + 1)] : n;
    for (int64_t p = begin; p < end; ++p) {
      const int64_t id = ids[static_cast<size_t>(p)];
      if (padding_idx && id == *padding_idx) continue;
      kept_pos.push_back(p);
      kept_ids.push_back(id);
      kept_bag.push_back(b);
      ++count[static_cast<size_t>(b)];
    }
  }
  const Device device = weight.device();
  const TensorOptions out_options = TensorOptions().dtype(weight.scalar_type()).device(device);
  const TensorOptions index_options = TensorOptions(kInt64).device(device);

  if (is_max) {
    const int64_t longest = bags == 0 ? 0 : *std::max_element(count.begin(), count.end());
    // No entry at all: zeros, still recorded against weight (an empty selection's sum is 0).
    if (longest == 0)
      return zeros({bags, dim}, out_options) +
             index_select(weight, 0, tensor(std::vector<int64_t>{}, index_options)).sum();
    // A dense [bags, longest, dim] of each bag's rows, its unused slots -inf, then the max.
    std::vector<int64_t> slot_rows(static_cast<size_t>(bags * longest), 0);
    std::vector<int64_t> slot_unused(static_cast<size_t>(bags * longest), 1);
    std::vector<int64_t> bag_empty(static_cast<size_t>(bags), 0);
    std::vector<int64_t> filled(static_cast<size_t>(bags), 0);
    for (size_t k = 0; k < kept_ids.size(); ++k) {
      const int64_t b = kept_bag[k];
      const size_t slot = static_cast<size_t>(b * longest + filled[static_cast<size_t>(b)]++);
      slot_rows[slot] = kept_ids[k];
      slot_unused[slot] = 0;
    }
    for (int64_t b = 0; b < bags; ++b) bag_empty[static_cast<size_t>(b)] = count[b] == 0;
    Tensor dense =
        index_select(weight, 0, tensor(slot_rows, index_options))
            .view({bags, longest, dim})
            .masked_fill(tensor(slot_unused, index_options).to(kBool).view({bags, longest, 1}),
                         -std::numeric_limits<double>::infinity());
    Tensor values = std::get<0>(max(dense, 1));
    return values.masked_fill(tensor(bag_empty, index_options).to(kBool).view({bags, 1}), 0);
  }

  Tensor rows = index_select(weight, 0, tensor(kept_ids, index_options));
  if (options.scale_grad_by_freq() && rows.requires_grad())
    rows = embbag_scaled_by_freq(rows, kept_ids, ids);
  if (per_sample_weights.defined())
    rows = rows * index_select(per_sample_weights.reshape({-1}), 0, tensor(kept_pos, index_options))
                      .unsqueeze(1);
  const int64_t kept = static_cast<int64_t>(kept_ids.size());
  Tensor bag_index = tensor(kept_bag, index_options).view({kept, 1}).expand({kept, dim});
  Tensor out = zeros({bags, dim}, out_options).scatter_add(0, bag_index.contiguous(), rows);
  if (is_sum) return out;
  std::vector<double> divisor(count.begin(), count.end());
  for (double& d : divisor) d = std::max(d, 1.0);
  return out / tensor(divisor, TensorOptions().dtype(kFloat64))
                   .to(device, weight.scalar_type())
                   .view({bags, 1});
}

}  // namespace nn::functional

namespace nn {

void detail::check_pretrained_embeddings(const char* op, const Tensor& embeddings) {
  EMBER_CHECK_T(ValueError, embeddings.defined() && embeddings.dim() == 2, "[", op,
                "] Embeddings parameter is expected to be 2-dimensional [num_embeddings, "
                "embedding_dim], but got a tensor of size ",
                embeddings.defined() ? embeddings.sizes() : IntArrayRef{});
}

EmbeddingBagImpl::EmbeddingBagImpl(EmbeddingBagOptions options_)
    : Cloneable("EmbeddingBag"), options(std::move(options_)) {
  reset();
}

void EmbeddingBagImpl::reset() {
  const int64_t n = options.num_embeddings(), dim = options.embedding_dim();
  options.padding_idx() = ops::normalize_padding_idx("EmbeddingBag", options.padding_idx(), n);
  EMBER_CHECK_T(NotImplementedError, !options.sparse(),
                "[EmbeddingBag] sparse gradients are not supported by ember: leave sparse false "
                "(the gradient is dense)");
  if (options._weight().defined()) {
    EMBER_CHECK_T(ValueError, options._weight().sizes() == IntArrayRef({n, dim}),
                  "[EmbeddingBag] Shape of weight does not match num_embeddings and "
                  "embedding_dim: ",
                  options._weight().sizes(), " vs [", n, ", ", dim, "]");
    weight = register_parameter("weight", options._weight());
    return;
  }
  weight = register_parameter("weight", empty({n, dim}));
  reset_parameters();
}

void EmbeddingBagImpl::reset_parameters() {
  init::normal_(weight);
  if (options.padding_idx()) {
    NoGradGuard no_grad;
    weight[*options.padding_idx()].zero_();
  }
}

Tensor EmbeddingBagImpl::forward(const Tensor& input, const Tensor& offsets,
                                 const Tensor& per_sample_weights) {
  return functional::embedding_bag(input, weight,
                                   functional::EmbeddingBagFuncOptions()
                                       .offsets(offsets)
                                       .max_norm(options.max_norm())
                                       .norm_type(options.norm_type())
                                       .scale_grad_by_freq(options.scale_grad_by_freq())
                                       .mode(options.mode())
                                       .sparse(options.sparse())
                                       .per_sample_weights(per_sample_weights)
                                       .include_last_offset(options.include_last_offset())
                                       .padding_idx(options.padding_idx()));
}

void EmbeddingBagImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::EmbeddingBag(num_embeddings=" << options.num_embeddings()
         << ", embedding_dim=" << options.embedding_dim();
  if (options.max_norm()) stream << ", max_norm=" << *options.max_norm();
  if (options.norm_type() != 2) stream << ", norm_type=" << options.norm_type();
  if (options.scale_grad_by_freq())
    stream << ", scale_grad_by_freq=" << std::boolalpha << options.scale_grad_by_freq();
  if (options.sparse()) stream << ", sparse=" << std::boolalpha << options.sparse();
  if (!std::holds_alternative<enumtype::kMean>(options.mode()))
    stream << ", mode=" << enumtype::get_enum_name(options.mode());
  if (options.include_last_offset())
    stream << ", include_last_offset=" << std::boolalpha << options.include_last_offset();
  if (options.padding_idx()) stream << ", padding_idx=" << *options.padding_idx();
  stream << ")";
}

}  // namespace nn

}  // namespace ember
