// The view ops in place (t_, transpose_, squeeze_, unsqueeze_) and resize_: ops that change a
// tensor's own geometry.
#include <string_view>

#include "autograd/record.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/tensor.h"

namespace ember {
namespace {

// Note [View ops in place]
// x.t_(), x.unsqueeze_(0), ...: the handle (and every copy of it) takes the geometry of the view
// the out-of-place op makes; the storage and its elements stay. Autograd would have to rewrite
// the tensor's history, as PyTorch does, so a tensor that requires grad is refused instead.
template <class MakeView>
const Tensor& in_place_view(const char* op, const Tensor& self, MakeView make_view) {
  EMBER_CHECK_T(NotImplementedError, !autograd::needs_grad(self), "[", op,
                "] changing the shape of a tensor that requires grad in place is not supported; "
                "use the out-of-place form (x = x.",
                std::string_view(op).substr(0, std::string_view(op).size() - 1), "(...))");
  const Tensor view = make_view();
  detail::impl_of(self)->set_geometry(view.sizes(), view.strides());
  return self;
}

}  // namespace

const Tensor& Tensor::t_() const {
  return in_place_view("t_", *this, [&] { return t(); });
}
const Tensor& Tensor::transpose_(int64_t dim0, int64_t dim1) const {
  return in_place_view("transpose_", *this, [&] { return transpose(dim0, dim1); });
}
const Tensor& Tensor::squeeze_() const {
  return in_place_view("squeeze_", *this, [&] { return squeeze(); });
}
const Tensor& Tensor::squeeze_(int64_t dim) const {
  return in_place_view("squeeze_", *this, [&] { return squeeze(dim); });
}
const Tensor& Tensor::unsqueeze_(int64_t dim) const {
  return in_place_view("unsqueeze_", *this, [&] { return unsqueeze(dim); });
}

}  // namespace ember

namespace ember {

// The storage grows like PyTorch's (a new one holding the old elements at the start); views made
// before keep the old storage, where PyTorch's storage object grows under them.
const Tensor& Tensor::resize_(IntArrayRef size, std::optional<MemoryFormat> memory_format) const {
  detail::TensorImpl& impl =
      const_cast<detail::TensorImpl&>(detail::defined_impl(detail::impl_of(*this), "resize_"));
  EMBER_CHECK(!impl.requires_grad,
              "[resize_] cannot resize variables that require grad; resize a "
              "detach()ed tensor, or make a new one");
  EMBER_CHECK_T(NotImplementedError,
                !memory_format || *memory_format == MemoryFormat::Contiguous ||
                    *memory_format == MemoryFormat::Preserve,
                "[resize_] ember lays resized tensors out contiguously only; got memory format ",
                *memory_format);
  const int64_t numel = detail::checked_numel(size, "resize_");
  const size_t element_size = elementSize(impl.dtype);
  const size_t needed = static_cast<size_t>(impl.offset + numel) * element_size;
  if (needed > impl.storage->nbytes) {
    std::shared_ptr<detail::TensorImpl> grown =
        detail::empty_impl({impl.offset + numel}, impl.dtype, impl.device());
    const int64_t kept = static_cast<int64_t>(impl.storage->nbytes / element_size);
    if (kept > 0) {
      Tensor(detail::view_impl(*grown, {kept}, {1}, 0))
          .copy_(Tensor(detail::view_impl(impl, {kept}, {1}, 0)));
    }
    impl.storage = grown->storage;
  }
  impl.set_contiguous_geometry(size);
  return *this;
}

}  // namespace ember
