//! Data-driven RobotGame rules tests (`tests/scenarios/robotgame/`, run by `scenario_suite`).
//!
//! The expected files are written from docs/robotgame.md, not generated from the engine;
//! only the squares of spawned robots (drawn from the seed) were read off a run and then
//! checked against RG5 by hand (mirrored for two seats, distinct, on spawn squares).
//! File names start with the clause they pin down. Set `SCENARIO=part_of_a_name` to run
//! only the matching files.

mod scenario_suite;

#[test]
fn robotgame_scenarios_match_their_expected_outcomes() {
    scenario_suite::run_suite("robotgame", "RobotGame", false, 25);
}

#[test]
fn invalid_robotgame_scenarios_are_rejected_with_located_errors() {
    scenario_suite::run_suite("robotgame", "RobotGame", true, 8);
}
