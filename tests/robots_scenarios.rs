//! Data-driven Robots rules tests (`tests/scenarios/robots/`, run by `scenario_suite`).
//!
//! The expected files are written from docs/robots.md, not generated from the engine;
//! only the square of the one unsafe teleport drawn among several (from the seed) was read
//! off a run and then checked against RB4 by hand. File names start with the clause they
//! pin down. Set `SCENARIO=part_of_a_name` to run only the matching files.

mod scenario_suite;

#[test]
fn robots_scenarios_match_their_expected_outcomes() {
    scenario_suite::run_suite("robots", "Robots", false, 25);
}

#[test]
fn invalid_robots_scenarios_are_rejected_with_located_errors() {
    scenario_suite::run_suite("robots", "Robots", true, 15);
}
