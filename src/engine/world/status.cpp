#include "voxnav/status.h"

namespace voxnav {

const char* status_name(Status s) noexcept {
  switch (s) {
    case Status::Ok: return "Ok";
    case Status::InvalidArgument: return "InvalidArgument";
    case Status::OutOfRange: return "OutOfRange";
    case Status::NotLoaded: return "NotLoaded";
    case Status::NotFound: return "NotFound";
    case Status::StaleHandle: return "StaleHandle";
    case Status::BadFormat: return "BadFormat";
    case Status::Unsupported: return "Unsupported";
    case Status::Busy: return "Busy";
    case Status::OutOfMemory: return "OutOfMemory";
  }
  return "Unknown";
}

}  // namespace voxnav
