// voxnav - the command-line tool: run (the main job), route (plan and explain one route),
// scen (solve a Moving AI benchmark).
#include <cstdio>
#include <cstring>
#include <string>

#include "cli_common.h"

namespace {
void usage() {
  std::puts(
      "usage: voxnav <command> [options]\n"
      "  run [WORLD] [--agents N] [--ticks T] [--seed S] [--edits-per-second E] [--threads K]\n"
      "      [--searches-per-update B] [--nav FILE] [--json]\n"
      "      walker agents go to random reachable goals while blocks change; prints a summary.\n"
      "      B caps the path searches dispatched per tick (default 256, the World's; 0: no limit).\n"
      "      WORLD defaults to the region shipped in data/worlds.\n"
      "  run --script FILE [WORLD] [--threads K] [--json]\n"
      "      replays a scripted scenario (agents, goals, edits at fixed ticks) and prints the\n"
      "      state hash of positions and corridors (the wasm package gives the same).\n"
      "      --nav FILE imports saved navigation (nav-export) instead of building it.\n"
      "  nav-export WORLD OUT [--profile FILE]... [--blocks] [--json]\n"
      "      builds WORLD's navigation (and that of each profile's class) and saves it to OUT.\n"
      "  nav-import WORLD FILE [--compare] [--json]\n"
      "      imports saved navigation into WORLD's blocks and reports it; --compare also builds\n"
      "      it and checks both agree (island and standable counts), with both times.\n"
      "  route WORLD --from X,Y,Z --to X,Y,Z [--profile FILE] [--json]\n"
      "      plans one route and explains it: reachability, status, cost, cells, corridor.\n"
      "  moves WORLD [--profile FILE] [--limit CELLS] [--json]\n"
      "      drives every planned move of every standable cell (or an even sample of CELLS\n"
      "      cells) with the movement step, and the unplanned candidates between neighbouring\n"
      "      cells: planned but not executable (exit 3 when any), executable but not planned.\n"
      "  scen MAP SCEN [--json]\n"
      "      solves every row of a Moving AI .map/.scen pair and compares with the optimal "
      "lengths.\n"
      "  scen3d MAP SCEN [--mode optimal|default|both] [--rows N] [--json]\n"
      "      solves a Moving AI voxel benchmark (.3dmap/.3dscen) with the flight search and\n"
      "      compares with the optimal lengths (the first N rows with --rows); default mode\n"
      "      reports its length / the optimum.\n"
      "WORLD is a Minecraft region (.mca), a Sponge schematic (.schem) or a Moving AI map (.map).");
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") ||
      !std::strcmp(argv[1], "help")) {
    usage();
    return argc < 2 ? 2 : 0;
  }
  const std::string cmd = argv[1];
  if (cmd == "run") return voxnav::cli::cmd_run(argc - 2, argv + 2);
  if (cmd == "route") return voxnav::cli::cmd_route(argc - 2, argv + 2);
  if (cmd == "moves") return voxnav::cli::cmd_moves(argc - 2, argv + 2);
  if (cmd == "scen") return voxnav::cli::cmd_scen(argc - 2, argv + 2);
  if (cmd == "scen3d") return voxnav::cli::cmd_scen3d(argc - 2, argv + 2);
  if (cmd == "nav-export") return voxnav::cli::cmd_nav_export(argc - 2, argv + 2);
  if (cmd == "nav-import") return voxnav::cli::cmd_nav_import(argc - 2, argv + 2);
  std::fprintf(stderr, "voxnav: unknown command '%s'\n", cmd.c_str());
  usage();
  return 2;
}
