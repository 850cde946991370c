//! Data-driven Last Robot Standing rules tests (`tests/scenarios/lrs/`, run by
//! `scenario_suite`): one folder per clause R1 to R14 (`r06_movement/`...), each file with
//! its expected outcome, and invalid files (`invalid/`) with their located errors.
//!
//! The expected files are written by hand from docs/rules.md, never generated from the
//! engine: a mismatch means either the engine or the reasoning is wrong, and the report (file
//! name, each differing path, both values in full) is meant to make deciding which quick.
//! Set `SCENARIO=part_of_a_name` to run only the matching files.

mod scenario_suite;

#[test]
fn rule_scenarios_match_their_expected_outcomes() {
    scenario_suite::run_suite("lrs", "Last Robot Standing", false, 118);
}

#[test]
fn invalid_scenarios_are_rejected_with_located_errors() {
    scenario_suite::run_suite("lrs", "Last Robot Standing", true, 30);
}
