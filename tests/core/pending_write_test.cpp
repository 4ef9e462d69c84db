// Note [Safe non-blocking copies to the host] on the CPU: a fake pending write that counts its
// waits stands in for a copy from a GPU. Every way host code reaches a storage's bytes waits for
// it exactly once and clears it; metadata and views never wait.
#include "core/pending_write.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/tensor_impl.h"
#include "test_util.h"

namespace ember {
namespace {

using test::expect_values;

class CountingWrite final : public detail::PendingWrite {
 public:
  explicit CountingWrite(std::atomic<int>& waits, int* destroyed = nullptr,
                         std::chrono::milliseconds duration = {})
      : waits_(waits), destroyed_(destroyed), duration_(duration) {}
  ~CountingWrite() override {
    if (destroyed_ != nullptr) ++*destroyed_;
  }
  void wait() override {
    std::this_thread::sleep_for(duration_);
    ++waits_;
  }

 private:
  std::atomic<int>& waits_;
  int* destroyed_;
  std::chrono::milliseconds duration_;
};

detail::PendingWriteSlot& slot_of(const Tensor& t) {
  return detail::impl_of(t)->storage->pending_write;
}

struct Access {
  const char* name;
  std::function<void(Tensor&)> run;  // on t = [1, 2, 3] (float32, cpu)
};

// Each reads or writes t's bytes once, and checks what it got.
const std::vector<Access>& accesses() {
  static const std::vector<Access> all = {
      {"data_ptr", [](Tensor& t) { EXPECT_EQ(static_cast<float*>(t.data_ptr())[2], 3.f); }},
      {"data_ptr<T>", [](Tensor& t) { EXPECT_EQ(t.data_ptr<float>()[1], 2.f); }},
      {"item of a view", [](Tensor& t) { EXPECT_EQ(t[2].item<float>(), 3.f); }},
      {"span",
       [](Tensor& t) {
         std::span<float> s = t.span<float>();
         EXPECT_EQ(s[0] + s[1] + s[2], 6.f);
       }},
      {"to_vector",
       [](Tensor& t) {
         expect_values<float>(t, {3}, {1.f, 2.f, 3.f});
       }},
      {"str", [](Tensor& t) { EXPECT_EQ(t.str(), "tensor([1., 2., 3.])"); }},
      {"operator<<",
       [](Tensor& t) {
         std::ostringstream os;
         os << t;
         EXPECT_EQ(os.str(), "tensor([1., 2., 3.])");
       }},
      {"CPU op input",
       [](Tensor& t) {
         expect_values<float>(t + 1, {3}, {2.f, 3.f, 4.f});
       }},
      {"CPU op on equal inputs",  // the elementwise fast path
       [](Tensor& t) {
         expect_values<float>(t * t, {3}, {1.f, 4.f, 9.f});
       }},
      {"CPU op output",
       [](Tensor& t) {
         add_out(t, ones({3}), full({3}, 4.f));
         expect_values<float>(t, {3}, {5.f, 5.f, 5.f});
       }},
      {"in-place op",
       [](Tensor& t) {
         t.mul_(2);
         expect_values<float>(t, {3}, {2.f, 4.f, 6.f});
       }},
      {"reduction", [](Tensor& t) { EXPECT_EQ(t.sum().item<float>(), 6.f); }},
      {"copy_ into it",
       [](Tensor& t) {
         t.copy_(tensor({7.f, 8.f, 9.f}));
         expect_values<float>(t, {3}, {7.f, 8.f, 9.f});
       }},
      {"copy_ from it",
       [](Tensor& t) {
         Tensor d = empty({3}, kFloat64);
         d.copy_(t);
         expect_values<double>(d, {3}, {1., 2., 3.});
       }},
      {"clone",
       [](Tensor& t) {
         expect_values<float>(t.clone(), {3}, {1.f, 2.f, 3.f});
       }},
  };
  return all;
}

TEST(PendingWrite, EveryHostAccessWaitsOnceThenTheWriteIsCleared) {
  for (const Access& access : accesses()) {
    SCOPED_TRACE(access.name);
    Tensor t = tensor({1.f, 2.f, 3.f});
    std::atomic<int> waits{0};
    slot_of(t).set(std::make_unique<CountingWrite>(waits));
    ASSERT_TRUE(slot_of(t).pending());
    access.run(t);
    EXPECT_EQ(waits, 1);
    EXPECT_FALSE(slot_of(t).pending());
    (void)t.data_ptr();  // nothing left to wait for
    EXPECT_EQ(waits, 1);
  }
}

TEST(PendingWrite, MetadataAndViewsDoNotWait) {
  Tensor t = arange(6, TensorOptions(kFloat32)).view({2, 3});
  std::atomic<int> waits{0};
  slot_of(t).set(std::make_unique<CountingWrite>(waits));
  EXPECT_EQ(t.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.dtype(), kFloat32);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_FALSE(t.is_pinned());
  Tensor v = t.t().narrow(0, 1, 2).unsqueeze(0);
  EXPECT_EQ(v.sizes(), IntArrayRef({1, 2, 2}));
  Tensor same = t.to("cpu");
  EXPECT_TRUE(same.is_same(t));
  EXPECT_EQ(waits, 0);
  EXPECT_TRUE(slot_of(t).pending());
  // A view shares the storage, so its first read waits for the whole tensor's write.
  expect_values<float>(v, {1, 2, 2}, {1.f, 4.f, 2.f, 5.f});
  EXPECT_EQ(waits, 1);
  EXPECT_FALSE(slot_of(t).pending());
}

TEST(PendingWrite, AnUnreadWriteIsDroppedWithItsStorage) {
  std::atomic<int> waits{0};
  int destroyed = 0;
  {
    Tensor t = ones({1000});
    Tensor view = t.narrow(0, 10, 5);
    slot_of(t).set(std::make_unique<CountingWrite>(waits, &destroyed));
    t = Tensor();
    EXPECT_EQ(destroyed, 0);  // the view still holds the storage
  }
  EXPECT_EQ(destroyed, 1);
  EXPECT_EQ(waits, 0);
}

// from_blob memory has no allocator to hold it back: it goes back to its owner (the deleter, or
// the caller reading its own buffer) only after the write has landed.
TEST(PendingWrite, AFromBlobStorageWaitsBeforeHandingItsMemoryBack) {
  std::atomic<int> waits{0};
  std::vector<float> buffer = {1, 2, 3};
  int waits_seen_by_deleter = -1;
  {
    Tensor t = from_blob(buffer.data(), {3}, [&](void*) { waits_seen_by_deleter = waits; });
    slot_of(t).set(std::make_unique<CountingWrite>(waits));
  }
  EXPECT_EQ(waits_seen_by_deleter, 1);
  {
    Tensor t = from_blob(buffer.data(), {3});
    slot_of(t).set(std::make_unique<CountingWrite>(waits));
  }
  EXPECT_EQ(waits, 2);
}

TEST(PendingWrite, AWriteFoundWhenSettingAnotherIsWaitedFor) {
  Tensor t = zeros({2});
  std::atomic<int> first{0}, second{0};
  int destroyed = 0;
  slot_of(t).set(std::make_unique<CountingWrite>(first, &destroyed));
  slot_of(t).set(std::make_unique<CountingWrite>(second));
  EXPECT_EQ(first, 1);
  EXPECT_EQ(destroyed, 1);
  EXPECT_EQ(second, 0);
  EXPECT_TRUE(slot_of(t).pending());
  (void)t.data_ptr();
  EXPECT_EQ(second, 1);
}

TEST(PendingWrite, AFailedWaitLeavesTheWritePending) {
  class FailingOnce final : public detail::PendingWrite {
   public:
    explicit FailingOnce(int& calls) : calls_(calls) {}
    void wait() override {
      if (++calls_ == 1) throw Error("[copy_] the copy failed");
    }

   private:
    int& calls_;
  };
  Tensor t = tensor({4.f});
  int calls = 0;
  slot_of(t).set(std::make_unique<FailingOnce>(calls));
  EXPECT_EQ(test::error_of([&] { (void)t.item<float>(); }), "[copy_] the copy failed");
  EXPECT_TRUE(slot_of(t).pending());
  EXPECT_EQ(t.item<float>(), 4.f);
  EXPECT_EQ(calls, 2);
  EXPECT_FALSE(slot_of(t).pending());
}

TEST(PendingWrite, ConcurrentReadersWaitOnceBetweenThem) {
  Tensor t = full({64}, 2.f);
  std::atomic<int> waits{0};
  slot_of(t).set(std::make_unique<CountingWrite>(waits, nullptr, std::chrono::milliseconds(20)));
  std::atomic<int> correct{0};
  std::vector<std::thread> readers;
  for (int i = 0; i < 8; ++i)
    readers.emplace_back([&] { correct += t.sum().item<float>() == 128.f ? 1 : 0; });
  for (std::thread& r : readers) r.join();
  EXPECT_EQ(correct, 8);
  EXPECT_EQ(waits, 1);
}

}  // namespace
}  // namespace ember
