//! Integration tests of the board formats: the TOML board files of boards.md, the Windward
//! `<map>` XML, the shipped boards and the text rendering, through the public API only.

use lrs_tourney::games::lrs::boards::{
    self, BoardFileError, GridContext, GridOrigin, Problem, from_windward_map, load_board,
    parse_board, parse_grid, playability_problems, print_board, random_board, render_board,
    shipped_boards, to_windward_map,
};
use lrs_tourney::games::lrs::engine::{
    Board, Direction, Laser, Pos, Rotation, Square, Tile, Walls,
};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// Helpers

/// A board file whose grid starts on line 3 (line 1 name, line 2 `grid = """`).
fn file_with_grid(rows: &[&str]) -> String {
    let mut text = "name = \"Bad\"\ngrid = \"\"\"\n".to_owned();
    for row in rows {
        text.push_str(row);
        text.push('\n');
    }
    text.push_str("\"\"\"\n");
    text
}

/// Parses `text` as `bad.toml`, expecting an error whose message starts with `at` and
/// contains every `part`.
fn expect_error(text: &str, at: &str, parts: &[&str]) -> BoardFileError {
    let err = match parse_board(text, "bad.toml") {
        Ok(_) => panic!("expected an error at {at}, got a board from:\n{text}"),
        Err(e) => e,
    };
    let message = err.to_string();
    assert!(
        message.starts_with(&format!("{at}: ")),
        "expected the error at {at}, got: {message}"
    );
    for part in parts {
        assert!(
            message.contains(part),
            "expected {part:?} in the message: {message}"
        );
    }
    err
}

fn effective_walls(board: &Board) -> Vec<bool> {
    (0..board.len())
        .flat_map(|i| Direction::ALL.map(|d| board.wall_on(board.pos(i), d)))
        .collect()
}

fn tiles(board: &Board) -> Vec<Tile> {
    board.squares().iter().map(|s| s.tile).collect()
}

fn laser_mounts(board: &Board) -> Vec<(Pos, Direction)> {
    board.lasers().iter().map(|&(p, l)| (p, l.dir)).collect()
}

/// Checks board -> Windward XML -> board keeps tiles, laser mounts and directions, and
/// effective walls (start squares and laser strengths are not part of the XML).
fn assert_windward_round_trip(board: &Board) {
    let xml = to_windward_map(board);
    let back = match from_windward_map(&xml) {
        Ok(b) => b,
        Err(e) => panic!("{e}\n{xml}"),
    };
    assert_eq!(
        (back.width(), back.height()),
        (board.width(), board.height())
    );
    assert_eq!(tiles(&back), tiles(board));
    assert_eq!(laser_mounts(&back), laser_mounts(board));
    assert_eq!(effective_walls(&back), effective_walls(board));
    assert!(back.starts().is_empty());
    // Converting again is stable.
    assert_eq!(to_windward_map(&back), xml);
}

// ---------------------------------------------------------------------------------------
// Shipped boards

#[test]
fn there_are_at_least_four_shipped_boards_with_matching_names() {
    let shipped = shipped_boards();
    assert!(shipped.len() >= 4);
    for s in &shipped {
        let board = s.board().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(board.name(), s.name);
        assert_eq!(
            s.stem(),
            s.name.to_lowercase().replace(' ', "-"),
            "file name should be the name in kebab case"
        );
        assert!(
            !board.description().is_empty(),
            "{} lacks a description",
            s.name
        );
    }
    let mut names: Vec<_> = shipped.iter().map(|s| s.name).collect();
    names.dedup();
    assert_eq!(names.len(), shipped.len());
}

#[test]
fn shipped_boards_match_the_files_on_disk() {
    for s in shipped_boards() {
        let path = format!(
            "{}/configs/boards/{}",
            env!("CARGO_MANIFEST_DIR"),
            s.file_name
        );
        let disk = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(disk, s.toml);
    }
}

#[test]
fn shipped_boards_are_playable() {
    for s in shipped_boards() {
        let board = s.board().unwrap_or_else(|e| panic!("{e}"));
        let problems = playability_problems(&board);
        assert!(problems.is_empty(), "{}: {problems:#?}", s.name);
        assert_eq!(board.flags().len(), 3, "{}", s.name);
        assert_eq!(board.starts().len(), 8, "{}", s.name);
    }
}

