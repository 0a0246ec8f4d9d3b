// voxnav native - a fixed pool of worker threads: the Executor native hosts give a World.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "voxnav/executor.h"

namespace voxnav::native {

class ThreadPool final : public Executor {
 public:
  /// Most worker threads one pool starts.
  static constexpr int kMaxThreads = 64;
  /// Starts `threads` worker threads [Limit: 1..kMaxThreads] (a value outside is clamped into
  /// it); servers use two (DESIGN.md). A World runs at most kMaxSearchWorkers
  /// (voxnav/executor.h) searches at once per movement class, whatever the count.
  explicit ThreadPool(int threads = 2);
  ~ThreadPool() override;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int worker_count() const override { return static_cast<int>(threads_.size()); }
  void submit(Job job) override;
  void wait_idle() override;
  /// Jobs the workers have finished so far (for statistics, and tests that check the workers
  /// run them: the npm package's stats().threadJobs).
  std::uint64_t jobs_run() const;

 private:
  void loop(int worker);
  mutable std::mutex mu_;
  std::condition_variable cv_, idle_cv_;
  std::deque<Job> queue_;
  int busy_ = 0;
  std::uint64_t jobs_run_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace voxnav::native
