//! Data-driven RoboRally rules tests (`tests/scenarios/roborally/`, run by
//! `scenario_suite`): at least one file per clause RR1 to RR13 (file names start with the
//! clause they pin down), and invalid files with their located errors.
//!
//! Every expected file was checked by hand against docs/roborally.md: positions, facings,
//! hit points, event order and scores. Set `SCENARIO=part_of_a_name` to run only the
//! matching files.

mod scenario_suite;

#[test]
fn roborally_scenarios_match_their_expected_outcomes() {
    scenario_suite::run_suite("roborally", "RoboRally", false, 20);
}

#[test]
fn invalid_roborally_scenarios_are_rejected_with_located_errors() {
    scenario_suite::run_suite("roborally", "RoboRally", true, 10);
}

/// Every clause RR1 to RR13 has a scenario.
#[test]
fn every_clause_has_a_scenario() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/roborally");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    for clause in 1..=13 {
        let prefix = format!("rr{clause}_");
        assert!(
            names.iter().any(|n| n.starts_with(&prefix)),
            "no scenario for RR{clause}"
        );
    }
}
