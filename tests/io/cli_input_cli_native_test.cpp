// The command-line tool's answers to bad input (issue 16's review): a JSON syntax error says so
// and where; a coordinate beyond the cell range says out of range (not "expects integers"); an
// empty number is refused, not read as 0; `voxnav scen` reports rows with an optimal length that
// is no finite length, or written for a map of another size, as bad rows (not searched, never
// passed).
#include <gtest/gtest.h>

#include "cli_run.h"

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

using voxnav::test::CliRun;
using voxnav::test::temp_file;
CliRun cli(const std::string& args) { return voxnav::test::run_cli(args); }

bool has(const std::string& text, const std::string& piece) {
  return text.find(piece) != std::string::npos;
}

TEST(CliInput, AJsonSyntaxErrorSaysSoAndWhere) {
  const std::string path = temp_file("cli_input_bad.json", "{\"world\": \"r.0.-1.mca\", \"ticks\": }");
  const CliRun r = cli("run --script " + path);
  EXPECT_EQ(r.code, 2) << r.out;
  // (byte 34 is the '}' where a value was due)
  EXPECT_TRUE(has(r.out, "JSON syntax error at byte 34: syntax error while parsing value - "
                         "unexpected '}'")) << r.out;
  EXPECT_FALSE(has(r.out, "not a JSON object")) << r.out;
  // Valid JSON of another type is still "not a JSON object".
  const std::string arr = temp_file("cli_input_array.json", "[1, 2]");
  const CliRun a = cli("run --script " + arr);
  EXPECT_EQ(a.code, 2) << a.out;
  EXPECT_TRUE(has(a.out, "not a JSON object")) << a.out;
  std::remove(path.c_str());
  std::remove(arr.c_str());
}

TEST(CliInput, ACoordinateBeyondTheCellRangeIsOutOfRange) {
  CliRun r = cli("route nowhere.map --from 2147483647,1,1 --to 1,1,1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(has(r.out, "--from x 2147483647 is out of range: outside -33554431 .. 33554431"))
      << r.out;
  r = cli("route nowhere.map --from 1,1,1 --to 1,99999999999999999999,1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(has(r.out, "--to y 99999999999999999999 is out of range: outside -2047 .. 2047"))
      << r.out;
  r = cli("route nowhere.map --from 1,a,1 --to 1,1,1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(has(r.out, "--from expects X,Y,Z integers, got '1,a,1'")) << r.out;
}

TEST(CliInput, AnEmptyNumberIsRefused) {
  for (const char* opt : {"--threads", "--agents", "--ticks", "--seed"}) {
    const CliRun r = cli(std::string("run ") + opt + " \"\"");
    EXPECT_EQ(r.code, 2) << opt << ": " << r.out;
    EXPECT_TRUE(has(r.out, std::string("voxnav run: ") + opt + " expects")) << r.out;
  }
}

TEST(CliInput, ScenRowsWithNoFiniteLengthOrAnotherMapSizeAreBad) {
  // A 4 x 4 open map: row 1 is fine (length 3), row 2 says inf, row 3 is for a 5 x 5 map, row 4
  // says nan.
  const std::string map = temp_file("cli_input.map",
                                    "type octile\nheight 4\nwidth 4\nmap\n....\n....\n....\n....\n");
  const std::string scen = temp_file(
      "cli_input.map.scen",
      "version 1\n"
      "0\tcli_input.map\t4\t4\t0\t0\t3\t0\t3\n"
      "0\tcli_input.map\t4\t4\t0\t0\t3\t0\tinf\n"
      "0\tcli_input.map\t5\t5\t0\t0\t3\t0\t3\n"
      "0\tcli_input.map\t4\t4\t0\t0\t3\t0\tnan\n");
  const CliRun r = cli("scen " + map + " " + scen);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r.out, "BAD row 2: optimal length inf is not a finite length; not searched"))
      << r.out;
  EXPECT_TRUE(has(r.out, "BAD row 3: the row is for a 5 x 5 map, the map is 4 x 4 tiles; not searched"))
      << r.out;
  EXPECT_TRUE(has(r.out, "BAD row 4: optimal length nan is not a finite length")) << r.out;
  EXPECT_TRUE(has(r.out, "1 passed, 3 failed (3 bad rows: not searched)")) << r.out;
  std::remove(map.c_str());
  std::remove(scen.c_str());
}

}  // namespace
