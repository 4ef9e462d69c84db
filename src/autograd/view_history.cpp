// Views in autograd (Note [Views in autograd]).
#include "autograd/view_history.h"

#include "autograd/functions/view.h"
#include "autograd/meta.h"
#include "autograd/record.h"
#include "core/check.h"

namespace ember::autograd {
namespace {

bool is_leaf(const detail::TensorImpl& impl) {
  const AutogradMeta* meta = meta_if_any(impl);
  return !meta || !meta->grad_fn;
}

// Records `view` as its base's elements at the view's geometry.
void record_as_strided(const Tensor& view, const Tensor& base) {
  record({view}, {base}, {},
         functions::AsStridedBackward0{functions::StridedGeometry::of(base),
                                       functions::StridedGeometry::of(view)});
  detail::TensorImpl& impl = *detail::impl_of(view);
  impl.view_version = impl.storage->version;
}

}  // namespace

void track_view(const Tensor& view, const Tensor& of) {
  const detail::TensorImpl& source = *detail::impl_of(of);
  const std::shared_ptr<detail::TensorImpl>& base =
      source.view_base ? source.view_base : detail::impl_ptr_of(of);
  detail::TensorImpl& impl = *detail::impl_of(view);
  impl.view_base = base;
  impl.view_made_without_grad = !is_grad_enabled() || source.view_made_without_grad;
  impl.view_version = impl.storage->version;
}

void check_view_inplace(detail::TensorImpl& view, const char* op) {
  EMBER_CHECK(!view.view_made_without_grad, "[", op,
              "] A view was created in no_grad mode and is being modified inplace with grad mode "
              "enabled. Given that this use case is ambiguous and error-prone, it is forbidden. "
              "You can clarify your code by moving both the view and the inplace either both "
              "inside the no_grad block (if you don't want the inplace to be tracked) or both "
              "outside (if you want the inplace to be tracked).");
  const detail::TensorImpl& base = *view.view_base;
  EMBER_CHECK(!((view.requires_grad || base.requires_grad) && is_leaf(base)), "[", op,
              "] a view of a leaf Variable that requires grad is being used in an in-place "
              "operation. Update parameters inside an ember::NoGradGuard scope (as optimizers "
              "do), or use the out-of-place form.");
}

void rebase_view_history(const Tensor& view, const Tensor& result) {
  const Tensor base(detail::impl_of(view)->view_base);
  record({base}, {base, result}, {},
         functions::CopySlices{functions::StridedGeometry::of(base),
                               functions::StridedGeometry::of(view)});
  record_as_strided(view, base);
}

void refresh_view_history(const Tensor& view) {
  detail::TensorImpl& impl = *detail::impl_of(view);
  if (impl.view_version == impl.storage->version) return;
  impl.view_version = impl.storage->version;
  // A view made in no-grad mode stays out of the graph, as its values' history is ambiguous.
  if (!impl.view_base->requires_grad || (!impl.requires_grad && impl.view_made_without_grad))
    return;
  record_as_strided(view, Tensor(impl.view_base));
}

bool view_requires_grad(const Tensor& view) {
  refresh_view_history(view);
  return detail::impl_of(view)->requires_grad;
}

}  // namespace ember::autograd
