#include "voxnav/save.h"

#include <string>

#include "api_text.h"
#include "engine/nav/world_access.h"
#include "engine/nav/world_state.h"
#include "engine/save/nav_save.h"
#include "voxnav/world.h"

namespace voxnav {

static_assert(kNavigationFormatVersion == detail::kNavSaveVersion);

using detail::fail;

Status export_navigation(World& world, const ExportDef& def, std::vector<std::uint8_t>* out,
                         CallError* error) {
  if (!out) return fail(error, "export_navigation", "out", "out is null", Status::InvalidArgument);
  std::string msg;
  detail::NavExportOptions opt;
  opt.include_blocks = def.include_blocks;
  const Status st = detail::export_nav(detail::WorldAccess::state(world), opt, *out, &msg);
  if (st != Status::Ok) return fail(error, "export_navigation", "world", std::move(msg), st);
  return Status::Ok;
}

Status navigation_info(std::span<const std::uint8_t> bytes, NavigationInfo* out, CallError* error) {
  if (!out) return fail(error, "navigation_info", "out", "out is null", Status::InvalidArgument);
  std::string msg;
  detail::NavFileHeader h;
  const Status st = detail::read_nav_header(bytes, &h, &msg);
  out->library_version = h.library;
  if (st != Status::Ok) return fail(error, "navigation_info", "bytes", std::move(msg), st);
  *out = NavigationInfo{h.version, h.library, h.blocks, h.chunks, h.classes};
  return Status::Ok;
}

Status import_navigation(World& world, std::span<const std::uint8_t> bytes, ImportReport* report,
                         CallError* error) {
  std::string msg;
  detail::NavImportSummary sum;
  const Status st = detail::import_nav(detail::WorldAccess::state(world), bytes, &sum, &msg);
  if (st != Status::Ok)
    return fail(error, "import_navigation", st == Status::Busy ? "world" : "bytes", std::move(msg),
                st);
  if (report) *report = ImportReport{sum.chunks, sum.classes, sum.blocks};
  return Status::Ok;
}

}  // namespace voxnav
