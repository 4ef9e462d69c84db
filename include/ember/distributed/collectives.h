// torch.distributed's functions for C++: one default group set up from the environment that
// ember-run (or torchrun, or mpirun) gives each process, and the collectives on it or on a group
// from new_group. Ranks in `src`/`dst` are global ranks, as in PyTorch. With async_op false a
// call returns once its work is done (and returns nullptr); with true it returns the Work.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "ember/distributed/process_group.h"
#include "ember/distributed/store.h"

namespace ember::distributed {

// Whether this ember has each backend.
EMBER_API bool is_available();
EMBER_API bool is_gloo_available();
EMBER_API bool is_nccl_available();
EMBER_API bool is_mpi_available();

// Joins this process to the default group. backend: "gloo", or "" / "auto" for the default
// (gloo). init_method: "env://" (the default: MASTER_ADDR, MASTER_PORT, RANK and WORLD_SIZE,
// or OMPI_COMM_WORLD_RANK/SIZE under mpirun), "tcp://host:port" or "file:///path"; or a `store`
// that every rank shares. world_size and rank (-1: from the environment) override the
// environment's.
EMBER_API void init_process_group(const std::string& backend = "",
                                  const std::string& init_method = "",
                                  std::chrono::milliseconds timeout = kProcessGroupDefaultTimeout,
                                  int world_size = -1, int rank = -1,
                                  const intrusive_ptr<Store>& store = nullptr,
                                  const std::string& group_name = "");
EMBER_API bool is_initialized();
// Leaves `group` (nullptr: the default group, and with it every group).
EMBER_API void destroy_process_group(const intrusive_ptr<ProcessGroup>& group = nullptr);
// The default group (throws when init_process_group has not run).
EMBER_API intrusive_ptr<ProcessGroup> default_group();

// This process's rank in `group` (nullptr: the default group), or -1 when it is not a member.
EMBER_API int get_rank(const intrusive_ptr<ProcessGroup>& group = nullptr);
EMBER_API int get_world_size(const intrusive_ptr<ProcessGroup>& group = nullptr);
EMBER_API std::string get_backend(const intrusive_ptr<ProcessGroup>& group = nullptr);

// A group of the given global ranks (empty: all). Every rank of the default group must call it,
// in the same order; ranks outside `ranks` get nullptr.
EMBER_API intrusive_ptr<ProcessGroup> new_group(
    const std::vector<int>& ranks = {},
    std::chrono::milliseconds timeout = kProcessGroupDefaultTimeout);

EMBER_API intrusive_ptr<Work> all_reduce(Tensor& tensor, ReduceOp op = ReduceOp::SUM,
                                         const intrusive_ptr<ProcessGroup>& group = nullptr,
                                         bool async_op = false);
EMBER_API intrusive_ptr<Work> broadcast(Tensor& tensor, int src,
                                        const intrusive_ptr<ProcessGroup>& group = nullptr,
                                        bool async_op = false);
EMBER_API intrusive_ptr<Work> reduce(Tensor& tensor, int dst, ReduceOp op = ReduceOp::SUM,
                                     const intrusive_ptr<ProcessGroup>& group = nullptr,
                                     bool async_op = false);
EMBER_API intrusive_ptr<Work> all_gather(std::vector<Tensor>& tensor_list, Tensor& tensor,
                                         const intrusive_ptr<ProcessGroup>& group = nullptr,
                                         bool async_op = false);
EMBER_API intrusive_ptr<Work> all_gather_into_tensor(
    Tensor& output_tensor, Tensor& input_tensor, const intrusive_ptr<ProcessGroup>& group = nullptr,
    bool async_op = false);
// gather_list: one tensor per rank on `dst`, empty elsewhere.
EMBER_API intrusive_ptr<Work> gather(Tensor& tensor, std::vector<Tensor> gather_list = {},
                                     int dst = 0,
                                     const intrusive_ptr<ProcessGroup>& group = nullptr,
                                     bool async_op = false);
// scatter_list: one tensor per rank on `src`, empty elsewhere.
EMBER_API intrusive_ptr<Work> scatter(Tensor& tensor, std::vector<Tensor> scatter_list = {},
                                      int src = 0,
                                      const intrusive_ptr<ProcessGroup>& group = nullptr,
                                      bool async_op = false);
EMBER_API intrusive_ptr<Work> reduce_scatter(Tensor& output, std::vector<Tensor>& input_list,
                                             ReduceOp op = ReduceOp::SUM,
                                             const intrusive_ptr<ProcessGroup>& group = nullptr,
                                             bool async_op = false);
EMBER_API intrusive_ptr<Work> reduce_scatter_tensor(
    Tensor& output, Tensor& input, ReduceOp op = ReduceOp::SUM,
    const intrusive_ptr<ProcessGroup>& group = nullptr, bool async_op = false);
EMBER_API intrusive_ptr<Work> all_to_all(std::vector<Tensor>& output_tensor_list,
                                         std::vector<Tensor>& input_tensor_list,
                                         const intrusive_ptr<ProcessGroup>& group = nullptr,
                                         bool async_op = false);
// Rows of dim 0: `input_split_sizes[r]` go to rank r (empty: equal parts).
EMBER_API intrusive_ptr<Work> all_to_all_single(Tensor& output, Tensor& input,
                                                std::vector<int64_t> output_split_sizes = {},
                                                std::vector<int64_t> input_split_sizes = {},
                                                const intrusive_ptr<ProcessGroup>& group = nullptr,
                                                bool async_op = false);
EMBER_API intrusive_ptr<Work> barrier(const intrusive_ptr<ProcessGroup>& group = nullptr,
                                      bool async_op = false);

// Point to point, blocking: send returns when the data has left; recv returns the sender's
// global rank (src -1: any rank).
EMBER_API void send(Tensor& tensor, int dst, const intrusive_ptr<ProcessGroup>& group = nullptr,
                    int tag = 0);
EMBER_API int recv(Tensor& tensor, int src = -1, const intrusive_ptr<ProcessGroup>& group = nullptr,
                   int tag = 0);
EMBER_API intrusive_ptr<Work> isend(Tensor& tensor, int dst,
                                    const intrusive_ptr<ProcessGroup>& group = nullptr,
                                    int tag = 0);
EMBER_API intrusive_ptr<Work> irecv(Tensor& tensor, int src = -1,
                                    const intrusive_ptr<ProcessGroup>& group = nullptr,
                                    int tag = 0);

}  // namespace ember::distributed
