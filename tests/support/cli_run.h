// The voxnav CLI run from a test (*_cli_native_test suites, which get VOXNAV_CLI, its path, and
// take VOXNAV_CLI_PATH from the environment instead when it is set: a suite linked into the debug
// tree from the release tree's objects runs the debug tree's CLI): one place for starting it,
// collecting its output and reading its exit code.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace voxnav::test {

struct CliRun {
  int code = -1;    ///< exit code; -1 when it did not start or did not exit normally
  std::string out;  ///< stdout, and stderr unless `stderr_too` is false
};

/// Runs `voxnav ARGS` and waits for it.
inline CliRun run_cli(const std::string& args, bool stderr_too = true) {
  CliRun r;
  // Appended piece by piece: g++ 12 at -O1 warns (-Warray-bounds) about a chain of temporaries.
  const char* path = std::getenv("VOXNAV_CLI_PATH");
  std::string cmd = path != nullptr && *path != '\0' ? path : VOXNAV_CLI;
  cmd.append(" ").append(args).append(stderr_too ? " 2>&1" : " 2>/dev/null");
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

/// Writes `text` to a file `name` in the test's temporary directory; returns its path.
inline std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace voxnav::test
