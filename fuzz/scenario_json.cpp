// Fuzzes the scripted-scenario JSON of `voxnav run --script` (voxnav/native/scenario.h) and the
// profiles it carries.
#include "fuzz_common.h"
#include "voxnav/native/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace voxnav;
  native::Scenario sc;
  std::string err, warn;
  if (native::parse_scenario_json({data, size}, &sc, &err) != Status::Ok) {
    if (err.empty()) fuzz::fail("a refused scenario gave no message");
    return 0;
  }
  if (sc.feet.size() != sc.goals.size() || sc.swimmers > sc.feet.size())
    fuzz::fail("scenario agents and goals differ in count");
  if (!(sc.dt > 0 && sc.dt <= 1) || sc.ticks < 0 || sc.ticks > 1000000) fuzz::fail("dt or ticks out of range");
  for (std::size_t i = 0; i < sc.edits.size(); ++i)
    if (sc.edits[i].tick < 0 || sc.edits[i].tick >= sc.ticks ||
        (i && sc.edits[i].tick < sc.edits[i - 1].tick))
      fuzz::fail("an edit tick out of order or range");
  for (const int c : sc.checkpoints)
    if (c < 1 || c > sc.ticks) fuzz::fail("a checkpoint out of range");
  Profile p;
  (void)parse_profile_json(sc.profile_json, p, &err, &warn, "script profile");
  if (!sc.swimmer_json.empty())
    (void)parse_profile_json(sc.swimmer_json, p, &err, &warn, "script swimmers.profile");
  return 0;
}
