// Area 7: strides as PyTorch keeps them. clone(), to(dtype), the *_like factories and
// elementwise results of a dense non-contiguous input keep its layout (MemoryFormat::Preserve);
// contiguous(memory_format) and MemoryFormat::Contiguous give row-major strides; views report
// the strides they share.
#include "torch_api.h"

namespace {

// A dense [3, 2] input whose strides are [1, 3].
torch::Tensor transposed() { return torch::arange(6, torch::kFloat).view({2, 3}).t(); }

void preserved() {
  const torch::Tensor t = transposed();
  SHOW(t.strides());
  SHOW(t.is_contiguous());
  SHOW(t.clone().strides());
  SHOW(t.clone());
  SHOW(t.clone(torch::MemoryFormat::Preserve).strides());
  SHOW(t.to(torch::kDouble).strides());
  SHOW(t.to(t.options().dtype(torch::kLong)).strides());
  SHOW(t.to(torch::kDouble));
  SHOW(torch::empty_like(t).strides());
  SHOW(torch::zeros_like(t).strides());
  SHOW(torch::ones_like(t, torch::kInt).strides());
  SHOW(torch::rand_like(t).strides());
  SHOW((t + 1).strides());
  SHOW((1 - t).strides());
  SHOW((t * t).strides());
  SHOW(t.exp().strides());
  SHOW((t > 2).strides());
  SHOW(t.clamp(1, 3).strides());
  SHOW((t + torch::ones({3, 2})).strides());
  SHOW((torch::ones({3, 2}) + t).strides());
  SHOW((t + torch::ones({2})).strides());
  const torch::Tensor p = torch::arange(24, torch::kFloat).view({2, 3, 4}).permute({2, 0, 1});
  SHOW(p.strides());
  SHOW(p.clone().strides());
  SHOW((p * 2).strides());
  SHOW(torch::zeros_like(p).strides());
}

void made_contiguous() {
  const torch::Tensor t = transposed();
  SHOW(t.contiguous().strides());
  SHOW(t.contiguous());
  SHOW(t.clone(torch::MemoryFormat::Contiguous).strides());
  SHOW(t.to(torch::kDouble, false, false, torch::MemoryFormat::Contiguous).strides());
  SHOW(torch::zeros_like(t, torch::TensorOptions(), torch::MemoryFormat::Contiguous).strides());
  SHOW(torch::empty_like(t, torch::kInt, torch::MemoryFormat::Contiguous).strides());
  SHOW(t.sum(0).strides());
  SHOW(t.sum(1, true).strides());
  const torch::Tensor gappy = torch::arange(12, torch::kFloat).view({3, 4}).narrow(1, 0, 2);
  SHOW(gappy.strides());
  SHOW(gappy.clone().strides());
  SHOW(gappy.to(torch::kDouble).strides());
  SHOW((gappy + 1).strides());
  SHOW(gappy.t().clone().strides());
  const torch::Tensor expanded = torch::ones({3}).expand({2, 3});
  SHOW(expanded.strides());
  SHOW(expanded.clone().strides());
  SHOW((expanded + 1).strides());
  const torch::Tensor images = torch::ones({2, 3, 4, 5});
  const torch::Tensor last = images.contiguous(torch::MemoryFormat::ChannelsLast);
  SHOW(last.strides());
  SHOW(last.is_contiguous(torch::MemoryFormat::ChannelsLast));
  SHOW(last.is_contiguous());
  SHOW(images.is_contiguous(torch::MemoryFormat::ChannelsLast));
  SHOW(c10::str(torch::MemoryFormat::Preserve));
  SHOW(c10::str(torch::MemoryFormat::Contiguous));
  SHOW(c10::str(torch::MemoryFormat::ChannelsLast));
}

void aliasing_and_views() {
  const torch::Tensor x = torch::arange(6, torch::kFloat).view({2, 3});
  const torch::Tensor t = x.t();
  SHOW(x.to(torch::kFloat).is_same(x));
  SHOW(x.to(x.dtype()).is_same(x));
  SHOW(x.to(torch::kCPU).is_same(x));
  SHOW(x.to(torch::kFloat, false, true).is_same(x));
  SHOW(x.contiguous().is_same(x));
  SHOW(t.contiguous().is_same(t));
  SHOW(t.clone().is_same(t));
  SHOW(x.view({3, 2}).strides());
  SHOW(x.unsqueeze(1).strides());
  SHOW(x.select(1, 0).strides());
  SHOW(x.narrow(1, 1, 2).storage_offset());
  SHOW(x.expand({4, 2, 3}).strides());
  SHOW(t.t().is_contiguous());
  SHOW(t.reshape({6}).strides());
  const torch::Tensor s = torch::empty_strided({2, 3}, {1, 2}).fill_(1);
  SHOW((s + 1).strides());
  SHOW(s.clone().strides());
}

}  // namespace

void strides() {
  torch_api::section("strides and memory formats");
  preserved();
  made_contiguous();
  aliasing_and_views();
}
