// What ProcessGroupGloo and ProcessGroupNCCL share of a collective's arguments: the checks with
// one rule in both, whose messages name the group and the op ("[ProcessGroupNCCL.allgather] ..."),
// and the contiguous stand-in that a backend reads and writes in place of a user's tensor.
#pragma once

#include <string>
#include <vector>

#include "ember/tensor.h"
#include "ember/tensor_options.h"

namespace ember::distributed::detail {

// "float32[2, 3]": a tensor as the messages name it.
std::string describe(const Tensor& t);

// `a`, then `b`: every tensor a collective reads or writes.
std::vector<Tensor> joined(std::vector<Tensor> a, const std::vector<Tensor>& b);

// `rank` (`what`: "root rank") is a rank of the group of `size`.
void check_rank(const char* group, const char* op, const char* what, int64_t rank, int size);

// `peer` is a rank of the group other than `rank`: point-to-point calls to oneself would wait for
// each other forever.
void check_peer(const char* group, const char* op, int64_t peer, int rank, int size);

// `list` (`what`: "the output list") holds `count` tensors, one per rank, each defined and with
// `like`'s device, dtype and shape.
void check_list_like(const char* group, const char* op, const char* what,
                     const std::vector<Tensor>& list, const Tensor& like, int count);

// The one list of `lists` (`kind`: "output" for allgather's), checked as above.
const std::vector<Tensor>& one_list_like(const char* group, const char* op, const char* kind,
                                         const std::vector<std::vector<Tensor>>& lists,
                                         const Tensor& like, int count);

// The elements of `tensors` laid end to end, as one flat tensor.
Tensor concatenate(const std::vector<Tensor>& tensors);

// Copies consecutive pieces of `flat` into `tensors`.
void split_into(const Tensor& flat, const std::vector<Tensor>& tensors);

// The options of a host buffer for `t`'s elements: page-locked when `t` is on a GPU.
TensorOptions host_options(const Tensor& t);

// A user's tensor and the contiguous tensor a collective reads and writes in its place, made on
// the current stream: the tensor itself when contiguous, else a contiguous copy; with kOnHost, a
// page-locked host copy of a CUDA tensor (Note [CUDA tensors on Gloo]).
struct Staged {
  enum Where { kOnDevice, kOnHost };
  Staged(const Tensor& t, Where where);
  // Copies the collective's result into the user's tensor, unless it was written in place.
  void write_back() const;
  Tensor user, flat;
};

}  // namespace ember::distributed::detail
