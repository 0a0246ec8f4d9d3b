// voxnav - numbers from a scripting host (JS numbers are doubles) to the API's types, for
// bindings: each refusal is a CallError naming the argument `name` and the number as
// number_text writes it ("agent 1.5 is not an agent id"). Ranges are the World's to check.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "voxnav/agents.h"
#include "voxnav/error.h"
#include "voxnav/ids.h"
#include "voxnav/integrate.h"
#include "voxnav/requests.h"
#include "voxnav/types.h"
#include "voxnav/world.h"

namespace voxnav {

/// Three numbers as a cell (or a chunk position, `what` "a chunk position"): integers an int32
/// holds. Returns: Ok; InvalidArgument ("<name> (x, y, z) is not <what> (integers expected)");
/// OutOfRange (an integer no int32 holds).
[[nodiscard]] Status from_numbers(const double* xyz, const std::string& name, CellPos* out,
                                  CallError* error, const char* what = "a cell");
/// One number as the type `out` points to. An int: an integer an int32 holds. Returns: Ok;
/// InvalidArgument ("<name> <v> is not an integer").
[[nodiscard]] Status from_number(double v, const std::string& name, int* out, CallError* error);
/// A block value: an integer a double holds exactly (|v| <= 2^53). Returns: Ok; InvalidArgument.
[[nodiscard]] Status from_number(double v, const std::string& name, std::int64_t* out,
                                 CallError* error);
/// A profile id, an agent id or a path handle from its id number (voxnav/ids.h), of the World
/// of id tag `tag` (World::id_tag; 0: of any World). Returns: Ok; InvalidArgument ("<name> <v>
/// is not an agent id", "... is a path handle, not an agent id", "... is an agent id of another
/// World").
[[nodiscard]] Status from_number(double v, const std::string& name, ProfileId* out,
                                 CallError* error, std::uint32_t tag = 0);
[[nodiscard]] Status from_number(double v, const std::string& name, AgentId* out, CallError* error,
                                 std::uint32_t tag = 0);
[[nodiscard]] Status from_number(double v, const std::string& name, PathHandle* out,
                                 CallError* error, std::uint32_t tag = 0);
/// A host entity's id (voxnav/control.h) as a number, and back. Entity numbers are
/// (generation * 2^21 + index) * 4 with kind bits 0 (IdKind::None: no agent, path or profile
/// conversion takes one) and a generation that is never 0 and holds the World's tag as an agent
/// id's does. id_number: false when the id has no number (an index >= 2^21, a generation of 2^30
/// or more). from_number: Ok; InvalidArgument ("<name> <v> is not an entity id", "... is an
/// agent id, not an entity id", "... is an entity id of another World").
[[nodiscard]] bool id_number(EntityId entity, double* out) noexcept;
[[nodiscard]] Status from_number(double v, const std::string& name, EntityId* out,
                                 CallError* error, std::uint32_t tag = 0);
/// An area filter from a mask of excluded areas (bit i: area i) and a multiplier per area (at
/// most kMaxAreas; the World checks their values). Returns: Ok; InvalidArgument (argument
/// "filter": excluded is not a 32-bit mask, or more than kMaxAreas multipliers).
[[nodiscard]] Status area_filter_of_numbers(double excluded, std::span<const double> multipliers,
                                            AreaFilter* out, CallError* error);
/// The refusal of a host value that is not of the type a call takes (a JS value that is no
/// string, no typed array): InvalidArgument naming `name`, "<what> must be <type>" (`what`
/// empty: `name`), e.g. "name must be a string". Always returns InvalidArgument.
[[nodiscard]] Status wrong_type(const std::string& name, const char* type, CallError* error,
                                const std::string& what = "");

/// The id numbers of ids a World just gave (voxnav/ids.h), appended to `out`, for a host that
/// hands ids out as numbers. Returns: Ok; Unsupported when an id has none ("more than 2097152
/// agents", "more than 524288 requests of one class are held; release some"): `out` unchanged.
[[nodiscard]] Status id_numbers(std::span<const AgentId> agents, std::vector<double>* out,
                                CallError* error);
[[nodiscard]] Status id_number(PathHandle path, double* out, CallError* error);
/// World::add_agents(defs, ..., list) for a host that hands ids out as numbers: `ids` and
/// `numbers` (replaced) get the new agents' ids and id numbers. Returns: Ok; what add_agents
/// returns (`error` gets world.last_error(); nothing added); Unsupported when an agent has no id
/// number (more than 2097152 agents): every agent of the batch is removed again.
[[nodiscard]] Status add_agents_numbered(World& world, std::span<const AgentDef> defs,
                                         const std::string& list, std::vector<AgentId>* ids,
                                         std::vector<double>* numbers, CallError* error);

/// A block value for a call taking a uint16 (World::set_block_traits, block_def): an integer in
/// 0 .. block_count - 1 is passed on (the World checks it against its registry); another integer
/// is refused here, as no value of the registry. Returns: Ok; InvalidArgument (not an integer,
/// argument `name`); OutOfRange ("value 70000 is not in the block registry (values 0 .. 99)").
[[nodiscard]] Status block_value_of_number(double v, const std::string& name,
                                           std::size_t block_count, std::uint16_t* out,
                                           CallError* error);

/// A path request from numbers: `profile` an id number of the World of tag `tag`, `start` and
/// `goal` three numbers each (a cell), `range` an int (the World checks [Limit: 0..kMaxGoalRange]),
/// the filter as area_filter_of_numbers. Returns: Ok; InvalidArgument naming the first argument
/// that does not convert ("profile", "start" (also: not 3 numbers), "goal", "range", "filter");
/// OutOfRange (a cell no int32 holds).
[[nodiscard]] Status request_of_numbers(double profile, std::span<const double> start,
                                        std::span<const double> goal, double range, bool toward,
                                        double excluded, std::span<const double> multipliers,
                                        std::uint32_t tag, NavRequest* out, CallError* error);

// ---- batches: entry i of a batch named `list` is named "<list>[i].<field>" in messages (the
// field alone when `list` is "", a batch of one). Entries come as parallel flat arrays; every
// entry is converted before `out` (replaced) is written. Returns: Ok; InvalidArgument (arrays
// whose lengths do not match, argument `list`; the first field that does not convert, named);
// OutOfRange (a cell no int32 holds). Ranges, liveness and duplicates are the World's to check.

/// World::add_agents entries: profiles n id numbers, feet 3n (metres), goals 4n: a flag (0: the
/// entry has no goal, else it has one) then the goal cell, so every goal number given is checked
/// (a NaN in a goal is refused, never read as "no goal").
[[nodiscard]] Status agent_defs_of_numbers(std::span<const double> profiles,
                                           std::span<const double> feet,
                                           std::span<const double> goals, const std::string& list,
                                           std::uint32_t tag, std::vector<AgentDef>* out,
                                           CallError* error);
/// World::set_agent_goals entries: agents n id numbers, goals 3n (cells).
[[nodiscard]] Status agent_goals_of_numbers(std::span<const double> agents,
                                            std::span<const double> goals, const std::string& list,
                                            std::uint32_t tag, std::vector<AgentGoal>* out,
                                            CallError* error);
/// World::teleport_agents entries: agents n id numbers, feet 3n (metres).
[[nodiscard]] Status agent_moves_of_numbers(std::span<const double> agents,
                                            std::span<const double> feet, const std::string& list,
                                            std::uint32_t tag, std::vector<AgentMove>* out,
                                            CallError* error);
/// World::set_blocks entries: boxes 6n (min x, y, z, max x, y, z), values n (integer block
/// values), single n (1: the entry is one cell, min == max, named "cell"; 0: a box).
[[nodiscard]] Status block_edits_of_numbers(std::span<const double> boxes,
                                            std::span<const double> values,
                                            std::span<const std::uint8_t> single,
                                            const std::string& list, std::vector<BlockEdit>* out,
                                            CallError* error);
/// Chunk positions: 3 ints per chunk. Returns: Ok; InvalidArgument (argument "positions": a
/// length that is not a multiple of 3).
[[nodiscard]] Status chunk_positions_of_numbers(std::span<const std::int32_t> xyz,
                                                std::vector<ChunkPos>* out, CallError* error);
/// One movement step's arguments from 26 numbers: state feet 3, velocity 3, carry 3, onGround,
/// mode (BodyMode), input move x, z, jump, climb (ClimbIntent), vertical, knock 3, then the 7
/// BodyParams fields in their order. A mode or intent that is no enum value is passed on as 255,
/// which step_body refuses naming it. Returns: Ok; InvalidArgument (argument "state": not 26
/// numbers).
[[nodiscard]] Status body_step_of_numbers(std::span<const double> packed, BodyState* state,
                                          BodyInput* input, BodyParams* params, CallError* error);

}  // namespace voxnav
