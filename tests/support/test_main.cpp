// main() of every suite (instead of gtest_main). Built twice: voxnav_test_main, and
// voxnav_test_main_shared_data (VOXNAV_TEST_NEEDS_SHARED_DATA) for the suites that read
// ../shared/data: when that directory is absent they skip with a message instead of failing.
#include <gtest/gtest.h>

#include "scenes.h"

namespace {

class SharedDataEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    if (!voxnav::test::shared_data_present())
      GTEST_SKIP() << "needs ../shared/data: " << voxnav::test::shared_data_dir()
                   << " not found (set VOXNAV_SHARED_DATA_DIR to its location)";
  }
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
#ifdef VOXNAV_TEST_NEEDS_SHARED_DATA
  ::testing::AddGlobalTestEnvironment(new SharedDataEnvironment);
#endif
  return RUN_ALL_TESTS();
}