#[test]
fn every_flag_is_reachable_on_foot_from_every_start() {
    for s in shipped_boards() {
        let board = s.board().unwrap_or_else(|e| panic!("{e}"));
        for &start in board.starts() {
            let reach = boards::walkable_from(&board, start);
            for &flag in board.flags() {
                assert!(reach[board.index(flag)], "{}: {flag} from {start}", s.name);
            }
        }
    }
}

#[test]
fn shipped_boards_have_every_kind_of_element() {
    for s in shipped_boards() {
        let board = s.board().unwrap_or_else(|e| panic!("{e}"));
        let t = tiles(&board);
        let name = s.name;
        assert!(t.contains(&Tile::Pit), "{name}: pits");
        assert!(t.contains(&Tile::Repair), "{name}: repair squares");
        assert!(t.contains(&Tile::Gear(Rotation::Clockwise)), "{name}: G+");
        assert!(
            t.contains(&Tile::Gear(Rotation::CounterClockwise)),
            "{name}: G-"
        );
        let belts: Vec<_> = t.iter().filter_map(|t| t.conveyor()).collect();
        assert!(belts.iter().any(|b| !b.1), "{name}: normal belts");
        assert!(belts.iter().any(|b| b.1), "{name}: express belts");
        let curve = (0..board.len()).any(|i| {
            let p = board.pos(i);
            let Some((dir, _)) = board.square(p).tile.conveyor() else {
                return false;
            };
            let next = p.step(dir);
            !board.blocked(p, dir)
                && board
                    .tile(next)
                    .and_then(Tile::conveyor)
                    .is_some_and(|(d, _)| d == dir.left() || d == dir.right())
        });
        assert!(curve, "{name}: a belt feeding a belt at a quarter turn");
        assert!(
            board.squares().iter().any(|s| !s.walls.is_empty()),
            "{name}: walls"
        );
        assert!(!board.lasers().is_empty(), "{name}: lasers");
        assert!(
            board.lasers().iter().any(|(_, l)| l.strength >= 2),
            "{name}: a laser of strength 2 or 3"
        );
    }
}

