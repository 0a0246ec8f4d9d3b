// `voxnav scen3d` end to end: the first 300 rows of Simple in both modes end with "300 passed,
// 0 failed"; a bad map, a bad scen row and a bad --mode are refused with the line and a non-zero
// exit code.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "cli_run.h"
#include "scenes.h"

namespace voxnav {
namespace {

using Result = test::CliRun;
using test::run_cli;
using test::temp_file;

std::string simple(const char* suffix) {
  return std::string(VOXNAV_SHARED_DATA) + "/movingai-3d/Simple.3dmap" + suffix;
}

TEST(Scen3dCli, SimpleRowsPassInBothModes) {
  const Result r = run_cli("scen3d " + simple("") + " " + simple(".3dscen") + " --mode both --rows 300");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\n300 passed, 0 failed\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("default mode: 300 of 300 rows found"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bytes per voxel"), std::string::npos) << r.out;
}

TEST(Scen3dCli, BadInputIsRefusedWithTheLine) {
  const std::string map = temp_file("scen3d_bad.3dmap", "voxel 4 4 4\n0 0 0\n0 4 0\n");
  Result r = run_cli("scen3d " + map + " " + simple(".3dscen"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("line 3: voxel (0, 4, 0) is outside the map: y must be in 0 .. 3"), std::string::npos)
      << r.out;
  const std::string small = temp_file("scen3d_small.3dmap", "voxel 4 4 4\n0 0 0\n");
  const std::string scen = temp_file("scen3d_bad.3dscen", "version 1\nx.3dmap\n1 1 1 2 2 2 1.7320508 1\n1 1 1 2 2 9 7 1\n");
  r = run_cli("scen3d " + small + " " + scen);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("line 4: goal (2, 2, 9) is outside the map"), std::string::npos) << r.out;
  r = run_cli("scen3d " + small + " " + scen + " --mode fastest");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown --mode 'fastest'"), std::string::npos) << r.out;
  // Option values: a missing value is named as missing; --rows takes decimal digits up to the
  // row limit (a huge count was clamped silently, "" and "+5" were read by strtoll).
  r = run_cli("scen3d " + small + " " + scen + " --mode");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--mode needs a value"), std::string::npos) << r.out;
  r = run_cli("scen3d " + small + " " + scen + " --rows");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--rows needs a value"), std::string::npos) << r.out;
  for (const char* bad : {"99999999999999999999999", "4194305", "''", "+5", "0x10", "-1", "5x"}) {
    r = run_cli("scen3d " + small + " " + scen + " --rows " + bad);
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.out.find("--rows expects a count 0 .. 4194304"), std::string::npos) << r.out;
  }
  // A good pair: one row, exact.
  const std::string good = temp_file("scen3d_good.3dscen", "version 1\nx.3dmap\n1 1 1 2 2 2 1.73205081 1\n");
  r = run_cli("scen3d " + small + " " + good);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\n1 passed, 0 failed\n"), std::string::npos) << r.out;
  // Default mode: a row whose optimum is impossible fails (optimal 0 between different voxels,
  // an optimum below the straight-line bound or above the path found); a row from a voxel to
  // itself with optimal 0 passes.
  const std::string zero = temp_file("scen3d_zero.3dscen", "version 1\nx.3dmap\n1 1 1 2 2 2 0 1\n");
  r = run_cli("scen3d " + small + " " + zero + " --mode default");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("FAIL line 3: (1,1,1) -> (2,2,2): optimal 0.00000000 is impossible: below the straight-line "
                       "bound 1.73205081"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\n0 passed, 1 failed\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no passed row with an optimum above 0"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("mean 0.000"), std::string::npos) << r.out;
  const std::string odd = temp_file("scen3d_odd.3dscen",
                                    "version 1\nx.3dmap\n1 1 1 1 1 1 0 1\n1 1 1 3 1 1 2 1\n1 1 1 3 1 1 2.5 1\n"
                                    "1 1 1 3 1 1 1.9 1\n");
  r = run_cli("scen3d " + small + " " + odd + " --mode default");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("FAIL line 5: (1,1,1) -> (3,1,1): optimal 2.50000000 is impossible: above the default path's "
                       "length 2.00000000"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("FAIL line 6: (1,1,1) -> (3,1,1): optimal 1.90000000 is impossible: below"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\n2 passed, 2 failed\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mean 1.000, median 1.000"), std::string::npos) << r.out;
  r = run_cli("scen3d " + small + " " + good + " --rows 4194304");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\n1 passed, 0 failed\n"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace voxnav
