// Streams, events and their guard: the CPU's always-complete stream and host-clock events in
// every build, the errors without a GPU, and CUDA's streams, pool and events on a GPU (skipped
// visibly without one). Without kernels, GPU work here is copies of large buffers.
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_values;

const Stream kCpuStream = default_stream(Device::cpu());

std::string str(const Stream& s) {
  std::ostringstream os;
  os << s;
  return os.str();
}

// ---- the CPU, every build

TEST(Stream, CpuHasOneAlwaysCompleteStream) {
  const Stream s = current_stream(Device::cpu());
  EXPECT_EQ(s, kCpuStream);
  EXPECT_EQ(s.device(), Device::cpu());
  EXPECT_EQ(s.device_type(), DeviceType::CPU);
  EXPECT_EQ(s.id(), 0u);
  EXPECT_EQ(get_stream_from_pool(Device::cpu()), s);
  EXPECT_EQ(get_stream_from_pool(Device("cpu"), /*high_priority=*/true), s);
  EXPECT_TRUE(s.query());
  EXPECT_NO_THROW(s.synchronize());
  EXPECT_NO_THROW(synchronize(Device::cpu()));
  EXPECT_EQ(str(s), "stream 0x0 on device cpu");
  EXPECT_EQ(str(Stream::unchecked(Device::cuda(1), 0xab)), "stream 0xab on device cuda:1");
  EXPECT_NE(Stream::unchecked(Device::cuda(0), 0), Stream::unchecked(Device::cuda(1), 0));
}

TEST(Stream, CpuGuardAndSetStreamKeepTheStream) {
  {
    StreamGuard guard(kCpuStream);
    EXPECT_EQ(current_stream(Device::cpu()), kCpuStream);
  }
  set_stream(kCpuStream);
  EXPECT_EQ(current_stream(Device::cpu()), kCpuStream);
}

TEST(Stream, CpuEventsCompleteWhenRecorded) {
  Event e(DeviceType::CPU);
  EXPECT_EQ(e.device_type(), DeviceType::CPU);
  EXPECT_FALSE(e.device().has_value());  // no device before the first record
  EXPECT_TRUE(e.query());
  EXPECT_NO_THROW(e.synchronize());
  EXPECT_NO_THROW(e.wait(kCpuStream));
  e.record();
  ASSERT_TRUE(e.device().has_value());
  EXPECT_EQ(*e.device(), Device::cpu());
  EXPECT_TRUE(e.query());
  EXPECT_NO_THROW(e.synchronize());
  EXPECT_NO_THROW(e.wait());
  EXPECT_NO_THROW(kCpuStream.wait_event(e));
  EXPECT_NO_THROW(kCpuStream.wait_stream(kCpuStream));
  Event recorded = kCpuStream.record_event();
  EXPECT_EQ(recorded.device(), Device::cpu());
  EXPECT_TRUE(recorded.query());
}

TEST(Stream, CpuEventsTimeWithTheHostClock) {
  Event start(DeviceType::CPU, /*enable_timing=*/true), end(DeviceType::CPU, true);
  start.record();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  end.record(kCpuStream);
  const double ms = start.elapsed_time(end);
  EXPECT_GE(ms, 20.0);
  EXPECT_LT(ms, 20000.0);
  EXPECT_LE(end.elapsed_time(start), -20.0);
}

TEST(Stream, EventsMoveTheirBackendEvent) {
  Event a(DeviceType::CPU, true);
  a.record();
  Event b(std::move(a));
  EXPECT_FALSE(a.device().has_value());  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(b.device(), Device::cpu());
  Event c(DeviceType::CPU, true);
  c = std::move(b);
  EXPECT_EQ(c.device(), Device::cpu());
  c.record();
  EXPECT_GE(c.elapsed_time(c), 0.0);
}