#[test]
fn shipped_boards_are_original_and_distinct() {
    let grids: Vec<Vec<Tile>> = shipped_boards()
        .iter()
        .map(|s| tiles(&s.board().unwrap_or_else(|e| panic!("{e}"))))
        .collect();
    for (i, a) in grids.iter().enumerate() {
        for b in &grids[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

#[test]
fn shipped_files_are_printed_exactly_as_stored() {
    // "parse then print gives the same grid": the shipped files are in printed form.
    for s in shipped_boards() {
        let board = s.board().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(print_board(&board), s.toml, "{}", s.name);
    }
}

#[test]
fn shipped_boards_round_trip_through_print_and_windward() {
    for s in shipped_boards() {
        let board = s.board().unwrap_or_else(|e| panic!("{e}"));
        let again = parse_board(&print_board(&board), "printed.toml");
        assert_eq!(again.as_ref(), Ok(&board));
        assert_windward_round_trip(&board);
    }
}

#[test]
fn load_board_finds_shipped_boards_by_name_stem_or_path() {
    let by_name = load_board("corridor dash").unwrap_or_else(|e| panic!("{e}"));
    let by_stem = load_board("corridor-dash").unwrap_or_else(|e| panic!("{e}"));
    let by_title = load_board("Corridor Dash").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(by_name, by_stem);
    assert_eq!(by_name, by_title);
    let path = format!(
        "{}/configs/boards/foundry-loop.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let by_path = load_board(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(by_path.name(), "Foundry Loop");
    assert_eq!((by_path.width(), by_path.height()), (16, 16));
}

#[test]
fn load_board_names_a_missing_file() {
    let err = load_board("no/such/board.toml").unwrap_err();
    let message = err.to_string();
    assert!(
        message.starts_with("no/such/board.toml: cannot read board file"),
        "{message}"
    );
    assert!(message.contains("corridor-dash"), "{message}");
}

#[test]
fn load_board_reports_errors_in_a_file_with_its_path() {
    let dir = std::env::temp_dir().join(format!("lrs-boards-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let path = dir.join("broken.toml");
    std::fs::write(&path, file_with_grid(&["S1 S2", "F1 cQ"])).unwrap_or_else(|e| panic!("{e}"));
    let shown = path.display().to_string();
    let err = load_board(&shown).unwrap_err();
    assert!(
        err.to_string().starts_with(&format!("{shown}:4:4: ")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn render_fits_80_columns_and_explains_its_symbols() {
    for s in shipped_boards() {
        let board = s.board().unwrap_or_else(|e| panic!("{e}"));
        let text = render_board(&board);
        assert!(text.is_ascii(), "{}", s.name);
        for line in text.lines() {
            assert!(line.len() <= 80, "{}: {line:?}", s.name);
        }
        assert!(text.starts_with(s.name));
        for symbol in [
            "S1", "F1", "##", ">>", "G+", "G-", "---", "|", "*", "Lasers:",
        ] {
            assert!(text.contains(symbol), "{}: {symbol}", s.name);
        }
        let legend = &text[text.find("Legend:").unwrap_or_else(|| panic!("no legend"))..];
        for symbol in ["S1", "F1", "##", " >", ">>", "G+", "G-", "---", "*", " +"] {
            assert!(legend.contains(symbol), "{}: legend lacks {symbol}", s.name);
        }
    }
}

#[test]
fn render_draws_walls_between_squares() {
    let board = parse_board(&file_with_grid(&["S1[E] S2", ".[S]  F1@W2"]), "t.toml")
        .unwrap_or_else(|e| panic!("{e}"));
    let text = render_board(&board);
    assert!(text.contains("\n 0  S1 |S2\n"), "{text}");
    assert!(text.contains("\n 1   .- F1*\n"), "{text}");
    assert!(text.contains("\n    ---\n"), "{text}");
    assert!(
        text.contains("(1,1) fires WEST, strength 2, covers 2 squares"),
        "{text}"
    );
}

// ---------------------------------------------------------------------------------------
// Parser errors: file, line:column, token

#[test]
fn unknown_token_is_located() {
    let text = file_with_grid(&["S1  .   .   F1", ".   .   cQ  .", "S2  .   .   ."]);
    let err = expect_error(
        &text,
        "bad.toml:4:9",
        &[
            "unknown token \"cQ\"",
            "expected a base (. P R F1-F3 S1-S8 cN cE cS cW CN CE CS CW G+ G-) optionally \
             followed by [walls] and @dir[strength]",
        ],
    );
    assert_eq!(err.position(), Some((4, 9)));
    assert_eq!(err.problem().and_then(Problem::token), Some("cQ"));
}

#[test]
fn tabs_and_runs_of_spaces_separate_cells() {
    let text = file_with_grid(&["S1\t.  \t F1", ".\t\tS2 x"]);
    expect_error(&text, "bad.toml:4:7", &["unknown token \"x\""]);
}

#[test]
fn ragged_rows_are_located() {
    let text = file_with_grid(&["S1 . . F1", ". . .", "S2 . . ."]);
    expect_error(
        &text,
        "bad.toml:4:5",
        &["row 2 has 3 cells, expected 4", "\".\""],
    );
    let text = file_with_grid(&["S1 . . F1", ". . . . cE", "S2 . . ."]);
    expect_error(
        &text,
        "bad.toml:4:9",
        &["row 2 has 5 cells, expected 4", "first extra cell \"cE\""],
    );
}

#[test]
fn grids_larger_than_64_or_smaller_than_2_are_refused() {
    let wide: Vec<String> = ["S1", "S2", "F1"]
        .iter()
        .map(|first| format!("{first}{}", " .".repeat(64)))
        .collect();
    let rows: Vec<&str> = wide.iter().map(String::as_str).collect();
    // The 65th cell of row 1 starts at column 1 + 2 + 2 * 63 + 1 = 130.
    expect_error(
        &file_with_grid(&rows),
        "bad.toml:3:130",
        &["grid is 65x3", "expected at most 64x64"],
    );
    let mut tall = vec!["S1 S2", "F1 ."];
    tall.extend(std::iter::repeat_n(". .", 63));
    expect_error(
        &file_with_grid(&tall),
        "bad.toml:67:1",
        &["grid is 2x65", "at \".\"", "expected at most 64x64"],
    );
    expect_error(
        &file_with_grid(&["S1 S2 F1"]),
        "bad.toml:3:1",
        &["grid is 3x1", "expected at least 2x2"],
    );
    expect_error(&file_with_grid(&[]), "bad.toml:3:1", &["grid is empty"]);
}

#[test]
fn flag_numbering_errors_are_located() {
    expect_error(
        &file_with_grid(&["S1 F2", "S2 ."]),
        "bad.toml:3:4",
        &["\"F2\" without F1", "expected flags F1..Fk without gaps"],
    );
    expect_error(
        &file_with_grid(&["S1 F1", "S2 F1[N]"]),
        "bad.toml:4:4",
        &["flag \"F1[N]\" appears twice (first at 3:4)"],
    );
    expect_error(
        &file_with_grid(&["S1 F4", "S2 F1"]),
        "bad.toml:3:4",
        &[
            "flag number out of range in \"F4\"",
            "expected F1, F2 or F3",
        ],
    );
    expect_error(
        &file_with_grid(&["S1 S2", ". ."]),
        "bad.toml:3:1",
        &["no flag", "expected at least F1"],
    );
}

#[test]
fn start_numbering_errors_are_located() {
    expect_error(
        &file_with_grid(&["S1 F1", "S3 ."]),
        "bad.toml:4:1",
        &[
            "\"S3\" without S2",
            "expected start squares S1..Sn without gaps",
        ],
    );
    expect_error(
        &file_with_grid(&["S1 F1 S2", ".  .  S1@E"]),
        "bad.toml:4:7",
        &["start \"S1@E\" appears twice (first at 3:1)"],
    );
    expect_error(
        &file_with_grid(&["S1 F1", "S9 S2"]),
        "bad.toml:4:1",
        &["start number out of range in \"S9\"", "expected S1 to S8"],
    );
    expect_error(
        &file_with_grid(&["S1 F1", ". ."]),
        "bad.toml:3:1",
        &["1 start square(s)", "expected at least S1 and S2"],
    );
}

#[test]
fn lasers_on_pits_and_bad_lasers_are_located() {
    expect_error(
        &file_with_grid(&["S1 F1 S2", ".  .  P[N]@E"]),
        "bad.toml:4:7",
        &["laser on a pit in \"P[N]@E\""],
    );
    expect_error(
        &file_with_grid(&["S1 F1 S2", ".  .  .@E4"]),
        "bad.toml:4:7",
        &["bad laser strength \"4\" in \".@E4\"", "expected 1, 2 or 3"],
    );
    expect_error(
        &file_with_grid(&["S1 F1 S2", ".  .  .@Q"]),
        "bad.toml:4:7",
        &[
            "bad laser direction \"Q\" in \".@Q\"",
            "expected @N, @E, @S or @W",
        ],
    );
}

#[test]
fn bad_walls_are_located() {
    expect_error(
        &file_with_grid(&["S1 F1 S2", ".  .  cE[NN]"]),
        "bad.toml:4:7",
        &["duplicate wall 'N' in \"cE[NN]\"", "at most once"],
    );
    expect_error(
        &file_with_grid(&["S1 F1 S2", ".  .  .[X]"]),
        "bad.toml:4:7",
        &["\".[X]\"", "'X' is not a side", "N E S W"],
    );
    expect_error(
        &file_with_grid(&["S1 F1 S2", ".  .  .[NE"]),
        "bad.toml:4:7",
        &["\".[NE\"", "no closing ]"],
    );
    expect_error(
        &file_with_grid(&["S1 F1 S2", ".  .  .@E[N]"]),
        "bad.toml:4:7",
        &["\".@E[N]\""],
    );
}

#[test]
fn blank_lines_are_ignored_around_the_grid_only() {
    let text = "name = \"Blank\"\ngrid = \"\"\"\n\n  \nS1 F1\nS2 .\n\n\"\"\"\n";
    let board = parse_board(text, "ok.toml").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((board.width(), board.height()), (2, 2));
    let text = "name = \"Blank\"\ngrid = \"\"\"\nS1 F1\n\nS2 .\n\"\"\"\n";
    expect_error(text, "bad.toml:4:1", &["blank line inside the grid"]);
}

#[test]
fn toml_syntax_errors_carry_the_toml_position() {
    let text = "name = \"Bad\"\ngrid = \"\"\"\nS1 F1\nS2 .\n\"\"\"\ndescription = oops\n";
    expect_error(text, "bad.toml:6:15", &["invalid TOML", "oops"]);
    let text = "name = \"Bad\"\nname = \"Again\"\ngrid = '''\nS1 F1\nS2 .\n'''\n";
    expect_error(text, "bad.toml:2:1", &["invalid TOML", "duplicate key"]);
}

#[test]
fn keys_are_checked() {
    let text = "name = \"Bad\"\ngrid = '''\nS1 F1\nS2 .\n'''\nsize = 3\n";
    expect_error(
        text,
        "bad.toml:6:1",
        &[
            "unknown key \"size\"",
            "expected only the keys name, description and grid",
        ],
    );
    let text = "grid = '''\nS1 F1\nS2 .\n'''\n";
    expect_error(text, "bad.toml:1:1", &["missing key \"name\""]);
    let text = "name = \"No grid\"\n";
    expect_error(text, "bad.toml:1:1", &["missing key \"grid\""]);
    let text = "name = 7\ngrid = '''\nS1 F1\nS2 .\n'''\n";
    expect_error(
        text,
        "bad.toml:1:8",
        &["\"name\" has the value 7", "expected a string"],
    );
}

#[test]
fn positions_are_right_in_every_string_form() {
    // Literal multi-line string, content on the same line as the delimiter.
    let text = "name = \"x\"\ngrid = '''S1 F1\nS2 cQ\n'''\n";
    expect_error(text, "bad.toml:3:4", &["\"cQ\""]);
    // Single-line basic string with escapes: positions are those of the file.
    let text = "name = \"x\"\ngrid = \"S1 F1\\nS2\\tcQ\"\n";
    expect_error(text, "bad.toml:2:20", &["\"cQ\""]);
    // Line-ending backslash in a multi-line basic string.
    let text = "name = \"x\"\ngrid = \"\"\"\nS1 \\\n   F1\nS2 cQ\n\"\"\"\n";
    expect_error(text, "bad.toml:5:4", &["\"cQ\""]);
    // Windows line endings.
    let text = "name = \"x\"\r\ngrid = \"\"\"\r\nS1 F1\r\nS2 cQ\r\n\"\"\"\r\n";
    expect_error(text, "bad.toml:4:4", &["\"cQ\""]);
}

// ---------------------------------------------------------------------------------------
// Scenario grids

#[test]
fn scenario_grids_may_lack_flags_and_starts_and_report_file_positions() {
    let ctx = GridContext {
        file: "scenarios/push.toml",
        name: "push",
        description: "",
        require_playable: false,
        origin: GridOrigin::at(7, 1),
    };
    let board = parse_grid(".  cE  cE  P", &ctx).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((board.width(), board.height()), (4, 1));
    assert!(board.flags().is_empty() && board.starts().is_empty());
    let err = parse_grid("\n.  cE\n.  cX\n", &ctx).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("scenarios/push.toml:9:4: unknown token \"cX\""),
        "{err}"
    );
}

#[test]
fn grid_origin_of_a_toml_value_span() {
    let text = "first_turn = 1\ngrid = \"\"\"\nS1 .\n.  cQ\n\"\"\"\n";
    let table = toml::de::DeTable::parse(text).unwrap_or_else(|e| panic!("{e}"));
    let Some(grid) = table.get_ref().get("grid") else {
        panic!("no grid")
    };
    let Some(value) = grid.get_ref().as_str() else {
        panic!("grid is not a string")
    };
    let ctx = GridContext {
        origin: GridOrigin::of_toml_string(text, grid.span(), value),
        ..GridContext::new("s.toml", false)
    };
    let err = parse_grid(value, &ctx).unwrap_err();
    assert!(err.to_string().starts_with("s.toml:4:4: "), "{err}");
}

// ---------------------------------------------------------------------------------------
// Printer and Windward XML

#[test]
fn printer_aligns_columns_and_prints_walls_in_nesw_order() {
    let text = file_with_grid(&["S1 .[WN]@S3 F1", "S2 cE CW[ES]"]);
    let board = parse_board(&text, "t.toml").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        print_board(&board),
        "name = \"Bad\"\ngrid = \"\"\"\nS1  .[NW]@S3  F1\nS2  cE        CW[ES]\n\"\"\"\n"
    );
}

#[test]
fn windward_map_follows_the_protocol() {
    let text = file_with_grid(&["S1[N] cE  F2", "S2    .@E G-", "F1    R   P"]);
    let board = parse_board(&text, "t.toml").unwrap_or_else(|e| panic!("{e}"));
    let xml = to_windward_map(&board);
    let expected = r#"<map width="3" height="3">
  <square x="0" y="0" type="NORMAL" walls="NORTH" flag="0"/>
  <square x="1" y="0" type="CONVEYOR_BELT" walls="" flag="0">
    <conveyor speed="1" direction="EAST" entry=""/>
  </square>
  <square x="2" y="0" type="FLAG" walls="" flag="2"/>
  <square x="0" y="1" type="NORMAL" walls="" flag="0"/>
  <square x="1" y="1" type="NORMAL" walls="" flag="0">
    <laser x="1" y="1" direction="EAST" num-squares="2"/>
  </square>
  <square x="2" y="1" type="ROTATE_COUNTERCLOCKWISE" walls="" flag="0"/>
  <square x="0" y="2" type="FLAG" walls="" flag="1"/>
  <square x="1" y="2" type="REPAIR" walls="" flag="0"/>
  <square x="2" y="2" type="PIT" walls="" flag="0"/>
</map>"#;
    assert_eq!(xml, expected);
    assert_windward_round_trip(&board);
}

#[test]
fn windward_walls_show_on_both_sides_and_entries_list_feeding_belts() {
    let text = file_with_grid(&["S1[E] cS  .", "S2    cE  cN[E]", "F1    .   ."]);
    let board = parse_board(&text, "t.toml").unwrap_or_else(|e| panic!("{e}"));
    let xml = to_windward_map(&board);
    assert!(
        xml.contains(r#"<square x="0" y="0" type="NORMAL" walls="EAST""#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<square x="1" y="0" type="CONVEYOR_BELT" walls="WEST""#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<square x="2" y="1" type="CONVEYOR_BELT" walls="EAST""#),
        "{xml}"
    );
    // (1,1) cE feeds (2,1); (1,0) cS feeds (1,1).
    assert!(
        xml.contains(r#"<conveyor speed="1" direction="NORTH" entry="WEST"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<conveyor speed="1" direction="EAST" entry="NORTH"/>"#),
        "{xml}"
    );
    assert_windward_round_trip(&board);
}

#[test]
fn windward_map_is_found_inside_a_message() {
    let board = random_board(7, 5, 4, 2);
    let message = format!(
        "<?xml version=\"1.0\"?>\n<turn turn=\"1\"><players your-guid=\"g\"/>{}<cards/></turn>",
        to_windward_map(&board)
    );
    let back = from_windward_map(&message).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tiles(&back), tiles(&board));
}

#[test]
fn windward_errors_are_clear() {
    let cases = [
        ("<turn/>", "no <map> element"),
        (
            "<map width=\"2\" height=\"1\"><square x=\"0\" y=\"0\" type=\"NORMAL\" walls=\"\" flag=\"0\"/></map>",
            "square (1,0) is missing",
        ),
        (
            "<map width=\"1\" height=\"1\"><square x=\"0\" y=\"0\" type=\"LAVA\" walls=\"\" flag=\"0\"/></map>",
            "type=\"LAVA\"",
        ),
        (
            "<map width=\"1\" height=\"1\"><square x=\"0\" y=\"0\" type=\"NORMAL\" walls=\"UP\" flag=\"0\"/></map>",
            "walls=\"UP\"",
        ),
        (
            "<map width=\"1\" height=\"1\"><square x=\"0\" y=\"3\" type=\"NORMAL\" walls=\"\" flag=\"0\"/></map>",
            "outside the 1x1 map",
        ),
        (
            "<map width=\"1\" height=\"1\"><square x=\"0\" y=\"0\" type=\"CONVEYOR_BELT\" walls=\"\" flag=\"0\"/></map>",
            "no <conveyor> child",
        ),
        ("<map width=\"1\"", "malformed XML"),
        (
            "<map width=\"1\" height=\"1\"><square y=\"0\" type=\"NORMAL\"/></map>",
            "lacks the attribute \"x\"",
        ),
    ];
    for (xml, part) in cases {
        let err = from_windward_map(xml).unwrap_err().to_string();
        assert!(err.contains(part), "{xml}: {err}");
    }
}

// ---------------------------------------------------------------------------------------
// Random boards and the round-trip property

#[test]
fn random_boards_are_playable_and_deterministic() {
    for seed in 0..40 {
        for (w, h, players) in [(2, 2, 8), (3, 2, 2), (12, 12, 8), (16, 16, 4), (30, 7, 6)] {
            let board = random_board(seed, w, h, players);
            let problems = playability_problems(&board);
            assert!(problems.is_empty(), "{seed} {w}x{h}: {problems:?}");
            let expected = players.clamp(2, 8).min(board.len() - board.flags().len());
            assert_eq!(board.starts().len(), expected, "{seed} {w}x{h}");
            assert!((1..=3).contains(&board.flags().len()));
            assert_eq!(board, random_board(seed, w, h, players));
        }
    }
    let big = random_board(1, 16, 16, 8);
    assert_eq!(big.starts().len(), 8);
    let t = tiles(&big);
    assert!(t.contains(&Tile::Pit) && t.iter().any(|t| t.conveyor().is_some()));
}

/// One square before flags and starts are placed.
fn square_strategy() -> impl Strategy<Value = Square> {
    let tile = prop_oneof![
        4 => Just(Tile::Floor),
        1 => Just(Tile::Pit),
        1 => Just(Tile::Repair),
        1 => Just(Tile::Gear(Rotation::Clockwise)),
        1 => Just(Tile::Gear(Rotation::CounterClockwise)),
        2 => (0u8..4, any::<bool>()).prop_map(|(d, express)| Tile::Conveyor {
            dir: Direction::from_index(d),
            express
        }),
    ];
    let laser = prop::option::weighted(0.15, (0u8..4, 1u8..=3)).prop_map(|l| {
        l.map(|(d, strength)| Laser {
            dir: Direction::from_index(d),
            strength,
        })
    });
    (tile, 0u8..16, laser).prop_map(|(tile, walls, laser)| Square {
        tile,
        walls: Walls(walls),
        start: None,
        laser: if tile.is_pit() { None } else { laser },
    })
}

/// A random valid board: sizes 2..=16, flags F1..Fk (k in 0..=3) and starts S1..Sn
/// (n in 0..=8) on floor squares, random names.
fn board_strategy() -> impl Strategy<Value = Board> {
    (2i32..=16, 2i32..=16)
        .prop_flat_map(|(w, h)| {
            let cells = (w * h) as usize;
            (
                Just((w, h)),
                prop::collection::vec(square_strategy(), cells),
                Just((0..cells).collect::<Vec<_>>()).prop_shuffle(),
                0usize..=3,
                0usize..=8,
                "\\PC{0,12}",
                prop_oneof!["", "[ -~]{0,40}", "\\PC{0,20}"],
            )
        })
        .prop_map(
            |((w, h), mut squares, order, flags, starts, name, description)| {
                let flags = flags.min(order.len());
                let starts = starts.min(order.len() - flags);
                for (n, &i) in order.iter().take(flags + starts).enumerate() {
                    if n < flags {
                        squares[i].tile = Tile::Flag(n as u8 + 1);
                    } else {
                        squares[i].tile = Tile::Floor;
                        squares[i].start = Some((n - flags) as u8 + 1);
                    }
                }
                Board::new(name, description, w, h, squares)
                    .unwrap_or_else(|e| panic!("strategy built an invalid board: {e}"))
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn printed_boards_parse_back_to_the_same_board(board in board_strategy()) {
        let text = print_board(&board);
        if board.check_playable().is_ok() {
            prop_assert_eq!(parse_board(&text, "p.toml"), Ok(board.clone()));
        }
        // The grid alone round-trips as a scenario grid, playable or not.
        let table = toml::de::DeTable::parse(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let grid = table.get_ref().get("grid").and_then(|g| g.get_ref().as_str()).unwrap_or_default();
        let ctx = GridContext {
            name: board.name(),
            description: board.description(),
            ..GridContext::new("p.toml", false)
        };
        prop_assert_eq!(parse_grid(grid, &ctx), Ok(board.clone()));
        assert_windward_round_trip(&board);
    }

    #[test]
    fn random_boards_round_trip(seed in any::<u64>(), w in 2i32..=20, h in 2i32..=20, players in 2usize..=8) {
        let board = random_board(seed, w, h, players);
        prop_assert!(playability_problems(&board).is_empty());
        prop_assert_eq!(parse_board(&print_board(&board), "r.toml"), Ok(board.clone()));
        assert_windward_round_trip(&board);
    }
}
