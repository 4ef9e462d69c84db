// Arguments of a collective, for every backend (collective_args.h).
#include "distributed/collective_args.h"

#include "core/check.h"
#include "ember/factory.h"
#include "ember/shape_ops.h"

namespace ember::distributed::detail {

std::string describe(const Tensor& t) { return str(t.scalar_type(), t.sizes()); }

std::vector<Tensor> joined(std::vector<Tensor> a, const std::vector<Tensor>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

void check_rank(const char* group, const char* op, const char* what, int64_t rank, int size) {
  EMBER_CHECK_T(ValueError, rank >= 0 && rank < size, "[", group, ".", op, "] ", what, " ", rank,
                " is not in the group of size ", size);
}

void check_peer(const char* group, const char* op, int64_t peer, int rank, int size) {
  EMBER_CHECK_T(ValueError, peer != rank, "[", group, ".", op, "] the peer is this rank (", rank,
                ") itself; copy the tensor instead");
  EMBER_CHECK_T(ValueError, peer >= 0 && peer < size, "[", group, ".", op, "] rank ", peer,
                " is not in the group of size ", size, " (this is rank ", rank, ")");
}

void check_list_like(const char* group, const char* op, const char* what,
                     const std::vector<Tensor>& list, const Tensor& like, int count) {
  EMBER_CHECK_T(ValueError, std::ssize(list) == count, "[", group, ".", op, "] ", what,
                " needs one tensor per rank (", count, "), got ", list.size());
  for (const Tensor& t : list) {
    EMBER_CHECK_T(ValueError, t.defined() && t.device() == like.device(), "[", group, ".", op, "] ",
                  what, " has an undefined tensor, or one on another device than ", like.device());
    EMBER_CHECK_T(ValueError, t.scalar_type() == like.scalar_type() && t.sizes() == like.sizes(),
                  "[", group, ".", op, "] ", what, " has ", describe(t), " where ", describe(like),
                  " was expected");
  }
}

const std::vector<Tensor>& one_list_like(const char* group, const char* op, const char* kind,
                                         const std::vector<std::vector<Tensor>>& lists,
                                         const Tensor& like, int count) {
  EMBER_CHECK_T(ValueError, lists.size() == 1, "[", group, ".", op, "] takes one list of ", kind,
                " tensors (one per rank), got ", lists.size());
  check_list_like(group, op, str("the ", kind, " list").c_str(), lists.front(), like, count);
  return lists.front();
}

Tensor concatenate(const std::vector<Tensor>& tensors) {
  std::vector<Tensor> flat;
  flat.reserve(tensors.size());
  for (const Tensor& t : tensors) flat.push_back(t.reshape({-1}));
  return cat(flat);
}

void split_into(const Tensor& flat, const std::vector<Tensor>& tensors) {
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    t.copy_(flat.narrow(0, offset, t.numel()).view(t.sizes()));
    offset += t.numel();
  }
}

TensorOptions host_options(const Tensor& t) {
  return TensorOptions(t.scalar_type()).pinned_memory(t.is_cuda());
}

namespace {

Tensor flat_of(const Tensor& t, Staged::Where where) {
  if (where == Staged::kOnHost && t.is_cuda()) {
    Tensor host = empty(t.sizes(), host_options(t));
    host.copy_(t);
    return host;
  }
  return t.is_contiguous() ? t : t.contiguous();
}

}  // namespace

Staged::Staged(const Tensor& t, Where where) : user(t), flat(flat_of(t, where)) {}

void Staged::write_back() const {
  if (!flat.is_same(user)) user.copy_(flat);
}

}  // namespace ember::distributed::detail
