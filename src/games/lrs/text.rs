//! A Last Robot Standing game as text, turn by turn (`replay --text`).

/// One turn as text: the board with the robots on it (seat number and facing), each
/// robot's state, and what happened.
pub fn turn(
    title: &str,
    board: &super::engine::Board,
    robots: &[super::engine::Robot],
    events: &[super::engine::Event],
    names: &[String],
) -> String {
    use std::fmt::Write as _;
    let label = |seat: usize| char::from_digit(seat as u32 + 1, 10).unwrap_or('?');
    let on_board: Vec<_> = robots
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_active())
        .map(|(seat, r)| (r.pos, label(seat), r.facing))
        .collect();
    let mut out = format!("== {title}\n");
    out.push_str(&super::boards::render::render_grid(board, &on_board));
    for (seat, r) in robots.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {} {:<22} {:<9} ({:>2},{:>2}) facing {:<5} damage {} lives {} score {}",
            label(seat),
            names.get(seat).map_or("", String::as_str),
            r.status.name(),
            r.pos.x,
            r.pos.y,
            r.facing.word(),
            r.damage,
            r.lives,
            r.score
        );
    }
    for e in events {
        let victim = e
            .victim
            .map_or_else(String::new, |v| format!(" {}", label(v)));
        let extra = match (e.points, e.cause, e.flag) {
            (_, Some(c), _) => format!(" ({})", c.name()),
            (_, _, Some(f)) => format!(" flag {f} (+{})", e.points),
            (p, _, _) if p != 0 => format!(" (+{p})"),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "  - {} {}{victim}{extra}",
            label(e.robot),
            e.kind.name()
        );
    }
    out
}
