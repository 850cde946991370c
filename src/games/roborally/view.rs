//! RoboRally's replay page: self-contained HTML (no script, nothing loaded) with the
//! scores, and the board after every register of every turn, drawn from the trace.

use crate::games::view::{PageInfo, escape};
use serde_json::Value;

/// The board of a trace with the robots of one step drawn on it (seat and facing).
fn draw(grid: &str, robots: &[Value]) -> String {
    let mut out = String::new();
    for (y, line) in grid.lines().enumerate() {
        for (x, token) in line.split(' ').enumerate() {
            let seat = robots.iter().position(|r| {
                r["x"].as_i64() == Some(x as i64) && r["y"].as_i64() == Some(y as i64)
            });
            let cell = match seat {
                Some(s) => format!("{s}{}", robots[s]["facing"].as_str().unwrap_or("")),
                None => token.to_string(),
            };
            out += &format!("{cell:<7}");
        }
        out = out.trim_end().to_string();
        out.push('\n');
    }
    out
}

/// The page for `trace` (`text::trace`).
pub fn page(trace: &Value, info: &PageInfo) -> String {
    let grid = trace["board"]["grid"].as_str().unwrap_or("");
    let empty = Vec::new();
    let scores = trace["scores"].as_array().unwrap_or(&empty);
    let mut rows = String::new();
    for (s, score) in scores.iter().enumerate() {
        let team = info.seats.get(s).map_or("", String::as_str);
        rows += &format!(
            "<tr><td>{s}</td><td>{}</td><td>{score}</td></tr>\n",
            escape(team)
        );
    }
    let verdict = match &info.stored_scores {
        Some(stored) => {
            let replayed: Vec<i64> = scores.iter().filter_map(Value::as_i64).collect();
            let same = stored
                .iter()
                .map(|s| i64::from(*s))
                .eq(replayed.iter().copied());
            if same {
                "<p id=\"verdict\">Replayed scores match the stored result.</p>".to_string()
            } else {
                format!(
                    "<p id=\"verdict\">REPLAY DIFFERS FROM THE STORED GAME: stored {}, replayed {}.</p>",
                    escape(&format!("{stored:?}")),
                    escape(&format!("{replayed:?}"))
                )
            }
        }
        None => String::new(),
    };
    let mut steps = String::new();
    for step in trace["steps"].as_array().unwrap_or(&empty) {
        let robots = step["robots"].as_array().unwrap_or(&empty);
        let events: Vec<String> = step["events"]
            .as_array()
            .unwrap_or(&empty)
            .iter()
            .map(|e| escape(&e.to_string()))
            .collect();
        let hp: Vec<String> = robots
            .iter()
            .enumerate()
            .map(|(s, r)| {
                format!(
                    "{s}: {} hp {} lives {} flags {} locked {}",
                    r["status"].as_str().unwrap_or(""),
                    r["hp"],
                    r["lives"],
                    r["checkpoints"],
                    r["locked"]
                )
            })
            .collect();
        steps += &format!(
            "<section><h3>turn {} register {}</h3><pre>{}</pre><pre>{}</pre><pre>{}</pre></section>\n",
            step["turn"],
            step["register"],
            escape(&draw(grid, robots)),
            escape(&hp.join("\n")),
            events.join("\n")
        );
    }
    let back = info
        .back
        .as_ref()
        .map(|(href, text)| format!("<p><a href=\"{}\">{}</a></p>", escape(href), escape(text)))
        .unwrap_or_default();
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
<title>{title}</title><style>body{{font-family:sans-serif}} pre{{font-family:monospace}}</style></head>\
<body><h1>{title}</h1><p>{meta}</p>{back}{verdict}\
<table><thead><tr><th>Seat</th><th>Team</th><th>Score</th></tr></thead><tbody>{rows}</tbody></table>\
{steps}</body></html>\n",
        title = escape(&info.title),
        meta = escape(&info.meta),
    )
}