TEST(Stream, EventErrorsUsePyTorchsMessages) {
  Event plain(DeviceType::CPU), timed(DeviceType::CPU, true), timed2(DeviceType::CPU, true);
  plain.record();
  timed.record();
  EXPECT_EQ(error_of<ValueError>([&] { (void)plain.elapsed_time(timed); }),
            "[Event.elapsed_time] Both events must be created with argument "
            "'enable_timing=True'.");
  EXPECT_EQ(error_of<ValueError>([&] { (void)timed.elapsed_time(timed2); }),
            "[Event.elapsed_time] Both events must be recorded before calculating elapsed time.");
  cuda::Event gpu_event(true);
  EXPECT_EQ(error_of([&] { (void)timed.elapsed_time(gpu_event); }),
            "[Event.elapsed_time] Event device type CPU does not match other's device type CUDA.");
  // A forged handle: the type check comes before any use of the GPU.
  const Stream gpu_stream = Stream::unchecked(Device::cuda(0), 0);
  EXPECT_EQ(error_of([&] { plain.record(gpu_stream); }),
            "[Event.record] Event device type CPU does not match recording stream's device type "
            "CUDA.");
  EXPECT_EQ(error_of([&] { plain.wait(gpu_stream); }),
            "[Event.wait] Event device type CPU does not match blocking stream's device type "
            "CUDA.");
  EXPECT_EQ(error_of<ValueError>([] { Event e(DeviceType::CPU, true, false, true); }),
            "[Event] an interprocess event cannot have enable_timing=true (CUDA cannot time events "
            "shared between processes)");
  EXPECT_NE(error_of<ValueError>([] { cuda::Event e(true, false, true); }), "");
  EXPECT_NO_THROW(cuda::Event(false, true, true));
}

TEST(Stream, CpuTensorsRecordStreamsAsNoOps) {
  Tensor t = ones({1000});
  EXPECT_NO_THROW(t.record_stream(kCpuStream));
  EXPECT_NO_THROW(tensor({1.f}).record_stream(current_stream(Device::cpu())));
  EXPECT_EQ(error_of([&] { t.record_stream(Stream::unchecked(Device::cuda(0), 0)); }),
            "[record_stream] expected a stream of the tensor's device cpu, got stream 0x0 on "
            "device cuda:0");
  EXPECT_NE(error_of([] { Tensor().record_stream(kCpuStream); }), "");
}

// ---- CUDA without a usable GPU: a CPU-only build, or a CUDA build on a machine without one

TEST(Stream, CudaStreamsAndEventsNeedAGpu) {
  if (cuda::is_available()) GTEST_SKIP() << "a GPU is usable; see the CudaStream tests";
  // Making an event touches nothing; it is created on its first record, as in PyTorch.
  cuda::Event unrecorded(true);
  EXPECT_FALSE(unrecorded.device().has_value());
  EXPECT_TRUE(unrecorded.query());
  EXPECT_NO_THROW(unrecorded.synchronize());
  std::vector<std::string> messages;
  auto expect_error = [&](auto fn) {
    messages.push_back(cuda::built_with_cuda() ? error_of<CudaError>(fn)
                                               : error_of<NotCompiledError>(fn));
  };
  expect_error([] { (void)cuda::current_stream(); });
  expect_error([] { (void)cuda::current_stream(0); });
  expect_error([] { (void)cuda::default_stream(); });
  expect_error([] { (void)cuda::get_stream_from_pool(0, true); });
  expect_error([] { (void)current_stream(Device("cuda")); });
  expect_error([] { (void)default_stream(Device("cuda:1")); });
  expect_error([] { (void)get_stream_from_pool(Device("cuda")); });
  expect_error([] { synchronize(Device("cuda")); });
  expect_error([&] { unrecorded.record(); });
  expect_error([&] { unrecorded.wait(); });
  const std::string expected = cuda::built_with_cuda()
                                   ? "No CUDA GPUs are available: "
                                   : "[ember] built without CUDA support; reconfigure with "
                                     "-DEMBER_CUDA=ON";
  for (size_t i = 0; i < messages.size(); ++i)
    EXPECT_EQ(messages[i].rfind(expected, 0), 0u) << "case " << i << ": " << messages[i];
  EXPECT_FALSE(unrecorded.device().has_value());  // the failed record created nothing
}

// ---- with a GPU

// 64 Mi int32 values (256 MiB): a copy long enough to be seen on a GPU's clock.
Tensor big_host_tensor() { return arange(int64_t{64} << 20, TensorOptions(kInt32)); }

