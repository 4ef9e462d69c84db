// One rank of the collectives check: CTest starts it under ember-run with 2, 3 and 4 ranks
// (tests/distributed/CMakeLists.txt). Each rank joins the default group from the environment,
// runs every collective of torch.distributed's API with inputs that depend on its rank, and
// compares what it gets with values worked out here. It exits 1 after printing each mismatch,
// so ember-run names the failing rank and stops the others.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "ember/ember.h"

namespace dist = ember::distributed;
using ember::Tensor;

namespace {

int failures = 0;

template <class T>
void expect(const std::string& what, const std::vector<T>& got, const std::vector<T>& want) {
  if (got == want) return;
  ++failures;
  std::cerr << what << ": got";
  for (const T& v : got) std::cerr << ' ' << v;
  std::cerr << ", want";
  for (const T& v : want) std::cerr << ' ' << v;
  std::cerr << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  // An argument other than env:// names the init method: file:///path (the same for every rank).
  const std::string init_method = argc > 1 ? argv[1] : "env://";
  dist::init_process_group("gloo", init_method, std::chrono::seconds(30));
  const int rank = dist::get_rank(), world = dist::get_world_size();
  const char* expected_world = std::getenv("WORLD_SIZE");
  expect("world size", std::vector<int>{world}, std::vector<int>{std::atoi(expected_world)});
  expect("backend", std::vector<std::string>{dist::get_backend()},
         std::vector<std::string>{"gloo"});

  // all_reduce: each rank adds rank + 1; then the mean of those.
  Tensor t = ember::full({3}, rank + 1, ember::kLong);
  dist::all_reduce(t);
  expect("all_reduce sum", t.to_vector<int64_t>(),
         std::vector<int64_t>(3, int64_t{world} * (world + 1) / 2));
  Tensor mean = ember::full({2}, rank + 1.0, ember::kDouble);
  dist::all_reduce(mean, dist::ReduceOp::AVG);
  expect("all_reduce avg", mean.to_vector<double>(), std::vector<double>(2, (world + 1) / 2.0));

  // broadcast from the last rank.
  Tensor b = ember::full({2}, rank * 7, ember::kFloat);
  dist::broadcast(b, world - 1);
  expect("broadcast", b.to_vector<float>(), std::vector<float>(2, 7.0f * (world - 1)));

  // all_gather and all_gather_into_tensor: rank r contributes [r, r].
  std::vector<Tensor> pieces;
  for (int r = 0; r < world; ++r) pieces.push_back(ember::empty({2}, ember::kInt));
  Tensor mine = ember::full({2}, rank, ember::kInt);
  dist::all_gather(pieces, mine);
  Tensor gathered = ember::empty({world * 2}, ember::kInt);
  dist::all_gather_into_tensor(gathered, mine);
  std::vector<int32_t> want;
  for (int r = 0; r < world; ++r) want.insert(want.end(), {r, r});
  expect("all_gather_into_tensor", gathered.to_vector<int32_t>(), want);
  expect("all_gather", ember::cat(pieces).to_vector<int32_t>(), want);

  // reduce_scatter_tensor: rank r's input is [0, 1, ..., 2 world) + r; rank r keeps 2 elements.
  Tensor input = ember::arange(2 * world, ember::kDouble) + rank;
  Tensor piece = ember::empty({2}, ember::kDouble);
  dist::reduce_scatter_tensor(piece, input);
  const double offset = world * (world - 1) / 2.0;
  expect("reduce_scatter_tensor", piece.to_vector<double>(),
         std::vector<double>{world * 2.0 * rank + offset, world * (2.0 * rank + 1) + offset});

  // all_to_all_single: rank r sends 100 r + j to rank j.
  Tensor out = ember::empty({world}, ember::kLong);
  Tensor in = ember::arange(world, ember::kLong) + 100 * rank;
  dist::all_to_all_single(out, in);
  std::vector<int64_t> from_each;
  for (int r = 0; r < world; ++r) from_each.push_back(100 * r + rank);
  expect("all_to_all_single", out.to_vector<int64_t>(), from_each);

  // A ring of send/recv: each rank passes its rank to the next.
  if (world > 1) {
    Tensor token = ember::full({1}, rank, ember::kLong);
    Tensor got = ember::empty({1}, ember::kLong);
    auto sent = dist::isend(token, (rank + 1) % world);
    const int from = dist::recv(got, (rank + world - 1) % world);
    sent->wait();
    expect("ring recv", got.to_vector<int64_t>(), std::vector<int64_t>{(rank + world - 1) % world});
    expect("ring source", std::vector<int>{from}, std::vector<int>{(rank + world - 1) % world});
  }

  // A group of the even ranks: its sum, and the odd ranks outside it.
  std::vector<int> evens;
  for (int r = 0; r < world; r += 2) evens.push_back(r);
  auto group = dist::new_group(evens);
  if (rank % 2 == 0) {
    Tensor g = ember::full({1}, rank, ember::kLong);
    dist::all_reduce(g, dist::ReduceOp::SUM, group);
    int64_t even_sum = 0;
    for (int r : evens) even_sum += r;
    expect("even group", g.to_vector<int64_t>(), std::vector<int64_t>{even_sum});
    expect("even group rank", std::vector<int>{dist::get_rank(group)}, std::vector<int>{rank / 2});
  } else if (group != nullptr) {
    ++failures;
    std::cerr << "new_group gave an odd rank a group it is not in\n";
  }

  dist::barrier();
  dist::destroy_process_group();
  if (failures == 0) std::cout << "rank " << rank << " of " << world << ": all collectives agree\n";
  return failures == 0 ? 0 : 1;
}
