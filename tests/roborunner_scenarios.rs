//! Data-driven Robo Runner rules tests (`tests/scenarios/roborunner/`, run by
//! `scenario_suite`): files named after the clause they pin down (RN2 to RN14), and
//! invalid files with their located errors.
//!
//! Every expected file was checked by hand against docs/roborunner.md: positions, facings,
//! damage, the turn order, event order and scores. Set `SCENARIO=part_of_a_name` to run
//! only the matching files.

mod scenario_suite;

#[test]
fn roborunner_scenarios_match_their_expected_outcomes() {
    scenario_suite::run_suite("roborunner", "Robo Runner", false, 31);
}

#[test]
fn invalid_roborunner_scenarios_are_rejected_with_located_errors() {
    scenario_suite::run_suite("roborunner", "Robo Runner", true, 16);
}

/// The clauses of the core game, the equipment and the scanners each have a scenario.
#[test]
fn every_core_clause_has_a_scenario() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/roborunner");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    for clause in [3, 5, 7, 8, 9, 10, 11, 12, 13, 14] {
        let prefix = format!("rn{clause}_");
        assert!(
            names.iter().any(|n| n.starts_with(&prefix)),
            "no scenario for RN{clause}"
        );
    }
}