TEST(CudaStream, CurrentDefaultAndPoolStreams) {
  EMBER_SKIP_IF_NO_CUDA();
  const int device = cuda::current_device();
  const Stream current = cuda::current_stream();
  EXPECT_EQ(current, cuda::default_stream());
  EXPECT_EQ(current, cuda::current_stream(device));
  EXPECT_EQ(current, current_stream(Device("cuda")));
  EXPECT_EQ(current.device(), Device::cuda(device));
  EXPECT_EQ(current.id(), 0u);
  EXPECT_EQ(str(current), "stream 0x0 on device cuda:" + std::to_string(device));
  // The pool hands out its 32 streams of a priority round-robin, then starts over.
  std::vector<Stream> low;
  for (int i = 0; i < 32; ++i) low.push_back(cuda::get_stream_from_pool());
  std::set<uint64_t> ids;
  for (const Stream& s : low) {
    EXPECT_EQ(s.device(), Device::cuda(device));
    EXPECT_NE(s.id(), 0u);
    ids.insert(s.id());
  }
  EXPECT_EQ(ids.size(), 32u);
  EXPECT_EQ(cuda::get_stream_from_pool(), low.front());
  const Stream high = cuda::get_stream_from_pool(device, /*high_priority=*/true);
  EXPECT_EQ(ids.count(high.id()), 0u);
  for (int i = 0; i < cuda::device_count(); ++i)
    EXPECT_EQ(cuda::get_stream_from_pool(i).device(), Device::cuda(i));
  EXPECT_TRUE(cuda::get_stream_from_pool().query());  // nothing queued
}

TEST(CudaStream, GuardSetsStreamAndDevicePerThreadAndRestores) {
  EMBER_SKIP_IF_NO_CUDA();
  const int before_device = cuda::current_device();
  const Stream before = cuda::current_stream();
  const int last = cuda::device_count() - 1;
  const Stream side = cuda::get_stream_from_pool(last);
  {
    StreamGuard guard(side);
    EXPECT_EQ(cuda::current_device(), last);
    EXPECT_EQ(cuda::current_stream(), side);
    EXPECT_EQ(cuda::current_stream(last), side);
    // The device left keeps its own current stream.
    EXPECT_EQ(cuda::current_stream(before_device), last == before_device ? side : before);
    {
      const Stream inner_stream = cuda::get_stream_from_pool(0);
      cuda::StreamGuard inner(inner_stream);
      EXPECT_EQ(cuda::current_device(), 0);
      EXPECT_EQ(cuda::current_stream(), inner_stream);
    }
    EXPECT_EQ(cuda::current_device(), last);
    EXPECT_EQ(cuda::current_stream(), side);
    // Another thread starts on the default streams.
    Stream seen = kCpuStream;
    std::thread th([&] { seen = cuda::current_stream(last); });
    th.join();
    EXPECT_EQ(seen, cuda::default_stream(last));
  }
  EXPECT_EQ(cuda::current_device(), before_device);
  EXPECT_EQ(cuda::current_stream(), before);
  EXPECT_EQ(cuda::current_stream(last), cuda::default_stream(last));
  // set_stream switches for good, device included, as torch.cuda.set_stream.
  cuda::set_stream(side);
  EXPECT_EQ(cuda::current_device(), last);
  EXPECT_EQ(cuda::current_stream(), side);
  cuda::set_stream(cuda::default_stream(last));
  cuda::set_device(before_device);
  EXPECT_EQ(cuda::current_stream(), before);
}

TEST(CudaStream, StoragesAreAllocatedOnTheCurrentStream) {
  EMBER_SKIP_IF_NO_CUDA();
  const Stream side = cuda::get_stream_from_pool();
  cuda::synchronize();
  cuda::empty_cache();  // pool streams are shared: no block an earlier test left on `side`
  void* on_side = nullptr;
  {
    StreamGuard guard(side);
    on_side = empty({1000}, Device("cuda")).data_ptr();
  }
  if (cuda::memory_reserved() == cuda::memory_allocated())
    GTEST_SKIP() << "the CUDA memory cache is disabled here";
  // The freed block belongs to `side`: the default stream gets another, `side` gets it back.
  Tensor on_default = empty({1000}, Device("cuda"));
  EXPECT_NE(on_default.data_ptr(), on_side);
  StreamGuard guard(side);
  Tensor again = empty({1000}, Device("cuda"));
  EXPECT_EQ(again.data_ptr(), on_side);
}

TEST(CudaStream, EventsTimeACopyAndQueryCompletion) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor host = big_host_tensor();
  Tensor dev = empty(host.sizes(), TensorOptions(kInt32).device("cuda"));
  cuda::Event start(/*enable_timing=*/true), end(true);
  EXPECT_FALSE(start.device().has_value());
  start.record();
  EXPECT_EQ(start.device(), Device::cuda(cuda::current_device()));
  dev.copy_(host, /*non_blocking=*/true);
  end.record();
  end.synchronize();
  EXPECT_TRUE(end.query());
  EXPECT_TRUE(cuda::current_stream().query());
  const double ms = start.elapsed_time(end);
  EXPECT_GT(ms, 0.0);  // 256 MiB take milliseconds over any bus
  EXPECT_LT(ms, 60000.0);
  cuda::Event untimed;
  untimed.record();
  EXPECT_EQ(error_of<ValueError>([&] { (void)start.elapsed_time(untimed); }),
            "[Event.elapsed_time] Both events must be created with argument "
            "'enable_timing=True'.");
  cuda::Event never(true);
  EXPECT_EQ(error_of<ValueError>([&] { (void)start.elapsed_time(never); }),
            "[Event.elapsed_time] Both events must be recorded before calculating elapsed time.");
  Event cpu_event(DeviceType::CPU);
  EXPECT_EQ(error_of([&] { cpu_event.record(cuda::current_stream()); }),
            "[Event.record] Event device type CPU does not match recording stream's device type "
            "CUDA.");
}

TEST(CudaStream, EventKeepsTheDeviceOfItsFirstRecord) {
  EMBER_SKIP_IF_NO_CUDA();
  if (cuda::device_count() < 2) GTEST_SKIP() << "needs two GPUs";
  cuda::Event e;
  e.record(cuda::default_stream(0));
  EXPECT_EQ(e.device(), Device::cuda(0));
  EXPECT_EQ(error_of([&] { e.record(cuda::get_stream_from_pool(1)); }),
            "[Event.record] Event device 0 does not match recording stream's device 1.");
  // Waiting across devices is fine.
  EXPECT_NO_THROW(e.wait(cuda::get_stream_from_pool(1)));
}

TEST(CudaStream, WaitStreamOrdersWorkAcrossStreams) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor host = big_host_tensor();
  Tensor dev = empty(host.sizes(), TensorOptions(kInt32).device("cuda"));
  Tensor back = empty(host.sizes(), kInt32);
  const Stream producer = cuda::get_stream_from_pool();
  const Stream consumer = cuda::get_stream_from_pool(-1, /*high_priority=*/true);
  {
    StreamGuard guard(producer);
    dev.copy_(host, /*non_blocking=*/true);
  }
  consumer.wait_stream(producer);
  {
    StreamGuard guard(consumer);
    dev.record_stream(consumer);  // used on a stream it was not allocated on
    back.copy_(dev, /*non_blocking=*/true);
  }
  consumer.synchronize();
  EXPECT_TRUE(consumer.query());
  EXPECT_TRUE(equal(back, host));
  // The same through an event.
  Tensor back2 = empty(host.sizes(), kInt32);
  const Event copied = producer.record_event();
  consumer.wait_event(copied);
  {
    StreamGuard guard(consumer);
    back2.copy_(dev, /*non_blocking=*/true);
  }
  consumer.synchronize();
  EXPECT_TRUE(equal(back2, host));
}

TEST(CudaStream, RecordStreamChecksTheDevice) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor t = empty({1000}, Device::cuda(0));
  EXPECT_NO_THROW(t.record_stream(cuda::get_stream_from_pool(0)));
  EXPECT_NO_THROW(t.record_stream(cuda::default_stream(0)));  // its own stream: nothing to do
  EXPECT_EQ(error_of([&] { t.record_stream(kCpuStream); }),
            "[record_stream] expected a stream of the tensor's device cuda:0, got stream 0x0 on "
            "device cpu");
}

TEST(CudaStream, SynchronizeWaitsForEveryStream) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor host = big_host_tensor();
  Tensor dev = empty(host.sizes(), TensorOptions(kInt32).device("cuda"));
  const Stream side = cuda::get_stream_from_pool();
  {
    StreamGuard guard(side);
    dev.copy_(host, /*non_blocking=*/true);
  }
  synchronize(Device("cuda"));
  EXPECT_TRUE(side.query());
  EXPECT_NO_THROW(cuda::synchronize());
}

}  // namespace
}  // namespace ember
